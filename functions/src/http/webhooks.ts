/**
 * Company webhooks area. Thin: call the webhooks service. Contract: `shared/src/webhooks/contract.ts`; rules:
 * docs/product/webhooks.md.
 */
import {
  createWebhook,
  deleteWebhook,
  listCompanyWebhooks,
  pageWebhookDeliveries,
  regenerateWebhookSecret,
  sendTestEvent,
  showWebhook,
  updateWebhook,
} from "@atende/shared/webhooks/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("webhooks", {
  "GET /api/webhooks": async (ctx) => listCompanyWebhooks(ctx.auth),
  "POST /api/webhooks": async (ctx) => createWebhook(ctx.auth, ctx.body),
  "GET /api/webhooks/{id}": async (ctx) => showWebhook(ctx.auth, ctx.params.id),
  "PUT /api/webhooks/{id}": async (ctx) => updateWebhook(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/webhooks/{id}": answering("Webhook deleted", (ctx) => deleteWebhook(ctx.auth, ctx.params.id)),
  "POST /api/webhooks/{id}/secret": async (ctx) => regenerateWebhookSecret(ctx.auth, ctx.params.id),
  "POST /api/webhooks/{id}/test": async (ctx) => sendTestEvent(ctx.auth, ctx.params.id),
  "GET /api/webhooks/{id}/deliveries": async (ctx) => pageWebhookDeliveries(ctx.auth, ctx.params.id, ctx.query),
});
