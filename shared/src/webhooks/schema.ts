/**
 * Company webhooks (docs/product/webhooks.md): the stored webhook and its deliveries, the request bodies, the answers,
 * the JSON payload a receiver gets and the message of the webhooks queue.
 */
import { z } from "zod";
import { zId } from "../common.ts";

/** The domain events a webhook may subscribe to (the payload's `type`); `webhook.test` is only sent by the test button. */
export const WEBHOOK_EVENTS = [
  "message.created",
  "message.updated",
  "ticket.created",
  "ticket.statusChanged",
  "ticket.transferred",
  "ticket.closed",
  "ticket.rated",
  "contact.created",
  "contact.updated",
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = z.infer<typeof WebhookEventType>;
/** The test button's event type (sent to one webhook, whatever its events). */
export const TEST_EVENT = "webhook.test";

/** Deliveries per page of the delivery log. */
export const DELIVERIES_PAGE_SIZE = 20;
/** A delivery is kept this many days after its event, then removed by the table's TTL. */
export const DELIVERY_RETENTION_DAYS = 14;
/** Longest URL accepted. */
export const WEBHOOK_URL_MAX = 2048;
/** Most webhooks per company. */
export const WEBHOOKS_PER_COMPANY = 20;

// ---------------------------------------------------------------------------------------------
// 1. Stored items

/**
 * A webhook, `C#<cid>` / `HOOK#<id>`. Its signing secret is stored only sealed (AES-256-GCM with the platform's at-rest
 * key, `whatsapp/token.ts`), and answered in clear only by create and regenerate; `secretHint` is its last four characters.
 */
export const WebhookItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  url: z.string(),
  events: z.array(WebhookEventType),
  enabled: z.boolean(),
  secretSealed: z.string(),
  secretHint: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookItem = z.infer<typeof WebhookItem>;

/** Where a delivery is: waiting for an attempt (or its retry), delivered (a 2xx answer), failed (retry window over). */
export const DeliveryStatus = z.enum(["pending", "delivered", "failed"]);

/** One event sent to one webhook, `C#<cid>#HOOK#<wid>` / `DLV#<at>#<eventId>`, TTL'd ({@link DELIVERY_RETENTION_DAYS}). */
export const DeliveryItem = z.object({
  companyId: z.number().int(),
  webhookId: z.number().int(),
  /** The payload's `id`: stable across retries and re-runs (receivers dedupe on it). */
  eventId: z.string(),
  eventType: z.string(),
  /** The event's time (ISO): the payload's `timestamp`, and where the delivery sorts in the log. */
  at: z.string(),
  /** The exact JSON body sent on every attempt. */
  body: z.string(),
  status: DeliveryStatus,
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable().default(null),
  nextAttemptAt: z.string().nullable().default(null),
  responseCode: z.number().int().nullable().default(null),
  lastError: z.string().nullable().default(null),
  expiresAt: z.number().int(),
});
export type DeliveryItem = z.infer<typeof DeliveryItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

const name = z.string().trim().min(1, "Obrigatório").max(100);
const url = z.string().trim().min(1, "Obrigatório").max(WEBHOOK_URL_MAX);
const events = z.array(WebhookEventType).min(1, "Obrigatório").transform((e) => [...new Set(e)]);

export const CreateWebhookBody = z.object({ name, url, events, enabled: z.boolean().default(true) });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;
export const UpdateWebhookBody = z.object({ name: name.optional(), url: url.optional(), events: events.optional(), enabled: z.boolean().optional() });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;
export const WebhookIdParams = z.object({ id: zId });
export const DeliveriesQuery = z.object({ cursor: z.string().max(2000).optional() });
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;

// ---------------------------------------------------------------------------------------------
// 3. Answers

/** A webhook as the API shows it: the secret only as its last four characters. */
export const Webhook = WebhookItem.omit({ secretSealed: true });
export type Webhook = z.infer<typeof Webhook>;
/** Create and regenerate: the webhook with its secret, shown this once. */
export const WebhookWithSecret = Webhook.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;
export const WebhookList = z.array(Webhook);
export const WebhookDeleted = z.object({ message: z.string() });

/** A delivery as the log shows it (the body sent included). */
export const Delivery = DeliveryItem.omit({ expiresAt: true });
export type Delivery = z.infer<typeof Delivery>;
export const DeliveriesPage = z.object({ records: z.array(Delivery), cursor: z.string().optional() });
export type DeliveriesPage = z.infer<typeof DeliveriesPage>;

// ---------------------------------------------------------------------------------------------
// 4. The wire: the payload a receiver gets, and the webhooks queue's message

/** The JSON body POSTed to a webhook (docs/product/webhooks.md#payload). `data` holds the views the event concerns. */
export const WebhookPayload = z.object({
  id: z.string(),
  type: z.string(),
  timestamp: z.string(),
  companyId: z.number().int(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** One attempt to make: the delivery's key and how many attempts it had when the attempt was queued. */
export const WebhookDeliveryMessage = z.object({
  kind: z.literal("webhookDelivery"),
  companyId: z.number().int(),
  webhookId: z.number().int(),
  at: z.string(),
  eventId: z.string(),
  attempt: z.number().int().min(0),
});
export type WebhookDeliveryMessage = z.infer<typeof WebhookDeliveryMessage>;
