/**
 * One HTTP attempt of a webhook delivery, with the URL rules (docs/product/webhooks.md#url-rules): in the cloud only
 * `https://` URLs, and the address the host name resolves to must be a public one (no loopback, private, link-local,
 * carrier-grade NAT, multicast or reserved address: a webhook never reaches into our own network). The check is made
 * by the connection's own DNS lookup, so a name that resolves differently between a check and the connection cannot
 * slip through. On one machine (`STAGE=local`) `http://` and local addresses are allowed (the test receiver is local).
 * Each attempt has {@link ATTEMPT_TIMEOUT_MS}; redirects are not followed (a 3xx is a failed attempt).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { getConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import "./errors.ts";
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from "./signature.ts";

/** How long one attempt may take, connection and answer included (ms). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Most characters of an error kept in the delivery log. */
const ERROR_MAX = 300;

/** True on one machine: http and local addresses are allowed. */
const oneMachine = () => getConfig().STAGE === "local";

/** True when `ip` (v4 or v6, a v4-mapped v6 included) is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === "unicast";
}

/**
 * `raw` as a webhook URL: absolute, `https:` (or `http:` on one machine), no credentials in it, and not an address
 * literal outside the public internet (in the cloud). Throws 400 `ERR_WEBHOOK_URL_INVALID`.
 */
export function checkWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("ERR_WEBHOOK_URL_INVALID");
  }
  const local = oneMachine();
  const schemeOk = url.protocol === "https:" || (local && url.protocol === "http:");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!schemeOk || url.username || url.password || !host || (!local && isIP(host) && !isPublicAddress(host))) {
    throw new AppError("ERR_WEBHOOK_URL_INVALID");
  }
  return url;
}

/** A DNS lookup that refuses every non-public address (the cloud's connections). */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const list = addresses as unknown as LookupAddress[];
    const blocked = list.find((a) => !isPublicAddress(a.address));
    if (blocked || !list.length) return callback(Object.assign(new Error(`address not allowed: ${blocked?.address ?? "none"}`), { code: "EWEBHOOKADDRESS" }), "", 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

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
  const literal = url.hostname.replace(/^\[|\]$/g, "");
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
