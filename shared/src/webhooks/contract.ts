/**
 * Company webhooks operations (docs/product/webhooks.md), admins only (`admin` level: an agent or supervisor gets 403
 * `ERR_NO_PERMISSION`). A webhook of another company is 404 `ERR_NO_WEBHOOK_FOUND`. The secret is in the answers of
 * create and `POST /api/webhooks/{id}/secret` only.
 */
import { defineRoutes } from "../contract.ts";
import {
  CreateWebhookBody,
  DeliveriesPage,
  DeliveriesQuery,
  Delivery,
  UpdateWebhookBody,
  Webhook,
  WebhookDeleted,
  WebhookIdParams,
  WebhookList,
  WebhookWithSecret,
} from "./schema.ts";

export const webhooksRoutes = defineRoutes("webhooks", {
  "GET /api/webhooks": { auth: "admin", response: WebhookList },
  "POST /api/webhooks": { auth: "admin", body: CreateWebhookBody, response: WebhookWithSecret },
  "GET /api/webhooks/{id}": { auth: "admin", params: WebhookIdParams, response: Webhook },
  "PUT /api/webhooks/{id}": { auth: "admin", params: WebhookIdParams, body: UpdateWebhookBody, response: Webhook },
  "DELETE /api/webhooks/{id}": { auth: "admin", params: WebhookIdParams, response: WebhookDeleted },
  /** A new secret, answered this once. */
  "POST /api/webhooks/{id}/secret": { auth: "admin", params: WebhookIdParams, response: WebhookWithSecret },
  /** "Send test event": a `webhook.test` delivery, answered pending. */
  "POST /api/webhooks/{id}/test": { auth: "admin", params: WebhookIdParams, response: Delivery },
  /** The delivery log, newest first, 20 per page. */
  "GET /api/webhooks/{id}/deliveries": { auth: "admin", params: WebhookIdParams, query: DeliveriesQuery, response: DeliveriesPage },
});
