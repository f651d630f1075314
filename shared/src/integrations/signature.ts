/**
 * HMAC signatures of the deliveries this system POSTs to a company's URLs (n8n and webhook integrations; any other
 * signed delivery may share it). The recipe, for receivers (docs/product/integrations.md#verifying-a-delivery):
 *
 *   signed = `${X-Atende-Timestamp}.${raw body}`
 *   X-Atende-Signature = "sha256=" + hex(HMAC-SHA256(secret, signed))
 *
 * The timestamp is Unix seconds at the time of that attempt; a receiver refuses timestamps older than a few minutes
 * (replays) and compares signatures in constant time.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "X-Atende-Signature";
export const TIMESTAMP_HEADER = "X-Atende-Timestamp";
/** How far a timestamp may be from the receiver's clock for {@link verifySignature} (seconds). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `sha256=<hex>` of `${timestamp}.${body}` under `secret` (timestamp in Unix seconds). */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The two headers of a signed delivery of `body`, signed at `nowMs` (epoch milliseconds). */
export function signedHeaders(secret: string, body: string, nowMs = Date.now()): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signPayload(secret, timestamp, body) };
}

/**
 * True when `signature` is the signature of `body` at `timestamp` (a header's text) under `secret` and the timestamp
 * is within {@link SIGNATURE_TOLERANCE_SECONDS} of `nowMs`. Constant-time comparison; never throws.
 */
export function verifySignature(secret: string, timestamp: string, body: string, signature: string, nowMs = Date.now()): boolean {
  const ts = Number(timestamp);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - ts) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const want = Buffer.from(signPayload(secret, ts, body));
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}
