/**
 * One HTTP attempt of a webhook delivery, with the URL rules (docs/product/webhooks.md#url-rules): in the cloud only
 * `https://` URLs, and the address the host name resolves to must be a public one (no loopback, private, link-local,
 * carrier-grade NAT, multicast or reserved address: a webhook never reaches into our own network). The check is made
 * by the connection's own DNS lookup, so a name that resolves differently between a check and the connection cannot
 * slip through. On one machine (`STAGE=local`) `http://` and local addresses are allowed (the test receiver is local).
 * Each attempt has {@link ATTEMPT_TIMEOUT_MS}; redirects are not followed (a 3xx is a failed attempt).
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { AppError } from "../errors.ts";
import { hostOf, isPublicAddress, oneMachine, publicOnlyLookup, publicUrl } from "../net/public-url.ts";
import "./errors.ts";
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from "./signature.ts";

/** How long one attempt may take, connection and answer included (ms). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Most characters of an error kept in the delivery log. */
const ERROR_MAX = 300;

/**
 * `raw` as a webhook URL: the outbound URL rule (`net/public-url.ts` `publicUrl`). Throws 400 `ERR_WEBHOOK_URL_INVALID`.
 */
export function checkWebhookUrl(raw: string): URL {
  const url = publicUrl(raw);
  if (!url) throw new AppError("ERR_WEBHOOK_URL_INVALID");
  return url;
}

/** What one attempt got: a 2xx (`ok`), another answer (`responseCode`), or no answer (`error`). */
export interface AttemptResult {
  ok: boolean;
  responseCode: number | null;
  error: string | null;
}

/**
 * POSTs `body` to `url`, signed with `secret` at `nowMs` (headers: content type, event id and type, timestamp,
 * signature). Never throws: a refused URL, a connection error or the timeout is an `error`.
 */
export async function postWebhook(target: { url: string; secret: string }, body: string, meta: { eventId: string; eventType: string }, nowMs: number): Promise<AttemptResult> {
  let url: URL;
  try {
    url = checkWebhookUrl(target.url);
  } catch {
    return { ok: false, responseCode: null, error: "URL not allowed" };
  }
  const timestamp = Math.floor(nowMs / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "Atende-Webhooks/1",
    [EVENT_ID_HEADER]: meta.eventId,
    [EVENT_TYPE_HEADER]: meta.eventType,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signWebhook(target.secret, timestamp, body),
  };
  const local = oneMachine();
  const literal = hostOf(url);
  if (!local && isIP(literal) && !isPublicAddress(literal)) return { ok: false, responseCode: null, error: "address not allowed" };
  const client = url.protocol === "https:" ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const req = client.request(
      url,
      { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, timeout: ATTEMPT_TIMEOUT_MS, ...(local ? {} : { lookup: publicOnlyLookup }) },
      (res) => {
        res.resume(); // the answer's body is not read
        const code = res.statusCode ?? 0;
        res.on("end", () => resolve({ ok: code >= 200 && code < 300, responseCode: code, error: code >= 200 && code < 300 ? null : `HTTP ${code}` }));
        res.on("error", () => resolve({ ok: code >= 200 && code < 300, responseCode: code, error: null }));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer in ${ATTEMPT_TIMEOUT_MS / 1000} s`)), ATTEMPT_TIMEOUT_MS);
    req.on("timeout", () => req.destroy(new Error(`no answer in ${ATTEMPT_TIMEOUT_MS / 1000} s`)));
    req.on("error", (err) => resolve({ ok: false, responseCode: null, error: String((err as Error).message ?? err).slice(0, ERROR_MAX) }));
    req.on("close", () => clearTimeout(timer));
    req.end(body);
  });
}
