/**
 * Users area (docs/product/users.md). Thin: call the users service.
 * Contract: `shared/src/users/contract.ts`.
 */
import { createUser, deleteUser, listAllUsers, listUsersPage, showUser, updateUser } from "@atende/shared/users/service";
import { getConfig } from "@atende/shared/config";
import { answering, areaHandler, reply } from "./core/http.ts";
import { refreshCookie } from "./core/cookies.ts";

export const handler = areaHandler("users", {
  "GET /api/users": async (ctx) => listUsersPage(ctx.auth, ctx.query),
  "GET /api/users/list": async (ctx) => listAllUsers(ctx.auth),
  "GET /api/users/{id}": async (ctx) => showUser(ctx.auth, ctx.params.id),
  "POST /api/users": async (ctx) => createUser(ctx.auth, ctx.body),
  "PUT /api/users/{id}": async (ctx) => {
    // A self-change that revoked the caller's tokens answers with new ones (body `token`, refresh cookie).
    const { session, ...user } = await updateUser(ctx.auth, ctx.params.id, ctx.body);
    if (!session) return user;
    const secure = ctx.secure || getConfig().SECURE_COOKIES === true;
    return reply(200, { ...user, token: session.token }, { cookies: [refreshCookie(session.refreshToken, session.refreshMaxAgeSeconds, secure)] });
  },
  "DELETE /api/users/{id}": answering("User deleted", (ctx) => deleteUser(ctx.auth, ctx.params.id)),
});
