/**
 * Users' domain events (see `docs/architecture.md` §4): `user.created|updated` carry the public user, `user.deleted`
 * its id; `user.loggedIn` (a new login bumped the token version) and `user.revoked` (logout, refresh-token reuse: every
 * session older than `tokenVersion`). Realtime frames `company-{id}-user` `{action, user | userId}` to the company and
 * `company-{id}-auth` `{action:"update", user, tokenVersion}` to that user only (single login).
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { AuthFrame, UserFrame } from "./contract.ts";
import type { PublicUser } from "./schema.ts";

type Base<T extends string> = { type: T; companyId: number };

declare module "../events/registry.ts" {
  interface EventMap {
    "user.created": Base<"user.created"> & { user: PublicUser };
    /** `changed`: the only fields that moved, when the writer knows them (absent: any may have). */
    "user.updated": Base<"user.updated"> & { user: PublicUser; changed?: string[] };
    "user.deleted": Base<"user.deleted"> & { userId: number };
    /** A user logged in (token version bumped): their other tabs learn it (single login). */
    "user.loggedIn": Base<"user.loggedIn"> & { user: { id: number; email: string; companyId: number }; tokenVersion: number };
    /** Every session of a user older than `tokenVersion` was revoked (logout, refresh-token reuse). */
    "user.revoked": Base<"user.revoked"> & { userId: number; tokenVersion: number };
  }
}

const publicUser = z.object({ id: z.number().int(), companyId: z.number().int(), name: z.string(), email: z.string(), profile: z.string() }).passthrough();

defineEvents({
  "user.created": baseEvent("user.created").extend({ user: publicUser }),
  "user.updated": baseEvent("user.updated").extend({ user: publicUser, changed: z.array(z.string()).optional() }),
  "user.deleted": baseEvent("user.deleted").extend({ userId: z.number().int() }),
  "user.loggedIn": baseEvent("user.loggedIn").extend({
    user: z.object({ id: z.number().int(), email: z.string(), companyId: z.number().int() }),
    tokenVersion: z.number().int(),
  }),
  "user.revoked": baseEvent("user.revoked").extend({ userId: z.number().int(), tokenVersion: z.number().int() }),
});

defineFrames({ user: UserFrame, auth: AuthFrame });

realtimeFrames("user.created", (e) => [{ name: "user", data: { action: "create", user: e.user } }]);
realtimeFrames("user.updated", (e) => [{ name: "user", data: { action: "update", user: e.user } }]);
realtimeFrames("user.deleted", (e) => [{ name: "user", data: { action: "delete", userId: e.userId } }]);
realtimeFrames("user.loggedIn", (e) => [
  { name: "auth", data: { action: "update", user: e.user, tokenVersion: e.tokenVersion }, audience: { kind: "user", userId: e.user.id } },
]);
