/**
 * The webhook signature (docs/product/webhooks.md#signature): `X-Atende-Signature: v1=<hex>` where `<hex>` is
 * HMAC-SHA256, keyed with the webhook's secret, of `<X-Atende-Timestamp>.<raw body>` (the timestamp in whole Unix
 * seconds, a dot, the exact bytes of the body).
 */
import { createHmac, randomBytes } from "node:crypto";

/** The headers a delivery carries. */
export const SIGNATURE_HEADER = "x-atende-signature";
export const TIMESTAMP_HEADER = "x-atende-timestamp";
export const EVENT_ID_HEADER = "x-atende-event-id";
export const EVENT_TYPE_HEADER = "x-atende-event";

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The `v1=<hex>` signature of `body` sent at `timestamp` (Unix seconds) with `secret`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")}`;
}
