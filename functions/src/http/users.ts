/**
 * Users area (attendance.md §3 User, §5, §7; issue 2 §4). Thin: call the users service.
 * Contract: `shared/src/users/contract.ts`.
 */
import { createUser, deleteUser, listAllUsers, listUsersPage, showUser, updateUser } from "@atende/shared/users/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("users", {
  "GET /api/users": async (ctx) => listUsersPage(ctx.auth, ctx.query),
  "GET /api/users/list": async (ctx) => listAllUsers(ctx.auth),
  "GET /api/users/{id}": async (ctx) => showUser(ctx.auth, ctx.params.id),
  "POST /api/users": async (ctx) => createUser(ctx.auth, ctx.body),
  "PUT /api/users/{id}": async (ctx) => updateUser(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/users/{id}": async (ctx) => {
    await deleteUser(ctx.auth, ctx.params.id);
    return { message: "User deleted" };
  },
});
