/**
 * Requests that did not come through CloudFront are refused in the cloud: the execute-api endpoints of
 * the HTTP and WebSocket APIs are public, so CloudFront adds the origin secret (`x-atende-origin` =
 * `ORIGIN_VERIFY_SECRET`, a Secrets Manager value) to every API origin request, and every HTTP route and the WebSocket
 * `$connect` check it. Locally (no secret configured) every request passes.
 */
import { timingSafeEqual } from "node:crypto";
import { getConfig } from "../config.ts";

/** Header CloudFront adds to every API origin request, holding `ORIGIN_VERIFY_SECRET`. */
export const ORIGIN_VERIFY_HEADER = "x-atende-origin";

/** Constant-time comparison of two strings. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * True when the request carries CloudFront's origin secret (`headers` as API Gateway gives them, lower-case names).
 * False when no secret is configured: nothing can prove the origin then.
 */
export function hasOriginSecret(headers: Record<string, string | undefined> | null | undefined): boolean {
  const secret = getConfig().ORIGIN_VERIFY_SECRET;
  const presented = headers?.[ORIGIN_VERIFY_HEADER];
  return !!secret && !!presented && sameSecret(presented, secret);
}

/** True when the request may be served: no secret configured (one machine), or it carries the secret. */
export function originAllowed(headers: Record<string, string | undefined> | null | undefined): boolean {
  return !getConfig().ORIGIN_VERIFY_SECRET || hasOriginSecret(headers);
}
