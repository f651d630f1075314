/**
 * Push delivery (docs/product/push.md#delivery), the push queue consumer's work:
 * - a fan-out finds the subscribed devices (the company's, or every company's for an announcement), keeps those whose
 *   user is in the audience (the one visibility rule, `access/tickets.ts` `canSee`, for tickets), is still allowed
 *   (user present, sessions not revoked since the device subscribed, company not switched off or being deleted) and
 *   has no visible tab of the product open (the tabs report it over their socket, `visible` on the registration),
 *   then sends each its notification with `web-push` (encrypted per device, signed with the VAPID keys);
 * - a device whose push service answers 404 or 410 is removed; one that fails otherwise (no answer, 429, 5xx) is
 *   retried through the queue with a growing delay ({@link retryDelaySeconds}), at most {@link MAX_PUSH_ATTEMPTS}
 *   times, and never past the push's time to live.
 */
import { createHash } from "node:crypto";
import webpush from "web-push";
import { canSee, type VisibilitySettings } from "../access/tickets.ts";
import { getCompany } from "../companies/repository.ts";
import { getConfig } from "../config.ts";
import { log } from "../log.ts";
import { companySockets } from "../realtime/publish.ts";
import { visibilitySettings } from "../settings/repository.ts";
import { enqueue } from "../sqs/enqueue.ts";
import type { UserItem } from "../users/schema.ts";
import { deleteSubscription, getSubscription, getUsers, listCompanySubscriptions, listPlatformSubscriptions } from "./repository.ts";
import type { PushFanout, PushMessage, PushPayload, PushRetry, PushSubscriptionItem } from "./schema.ts";
import { renderPush } from "./texts.ts";
import { vapidKeys, type VapidKeys } from "./vapid.ts";

/** How long a push service keeps a push for a device that is off (s); an older fact is not pushed at all. */
export const PUSH_TTL_SECONDS = 3600;
/** Sends to one device at most this many times (the first and its retries). */
export const MAX_PUSH_ATTEMPTS = 6;
/** The longest a push service may take to answer (ms) before the attempt counts as failed. */
export const PUSH_TIMEOUT_MS = 10_000;
/** Devices sent to at the same time by one consumer. */
const SEND_CONCURRENCY = 20;

/** The delay before retry `attempt` (1 = the first retry), in seconds: 30 s doubling, at most SQS's 900 s. */
export const retryDelaySeconds = (attempt: number) => Math.min(30 * 2 ** Math.max(0, attempt - 1), 900);

/** The `Topic` header of a push (at most 32 URL-safe characters): pushes of one tag replace each other while queued. */
export const topicOf = (tag: string) => createHash("sha256").update(tag).digest("base64url").slice(0, 32);

/** What one send came to: delivered, the device is gone (removed), or failed (retried when `retry`). */
export type SendOutcome = "sent" | "gone" | "retry" | "failed";

/**
 * Sends `payload` to one device: `web-push` encrypts it for the device and signs the request (VAPID); the request is
 * made with `fetch` (the push service stand-in on one machine speaks plain http on the loopback address, which
 * `web-push`'s own https-only sender cannot reach). Never throws.
 */
export async function sendPush(sub: PushSubscriptionItem, payload: PushPayload, keys: VapidKeys, ttlSeconds = PUSH_TTL_SECONDS): Promise<SendOutcome> {
  let status: number | undefined;
  try {
    const req = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: Math.max(0, Math.floor(ttlSeconds)),
      topic: topicOf(payload.tag),
      urgency: "high",
      contentEncoding: "aes128gcm",
    });
    const res = await fetch(req.endpoint, { method: "POST", headers: req.headers, body: new Uint8Array(req.body), redirect: "manual", signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) });
    await res.body?.cancel();
    status = res.status;
  } catch {
    return "retry";
  }
  if (status >= 200 && status < 300) return "sent";
  if (status === 404 || status === 410) return "gone";
  if (status === 429 || status >= 500) return "retry";
  log("warn", "push: refused by the push service", { companyId: sub.companyId, userId: sub.userId, status });
  return "failed";
}

/** Why a device is not sent to: `revoked` ones are removed. */
function allowed(sub: PushSubscriptionItem, u: UserItem | undefined): "ok" | "revoked" {
  return u && u.tokenVersion === sub.tokenVersion ? "ok" : "revoked";
}

/** The users of the company with a visible tab open (a socket whose tab reported itself visible, or never said). */
async function visibleUsers(companyId: number): Promise<Set<number>> {
  return new Set((await companySockets(companyId)).filter((m) => m.visible !== false).map((m) => m.userId));
}

function inPushAudience(f: PushFanout, u: UserItem, settings?: VisibilitySettings): boolean {
  if (u.id === f.exceptUserId) return false;
  switch (f.audience.kind) {
    case "company":
      return true;
    case "users":
      return f.audience.userIds.includes(u.id);
    case "ticket":
      return canSee({ userId: u.id, profile: u.profile, super: u.super, queueIds: u.queueIds, allTicket: u.allTicket }, f.audience.ticket, settings);
  }
}

/** Outcome counts of one queue message. */
export interface PushReport {
  sent: number;
  gone: number;
  retried: number;
  skipped: number;
}

const queueUrl = () => {
  const url = getConfig().PUSH_QUEUE_URL;
  if (!url) throw new Error("PUSH_QUEUE_URL is not set");
  return url;
};

async function retryLater(sub: PushSubscriptionItem, payload: PushPayload, at: string, attempt: number, report: PushReport): Promise<void> {
  if (attempt >= MAX_PUSH_ATTEMPTS || Date.parse(at) + PUSH_TTL_SECONDS * 1000 < Date.now() + retryDelaySeconds(attempt) * 1000) {
    log("warn", "push: device not reached; given up", { companyId: sub.companyId, userId: sub.userId, attempts: attempt });
    return;
  }
  const retry: PushRetry = { type: "retry", companyId: sub.companyId, userId: sub.userId, hash: sub.hash, payload, at, attempt };
  await enqueue(queueUrl(), retry, { delaySeconds: retryDelaySeconds(attempt) });
  report.retried++;
}

/** Sends to each device (a few at a time) and settles each outcome: gone → removed, failing → a retry queued. */
async function sendAll(jobs: { sub: PushSubscriptionItem; payload: PushPayload }[], keys: VapidKeys, at: string, attempt: number, report: PushReport): Promise<void> {
  const ttl = PUSH_TTL_SECONDS - (Date.now() - Date.parse(at)) / 1000;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { sub, payload } = jobs[next++];
      const outcome = await sendPush(sub, payload, keys, ttl);
      if (outcome === "sent") report.sent++;
      else if (outcome === "gone") {
        await deleteSubscription(sub.companyId, sub.userId, sub.hash);
        report.gone++;
      } else if (outcome === "retry") await retryLater(sub, payload, at, attempt, report);
      else report.skipped++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, jobs.length) }, worker));
}

/** The devices of one company a fan-out goes to, with their notification (removing revoked ones on the way). */
async function companyTargets(f: PushFanout, companyId: number, subs: PushSubscriptionItem[], report: PushReport) {
  const company = await getCompany(companyId);
  if (!company || company.deleting || company.status === false) {
    report.skipped += subs.length;
    return [];
  }
  const [users, visible] = await Promise.all([getUsers(companyId, [...new Set(subs.map((s) => s.userId))]), visibleUsers(companyId)]);
  const settings = f.audience.kind === "ticket" && f.audience.ticket.isGroup ? await visibilitySettings(companyId) : undefined;
  const out: { sub: PushSubscriptionItem; payload: PushPayload }[] = [];
  for (const sub of subs) {
    const u = users.get(sub.userId);
    if (allowed(sub, u) === "revoked") {
      await deleteSubscription(sub.companyId, sub.userId, sub.hash);
      report.gone++;
      continue;
    }
    if (!inPushAudience(f, u!, settings) || visible.has(sub.userId)) {
      report.skipped++;
      continue;
    }
    out.push({ sub, payload: renderPush(f.content, sub.lang) });
  }
  return out;
}

/**
 * The consumer's work for one message of the push queue. Throws when a read or a retry's enqueue fails (the message
 * comes back: devices already sent to get the same notification again, which their `tag` collapses).
 */
export async function handlePushMessage(msg: PushMessage, now = Date.now()): Promise<PushReport> {
  const report: PushReport = { sent: 0, gone: 0, retried: 0, skipped: 0 };
  if (Date.parse(msg.at) + PUSH_TTL_SECONDS * 1000 < now) return report;
  const keys = await vapidKeys();
  if (!keys) return report;
  if (msg.type === "retry") {
    const sub = await getSubscription(msg.companyId, msg.userId, msg.hash);
    if (!sub || (await visibleUsers(msg.companyId)).has(msg.userId)) return { ...report, skipped: 1 };
    await sendAll([{ sub, payload: msg.payload }], keys, msg.at, msg.attempt + 1, report);
    return report;
  }
  const subs = msg.platform ? await listPlatformSubscriptions() : await listCompanySubscriptions(msg.companyId);
  const byCompany = new Map<number, PushSubscriptionItem[]>();
  for (const s of subs) byCompany.set(s.companyId, [...(byCompany.get(s.companyId) ?? []), s]);
  const targets = (await Promise.all([...byCompany].map(([cid, list]) => companyTargets(msg, cid, list, report)))).flat();
  await sendAll(targets, keys, msg.at, 1, report);
  return report;
}
