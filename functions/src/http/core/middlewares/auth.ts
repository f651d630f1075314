/**
 * Auth by the manifest's level: `public` passes (no caller); `apiToken` takes a connection's token (the public
 * messages API: company gate, plan flag and the token's rate window, `authenticateApiToken`); otherwise the bearer token is verified and the
 * caller loaded (companyId only from the token; the user item read is reused for 2 s per token version, see
 * `authenticateCached`) — 401/403 `ERR_SESSION_EXPIRED` when it is not valid; an
 * operation's permission (`permissionOf`: its own, or `routes:admin` for the `admin` level) is checked with `can` of the
 * shared table, and `super` needs the super flag (403 `ERR_NO_PERMISSION`). The caller's company is checked on every
 * request, not only at login: a company switched off (`status` false) gets 401 `ERR_COMPANY_INACTIVE` and one past its
 * due date 401 `ERR_SUBSCRIPTION_EXPIRED` `{dueDate}` (the web signs out with the spec's text); super users are
 * exempt from both. An operation with a `plan` flag needs the company's plan to have it on (403
 * `ERR_PLAN_FEATURE_DISABLED`).
 */
import type middy from "@middy/core";
import { can } from "@atende/shared/access/permissions";
import { authenticateCached } from "@atende/shared/auth/tokens";
import { isExpired } from "@atende/shared/auth/service";
import { companyGate } from "@atende/shared/companies/service";
import { authenticateApiToken } from "@atende/shared/messagesApi/service";
import { permissionOf, type OperationSpec } from "@atende/shared/contract";
import { AppError } from "@atende/shared/errors";
import { header, stateOf, type HttpEvent, type HttpResponse } from "../types.ts";

export const auth = (op: Pick<OperationSpec, "auth" | "permission" | "plan">): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  before: async ({ event }) => {
    const level = op.auth;
    const permission = permissionOf(op);
    if (level === "public") return;
    const bearer = header(event, "authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (level === "apiToken") {
      stateOf(event).apiCaller = await authenticateApiToken(bearer, op.plan);
      return;
    }
    const caller = await authenticateCached(bearer);
    if (permission && !can(caller, permission)) throw new AppError("ERR_NO_PERMISSION");
    if (level === "super" && !can(caller, "routes:super")) throw new AppError("ERR_NO_PERMISSION");
    const gate = await companyGate(caller.companyId);
    if (!gate) throw new AppError("ERR_SESSION_EXPIRED");
    if (!can(caller, "subscription:pastDueDate")) {
      if (!gate.status) throw new AppError("ERR_COMPANY_INACTIVE");
      if (isExpired(gate.dueDate)) throw new AppError("ERR_SUBSCRIPTION_EXPIRED", { dueDate: gate.dueDate });
    }
    if (op.plan && !gate.flags[op.plan]) throw new AppError("ERR_PLAN_FEATURE_DISABLED");
    stateOf(event).auth = caller;
  },
});
