/**
 * Auth by the manifest's level: `public`/`apiToken` pass (no caller); otherwise the bearer token is verified and the
 * caller loaded (companyId only from the token; the user item read is reused for 2 s per token version, see
 * `authenticateCached`) — 401/403 `ERR_SESSION_EXPIRED` when it is not valid; an
 * operation's permission (`permissionOf`: its own, or `routes:admin` for the `admin` level) is checked with `can` of the
 * shared table, and `super` needs the super flag (403 `ERR_NO_PERMISSION`).
 */
import type middy from "@middy/core";
import { can } from "@atende/shared/access/permissions";
import { authenticateCached } from "@atende/shared/auth/tokens";
import { permissionOf, type OperationSpec } from "@atende/shared/contract";
import { AppError } from "@atende/shared/errors";
import { header, stateOf, type HttpEvent, type HttpResponse } from "../types.ts";

export const auth = (op: Pick<OperationSpec, "auth" | "permission">): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  before: async ({ event }) => {
    const level = op.auth;
    const permission = permissionOf(op);
    if (level === "public" || level === "apiToken") return;
    const bearer = header(event, "authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
    const caller = await authenticateCached(bearer);
    if (permission && !can(caller, permission)) throw new AppError("ERR_NO_PERMISSION");
    if (level === "super" && !can(caller, "routes:super")) throw new AppError("ERR_NO_PERMISSION");
    stateOf(event).auth = caller;
  },
});
