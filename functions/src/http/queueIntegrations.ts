/**
 * Queue integrations area (plan flag `useIntegrations`, admins). Thin: call the integrations service. Contract:
 * `shared/src/integrations/contract.ts`.
 */
import { createIntegration, deleteIntegration, pageIntegrations, showIntegration, testSession, updateIntegration } from "@atende/shared/integrations/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("queueIntegrations", {
  "GET /api/queueIntegration": async (ctx) => pageIntegrations(ctx.auth, ctx.query),
  "POST /api/queueIntegration/testSession": async (ctx) => testSession(ctx.auth, ctx.body),
  "GET /api/queueIntegration/{id}": async (ctx) => showIntegration(ctx.auth, ctx.params.id),
  "POST /api/queueIntegration": async (ctx) => createIntegration(ctx.auth, ctx.body),
  "PUT /api/queueIntegration/{id}": async (ctx) => updateIntegration(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/queueIntegration/{id}": answering("Integration deleted", (ctx) => deleteIntegration(ctx.auth, ctx.params.id)),
});
