/**
 * Users area (attendance.md §3 User, §5, §7; issue 2 §4). Thin: parse, call the users service.
 */
import { z } from "zod";
import { zId, zPageNumber } from "@atende/shared/common";
import { CreateUserBody, UpdateUserBody } from "@atende/shared/users/schema";
import { createUser, deleteUser, listAllUsers, listUsersPage, showUser, updateUser } from "@atende/shared/users/service";
import { getConfig } from "@atende/shared/config";
import { areaHandler, reply, route } from "./core/http.ts";
import { refreshCookie } from "./core/cookies.ts";

const IdParams = z.object({ id: zId });

export const handler = areaHandler("users", {
  "GET /api/users": route({
    query: z.object({ searchParam: z.string().max(200).optional(), pageNumber: zPageNumber }),
    handler: async (ctx) => listUsersPage(ctx.auth, ctx.query),
  }),
  "GET /api/users/list": route({
    handler: async (ctx) => listAllUsers(ctx.auth),
  }),
  "GET /api/users/{id}": route({
    params: IdParams,
    handler: async (ctx) => showUser(ctx.auth, ctx.params.id),
  }),
  "POST /api/users": route({
    body: CreateUserBody,
    handler: async (ctx) => reply(200, await createUser(ctx.auth, ctx.body)),
  }),
  "PUT /api/users/{id}": route({
    params: IdParams,
    body: UpdateUserBody,
    handler: async (ctx) => {
      // A self-change that revoked the caller's tokens answers with new ones (body `token`, refresh cookie).
      const { session, ...user } = await updateUser(ctx.auth, ctx.params.id, ctx.body);
      if (!session) return user;
      const secure = ctx.secure || getConfig().SECURE_COOKIES === true;
      return reply(200, { ...user, token: session.token }, { cookies: [refreshCookie(session.refreshToken, session.refreshMaxAgeSeconds, secure)] });
    },
  }),
  "DELETE /api/users/{id}": route({
    params: IdParams,
    handler: async (ctx) => {
      await deleteUser(ctx.auth, ctx.params.id);
      return reply(200, { message: "User deleted" });
    },
  }),
});
