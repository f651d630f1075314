/**
 * The outbound URL rule of every address a company types for the platform to call (webhooks, an AI prompt's API
 * URL; docs/product/webhooks.md#url-rules): in the cloud only `https://`, no credentials in the URL, and the host must
 * be on the public internet (no loopback, private, link-local, carrier-grade NAT, multicast or reserved address), so
 * a company's URL never reaches into our own network. On one machine (`STAGE=local`) `http://` and local addresses
 * are allowed (the test receivers and the local AI stand-in listen on loopback).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { getConfig } from "../config.ts";

/** True on one machine: http and local addresses are allowed. */
export const oneMachine = (): boolean => getConfig().STAGE === "local";

/** True when `ip` (v4 or v6, a v4-mapped v6 included) is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === "unicast";
}

/** The host of `url` without IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "");

/**
 * `raw` as an outbound URL under the rule above, or null when it breaks it: absolute, `https:` (or `http:` on one
 * machine), no user or password, a host, and not an address literal outside the public internet (in the cloud).
 * A host name is checked when connecting ({@link publicOnlyLookup}, {@link assertPublicHost}).
 */
export function publicUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const local = oneMachine();
  const host = hostOf(url);
  const schemeOk = url.protocol === "https:" || (local && url.protocol === "http:");
  if (!schemeOk || url.username || url.password || !host || (!local && isIP(host) && !isPublicAddress(host))) return null;
  return url;
}

/** A DNS lookup that refuses every non-public address (for the cloud's connections: checked by the connection's own lookup). */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const list = addresses as unknown as LookupAddress[];
    const blocked = list.find((a) => !isPublicAddress(a.address));
    if (blocked || !list.length) return callback(Object.assign(new Error(`address not allowed: ${blocked?.address ?? "none"}`), { code: "EWEBHOOKADDRESS" }), "", 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/**
 * In the cloud, resolves `url`'s host and throws unless every address is public (for clients whose connection's own
 * lookup cannot be replaced, e.g. the `openai` package's fetch). No-op on one machine. @throws Error naming the address.
 */
export async function assertPublicHost(url: URL): Promise<void> {
  if (oneMachine()) return;
  const host = hostOf(url);
  const list = isIP(host) ? [{ address: host }] : await new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (err, a) => (err ? reject(err) : resolve(a))));
  const blocked = list.find((a) => !isPublicAddress(a.address));
  if (blocked || !list.length) throw new Error(`address not allowed: ${blocked?.address ?? "none"}`);
}
