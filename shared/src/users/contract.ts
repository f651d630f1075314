/**
 * Users operations (docs/product/users.md): requests and answers. `PublicUser` is the user as the
 * API shows it (no hash, no token version), with its queues `{id,name,color}` and default connection `{id,name}`.
 */
import { z } from "zod";
import { zPageNumber } from "../common.ts";
import { ColoredRef, defineRoutes, IdParams, MessageReply, NamedRef } from "../contract.ts";
import { CreateUserBody, UpdateUserBody, UserItem } from "./schema.ts";

/** A user as the API returns it. */
export const PublicUser = UserItem.omit({ passwordHash: true, tokenVersion: true, refreshJti: true }).extend({
  queues: z.array(ColoredRef),
  whatsapp: NamedRef.nullable().optional(),
});

export const usersRoutes = defineRoutes("users", {
  "GET /api/users": {
    auth: "admin",
    permission: "user-modal:editProfile",
    query: z.object({ searchParam: z.string().max(200).optional(), pageNumber: zPageNumber }),
    response: z.object({ users: z.array(PublicUser), count: z.number().int(), hasMore: z.boolean() }),
  },
  "GET /api/users/list": { auth: "user", response: z.array(PublicUser) },
  "GET /api/users/{id}": { auth: "user", params: IdParams, response: PublicUser },
  "POST /api/users": { auth: "admin", permission: "user-modal:editProfile", body: CreateUserBody, response: PublicUser },
  /** A self password/profile change that revoked the caller's tokens also answers the new access `token`. */
  "PUT /api/users/{id}": { auth: "user", params: IdParams, body: UpdateUserBody, response: PublicUser.extend({ token: z.string().optional() }) },
  "DELETE /api/users/{id}": { auth: "admin", permission: "user-modal:editProfile", params: IdParams, response: MessageReply },
});

/** `company-{id}-user` frames: the user as the API shows it, or the deleted one's id. */
export const UserFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), user: PublicUser }),
  z.object({ action: z.literal("update"), user: PublicUser }),
  z.object({ action: z.literal("delete"), userId: z.number().int() }),
]);
export type UserFrame = z.infer<typeof UserFrame>;

/** `company-{id}-auth` frames (single login): the user who logged in again and their new token version. */
export const AuthFrame = z.object({ action: z.literal("update"), user: PublicUser.pick({ id: true, email: true, companyId: true }), tokenVersion: z.number().int() });
export type AuthFrame = z.infer<typeof AuthFrame>;
