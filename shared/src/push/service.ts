/**
 * Push subscriptions (docs/product/push.md#opting-in): each signed-in user opts in per device; the device's
 * subscription is stored under the caller's own user and company (from the verified token, never from the body), keyed
 * by the SHA-256 of its endpoint. Nobody reads or removes another user's subscription: the routes only ever name the
 * caller's own.
 */
import { createHash } from "node:crypto";
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { getConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import "./errors.ts";
import { forgetPushUsers } from "./audience-cache.ts";
import { deleteSubscription, getSubscription, listUserSubscriptions, putSubscription } from "./repository.ts";
import { DEVICES_PER_USER, type PushSubscriptionItem, type SubscribeBody, type UnsubscribeBody } from "./schema.ts";
import { vapidKeys } from "./vapid.ts";

/** The key of an endpoint: SHA-256, base64url (endpoints are long and carry the device's push service token). */
export const endpointHash = (endpoint: string) => createHash("sha256").update(endpoint).digest("base64url");

/**
 * The push services browsers subscribe through (Chrome and Edge's FCM, Firefox's autopush, Windows' WNS, Apple's):
 * in the cloud an endpoint elsewhere is refused, so the sender never posts to an address a client chose.
 */
export const PUSH_SERVICE_HOSTS = [/^fcm\.googleapis\.com$/, /^android\.googleapis\.com$/, /(^|\.)push\.services\.mozilla\.com$/, /\.notify\.windows\.com$/, /(^|\.)push\.apple\.com$/];

/** True when `endpoint` may be pushed to here: a known push service over https; on one machine also the loopback stand-in. */
export function isPushEndpoint(endpoint: string): boolean {
  const u = new URL(endpoint);
  if (getConfig().STAGE === "local" && u.protocol === "http:") return ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
  if (u.protocol !== "https:") return false;
  return getConfig().STAGE === "local" || PUSH_SERVICE_HOSTS.some((h) => h.test(u.hostname));
}

/** `GET /api/push/key`: the VAPID public key (null when this deployment has no keys: the web then says push is off). */
export async function pushPublicKey(): Promise<{ publicKey: string | null }> {
  return { publicKey: (await vapidKeys())?.publicKey ?? null };
}

/**
 * `POST /api/push/subscriptions`: stores (or refreshes: language, keys, session version) the caller's device (an endpoint that is not a push service's: 400 `ERR_PUSH_ENDPOINT_INVALID`). Past
 * {@link DEVICES_PER_USER} devices the oldest is removed. Returns what was stored, without its keys.
 */
export async function subscribe(auth: AuthContext, body: SubscribeBody): Promise<{ endpoint: string; lang: PushSubscriptionItem["lang"]; createdAt: string }> {
  if (!isPushEndpoint(body.endpoint)) throw new AppError("ERR_PUSH_ENDPOINT_INVALID");
  const hash = endpointHash(body.endpoint);
  const now = nowIso();
  const before = await getSubscription(auth.companyId, auth.userId, hash);
  const item: PushSubscriptionItem = {
    companyId: auth.companyId,
    userId: auth.userId,
    hash,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    lang: body.lang,
    tokenVersion: auth.tokenVersion,
    createdAt: before?.createdAt ?? now,
    updatedAt: now,
  };
  await putSubscription(item);
  if (!before) {
    const all = await listUserSubscriptions(auth.companyId, auth.userId);
    const oldest = all.sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)).slice(0, Math.max(0, all.length - DEVICES_PER_USER));
    for (const s of oldest) await deleteSubscription(s.companyId, s.userId, s.hash);
  }
  forgetPushUsers(auth.companyId);
  return { endpoint: item.endpoint, lang: item.lang, createdAt: item.createdAt };
}

/** `DELETE /api/push/subscriptions`: removes the caller's device (`removed: false` when it was not theirs or not there). */
export async function unsubscribe(auth: AuthContext, body: UnsubscribeBody): Promise<{ removed: boolean }> {
  const removed = await deleteSubscription(auth.companyId, auth.userId, endpointHash(body.endpoint));
  if (removed) forgetPushUsers(auth.companyId);
  return { removed };
}

/**
 * Removes a user's devices: every one (the user was deleted), or those subscribed under a session version older than
 * `belowTokenVersion` (the sessions were revoked). Returns how many went.
 */
export async function removeUserSubscriptions(companyId: number, userId: number, belowTokenVersion?: number): Promise<number> {
  const subs = (await listUserSubscriptions(companyId, userId)).filter((s) => belowTokenVersion === undefined || s.tokenVersion < belowTokenVersion);
  for (const s of subs) await deleteSubscription(companyId, userId, s.hash);
  forgetPushUsers(companyId);
  return subs.length;
}
