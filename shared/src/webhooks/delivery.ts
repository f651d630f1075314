/**
 * Deliveries (docs/product/webhooks.md#delivery): each webhook event for each subscribed webhook is one delivery item
 * (its log entry) and one message on the webhooks queue per attempt. At least once: an attempt is made for each queued
 * message whose delivery is still pending with the attempt count it names, and recorded on that condition; a failed
 * attempt (no 2xx answer, a refused address, {@link ATTEMPT_TIMEOUT_MS}) is retried with exponential backoff
 * ({@link retryDelayMs}) through a due-time timer (kind {@link WEBHOOK_RETRY}, fired by the minute tick, which puts
 * the next attempt on the queue) until {@link RETRY_WINDOW_MS} after the event, then the delivery is `failed`.
 */
import { getConfig } from "../config.ts";
import { enqueue } from "../sqs/enqueue.ts";
import { openConnectionToken } from "../whatsapp/token.ts";
import { registerTimerKind, scheduleTimer } from "../timers/index.ts";
import { getDelivery, getWebhook, putNewDelivery, recordAttempt } from "./repository.ts";
import { DELIVERY_RETENTION_DAYS, WebhookDeliveryMessage, type DeliveryItem, type WebhookItem } from "./schema.ts";
import { ATTEMPT_TIMEOUT_MS, postWebhook } from "./send.ts";

export { ATTEMPT_TIMEOUT_MS };
/** Retries stop this long after the event: the delivery is then `failed`. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** The wait after the first failed attempt; each later one doubles, up to {@link MAX_RETRY_GAP_MS}. */
export const FIRST_RETRY_MS = 60_000;
export const MAX_RETRY_GAP_MS = 4 * 60 * 60_000;
/** The timer kind of a delivery's next attempt (ref `<webhookId>|<eventId>`, data: the queue message). */
export const WEBHOOK_RETRY = "webhookRetry";

/** The wait before the next attempt after `attempts` failed ones (ms): 1 min, 2, 4, ... up to 4 h. */
export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_GAP_MS);

const queueUrl = () => {
  const url = getConfig().WEBHOOKS_QUEUE_URL;
  if (!url) throw new Error("WEBHOOKS_QUEUE_URL is not set");
  return url;
};

const messageOf = (d: Pick<DeliveryItem, "companyId" | "webhookId" | "at" | "eventId" | "attempts">): WebhookDeliveryMessage => ({
  kind: "webhookDelivery",
  companyId: d.companyId,
  webhookId: d.webhookId,
  at: d.at,
  eventId: d.eventId,
  attempt: d.attempts,
});

/**
 * Writes the delivery of event `e` (its JSON `body`) to `hook` and queues its first attempt. Written again (a listener
 * run again), the same item is found: its first attempt is queued again only while none was made. Throws when the
 * write or the queue fails (the durable listener runs again).
 */
export async function queueDelivery(hook: WebhookItem, e: { id: string; type: string; at: string }, body: string, nowMs = Date.now()): Promise<DeliveryItem> {
  const d: DeliveryItem = {
    companyId: hook.companyId,
    webhookId: hook.id,
    eventId: e.id,
    eventType: e.type,
    at: e.at,
    body,
    status: "pending",
    attempts: 0,
    lastAttemptAt: null,
    nextAttemptAt: null,
    responseCode: null,
    lastError: null,
    expiresAt: Math.floor((Math.max(Date.parse(e.at) || 0, nowMs) + DELIVERY_RETENTION_DAYS * 86_400_000) / 1000),
  };
  if (!(await putNewDelivery(d))) {
    const stored = await getDelivery(d.companyId, d.webhookId, d.at, d.eventId);
    if (stored?.status !== "pending" || stored.attempts > 0) return stored ?? d;
  }
  await enqueue(queueUrl(), messageOf(d));
  return d;
}

const retryRef = (d: Pick<DeliveryItem, "webhookId" | "eventId">) => `${d.webhookId}|${d.eventId}`;

async function scheduleRetry(d: DeliveryItem): Promise<void> {
  await scheduleTimer(d.companyId, WEBHOOK_RETRY, retryRef(d), d.nextAttemptAt!, messageOf(d));
}

/**
 * The webhooks queue consumer's work for one message: makes the attempt it names and records it (delivered, pending
 * with its next attempt's timer, or failed past the retry window). `skipped`: the delivery is gone, settled, or
 * already past this attempt (a message delivered twice). Throws when recording fails (the message comes back).
 */
export async function attemptDelivery(msg: WebhookDeliveryMessage, nowMs = Date.now()): Promise<"delivered" | "retry" | "failed" | "skipped"> {
  const d = await getDelivery(msg.companyId, msg.webhookId, msg.at, msg.eventId);
  if (d?.status !== "pending") return "skipped";
  if (d.attempts !== msg.attempt) {
    // This attempt was recorded but its retry timer may not have been written (a crash in between): write it again.
    if (d.attempts === msg.attempt + 1 && d.nextAttemptAt) await scheduleRetry(d);
    return "skipped";
  }
  const hook = await getWebhook(d.companyId, d.webhookId);
  const result = hook
    ? await postWebhook({ url: hook.url, secret: await openConnectionToken(hook.secretSealed) }, d.body, { eventId: d.eventId, eventType: d.eventType }, nowMs)
    : { ok: false, responseCode: null, error: "webhook deleted" };
  const attempts = d.attempts + 1;
  const next = nowMs + retryDelayMs(attempts);
  const status = result.ok ? "delivered" : hook && next <= Date.parse(d.at) + RETRY_WINDOW_MS ? "pending" : "failed";
  const recorded = {
    status,
    attempts,
    lastAttemptAt: new Date(nowMs).toISOString(),
    nextAttemptAt: status === "pending" ? new Date(next).toISOString() : null,
    responseCode: result.responseCode,
    lastError: result.error,
  } as const;
  if (!(await recordAttempt(d, recorded))) return "skipped";
  if (status === "pending") await scheduleRetry({ ...d, ...recorded });
  return status === "pending" ? "retry" : status;
}

// The retry timer puts the next attempt on the queue (the tick fires it when due).
registerTimerKind(WEBHOOK_RETRY, async (timer) => {
  await enqueue(queueUrl(), WebhookDeliveryMessage.parse(timer.data));
  return undefined;
});
