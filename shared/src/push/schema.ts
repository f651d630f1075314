/**
 * Push notifications (docs/product/push.md): a device's stored Web Push subscription, the request bodies and answers
 * of the push routes, the notification a device receives, and the messages of the push queue.
 */
import { z } from "zod";

/** The languages a notification's texts are written in (the web's languages). */
export const PushLang = z.enum(["pt", "en", "es"]);
export type PushLang = z.infer<typeof PushLang>;

/** Longest endpoint URL accepted (push services' URLs are a few hundred characters). */
export const ENDPOINT_MAX = 2048;
/** Most devices one user may subscribe: the oldest beyond it is removed. */
export const DEVICES_PER_USER = 10;

// ---------------------------------------------------------------------------------------------
// 1. Stored items

/**
 * A device's subscription, `C#<cid>` / `PUSHSUB#<uid>#<hash>` (`hash`: SHA-256 of the endpoint). `tokenVersion` is the
 * user's session version when the device subscribed: once the user's sessions are revoked (logout, a new login with
 * single session, a password change), the subscription is dropped at the next push instead of used.
 */
export const PushSubscriptionItem = z.object({
  companyId: z.number().int(),
  userId: z.number().int(),
  hash: z.string(),
  endpoint: z.string(),
  p256dh: z.string(),
  auth: z.string(),
  lang: PushLang,
  tokenVersion: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PushSubscriptionItem = z.infer<typeof PushSubscriptionItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests and answers

const base64url = z.string().min(1).max(512).regex(/^[A-Za-z0-9_-]+={0,2}$/);

/** An absolute URL (which hosts are accepted: `./service.ts` `isPushEndpoint`). */
const Endpoint = z.string().max(ENDPOINT_MAX).url();

/** `POST /api/push/subscriptions`: the browser's `PushSubscription.toJSON()` and the device's language. */
export const SubscribeBody = z.object({
  endpoint: Endpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url, auth: base64url }),
  lang: PushLang.default("pt"),
});
export type SubscribeBody = z.infer<typeof SubscribeBody>;

/** `DELETE /api/push/subscriptions`: the device's endpoint. */
export const UnsubscribeBody = z.object({ endpoint: z.string().min(1).max(ENDPOINT_MAX) });
export type UnsubscribeBody = z.infer<typeof UnsubscribeBody>;

/** `GET /api/push/key`: the VAPID public key the browser subscribes with (null: push is not configured here). */
export const PushKey = z.object({ publicKey: z.string().nullable() });
/** The subscription as answered: no keys, only what the device needs to know it is registered. */
export const PushSubscriptionView = z.object({ endpoint: z.string(), lang: PushLang, createdAt: z.string() });
export const PushUnsubscribed = z.object({ removed: z.boolean() });

// ---------------------------------------------------------------------------------------------
// 3. What a device receives

/** What is pushed: a new pending ticket, a customer's message in a held ticket, a chat message, an announcement. */
export const PushKind = z.enum(["ticket", "message", "chat", "announcement"]);
export type PushKind = z.infer<typeof PushKind>;

/**
 * The JSON payload of a push (encrypted for the device by `web-push`), read by `web/public/service-worker.js`:
 * `tag` collapses the notifications of one ticket, chat or announcement; `url` is what a tap opens.
 */
export const PushPayload = z.object({ kind: PushKind, title: z.string(), body: z.string(), tag: z.string(), url: z.string() });
export type PushPayload = z.infer<typeof PushPayload>;

// ---------------------------------------------------------------------------------------------
// 4. The push queue's messages

/** The ticket facts the visibility rule reads (`access/tickets.ts` `SeenTicket`). */
const SeenTicket = z.object({ queueId: z.number().int().nullable(), userId: z.number().int().nullable(), status: z.string(), isGroup: z.boolean() });

/** Who may receive a push: the realtime frames' audiences (`realtime/publish.ts` `Audience`) a push uses. */
export const PushAudience = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ticket"), ticket: SeenTicket }),
  z.object({ kind: z.literal("users"), userIds: z.array(z.number().int()) }),
  z.object({ kind: z.literal("company") }),
]);
export type PushAudience = z.infer<typeof PushAudience>;

/** What the notification says, before it is written in each device's language (`./texts.ts`). */
export const PushContent = z.object({
  kind: PushKind,
  /** The ticket's, chat's or announcement's uuid or id: the tag and the link. */
  ref: z.string(),
  /** Contact name, chat title or announcement title. */
  name: z.string(),
  /** The message, or the announcement's text (cut to a notification's length). */
  text: z.string(),
  /** The chat message's sender. */
  sender: z.string().optional(),
});
export type PushContent = z.infer<typeof PushContent>;

/**
 * A push to fan out: to the subscribed devices of `companyId` (every company when `platform`) whose users are in
 * `audience`, but `exceptUserId`, and who have no visible tab open.
 */
export const PushFanout = z.object({
  type: z.literal("fanout"),
  companyId: z.number().int(),
  platform: z.boolean().default(false),
  audience: PushAudience,
  exceptUserId: z.number().int().nullable().default(null),
  content: PushContent,
  /** When the fact happened (ISO): a push older than its time to live is not sent. */
  at: z.string(),
});
export type PushFanout = z.infer<typeof PushFanout>;

/** A retry of one device's push after its push service failed (`attempt` 1 = the first retry). */
export const PushRetry = z.object({
  type: z.literal("retry"),
  companyId: z.number().int(),
  userId: z.number().int(),
  hash: z.string(),
  payload: PushPayload,
  at: z.string(),
  attempt: z.number().int().min(1),
});
export type PushRetry = z.infer<typeof PushRetry>;

/** A message of the push queue (parsed with zod by its consumer). */
export const PushMessage = z.discriminatedUnion("type", [PushFanout, PushRetry]);
export type PushMessage = z.infer<typeof PushMessage>;
