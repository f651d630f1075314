/**
 * The ingest service (issue 3 §3; DESIGN.md §1 "Inbound", §6 "Ingest an inbound message"): the one place where
 * Baileys events become contacts, tickets and messages. The session runner calls {@link handleBaileysEvent} for every
 * event it receives; the simulator feeds the same shapes.
 *
 * Events handled: `messages.upsert` (`notify` and `append`; `append`/history never bumps unread), `messages.update`
 * (acks, edits, revokes), `messages.reaction`, `message-receipt.update`, `presence.update`, `call`, `chats.update`,
 * `contacts.upsert`/`contacts.update`, `groups.update`, and Baileys 7's `lid-mapping.update` (a LID and its phone
 * number: merged onto an existing contact). Everything else (including `connection.update` and
 * `creds.update`, which the runner owns) is answered `{handled: false}`.
 *
 * Errors: a bad or meaningless payload is never thrown — it is skipped with a reason; infrastructure failures
 * (DynamoDB/S3 unreachable, a transaction that keeps conflicting) are thrown so the runner retries the event, which
 * is safe because every write is idempotent (the WhatsApp-id alias dedupes messages).
 */
import { extension } from "mime-types";
import { findOrCreateContactByIdentity, updateContact } from "../contacts/service.ts";
import { getContactItem, patchContact, readMarker } from "../contacts/repository.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import type { ContactItem } from "../contacts/schema.ts";
import type { MessageItem } from "../messages/schema.ts";
import { ingestMessage } from "../messages/repository.ts";
import { dispatch } from "../events/index.ts";
import { onInbound } from "../automation/inbound.ts";
import { callsRefused } from "../automation/calls.ts";
import { getSetting } from "../settings/service.ts";
import { MEDIA_SIZE_LIMITS, mediaKey, putMediaStream } from "../storage/media.ts";
import { getActiveTicketId, getTicketItem, isActiveStatus, queryContactTickets } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { findOrCreateTicket, setTicketPresence } from "../tickets/service.ts";
import { mapContent, MAX_PREVIEW_CHARS, type MappedMessage, type MediaKind } from "./content.ts";
import { jidUser, MAX_JID_CHARS, normalizeUserJid, phoneDigits, resolveKey, type ChatIdentity } from "./identity.ts";
import {
  CallEvent,
  ChatUpdate,
  ContactUpdate,
  GroupUpdate,
  LidMapping,
  MessagesUpsert,
  MessageStatus,
  PresenceUpdate,
  ReactionEvent,
  ReceiptUpdate,
  StubType,
  WAMessage,
  WAMessageUpdate,
} from "./schema.ts";
import { dueParked, flushHeld, heldCount, keepRaw, parkInbound, rawFromJson, reschedule, unpark, withRetries } from "./parking.ts";
import { applyAck, applyEdit, applyReaction, applyRevoke, findTarget, type Skips } from "./targets.ts";

export interface IngestContext {
  companyId: number;
  whatsappId: number;
  /**
   * Opens a message's media with Baileys' downloadMediaMessage (time-limited); null on failure. Answers a `stream`
   * (the runner: never buffered, streamed on to S3 and cut at `maxBytes`), small `bytes` (tests), or
   * `{tooLarge: true, size}` when the downloader already knows the file passes `maxBytes`.
   */
  downloadMedia?: (msg: unknown, maxBytes?: number) => Promise<MediaDownload>;
  /**
   * Optional: the subject of a group (Baileys' `groupMetadata(jid).subject`), asked only while the group's contact
   * still carries its id as name; null when unknown. Without it groups are named by `groups.update`.
   */
  groupSubject?: (groupJid: string) => Promise<string | null>;
  /** Optional: rejects a ringing call (Baileys' `sock.rejectCall(callId, callFrom)`); used when setting `call` is disabled. */
  rejectCall?: (callId: string, callFrom: string) => Promise<void>;
}

/** What {@link IngestContext.downloadMedia} answers (issue 8 §3). */
export type MediaDownload =
  | { stream: AsyncIterable<Uint8Array>; mimetype: string }
  | { bytes: Uint8Array; mimetype: string }
  | { tooLarge: true; size: number }
  | null;

/** Longest WhatsApp message id accepted (real ids are 16-32 characters); longer ones would only make oversized keys. */
const MAX_WA_ID_CHARS = 128;

/**
 * Tunables (tests shorten the media time limit). `mediaTimeoutMs`: longest wait for a media download to start;
 * `mediaTransferTimeoutMs`: longest stream from WhatsApp's CDN to S3 of one file.
 */
export const ingestOptions = { mediaTimeoutMs: 30_000, mediaTransferTimeoutMs: 300_000 };

/**
 * Largest inbound media stored per kind, in bytes (issue 8 §3; the same table limits browser uploads): a message
 * announcing more (`fileLength`), or whose download passes it, is stored without its file, marked too large, with a
 * note for the agent.
 */
export const mediaSizeLimits: Record<MediaKind, number> = MEDIA_SIZE_LIMITS;

/** The note an agent sees on media too large to keep (our own wording, Portuguese like the product's system texts). */
export function tooLargeNote(size: number): string {
  const mb = size / 2 ** 20;
  const shown = mb >= 1024 ? `${(mb / 1024).toFixed(1).replace(".", ",")} GB` : `${Math.ceil(mb)} MB`;
  return `📎 Arquivo grande demais para o atendimento (${shown}): veja no celular.`;
}

type Handler = (ctx: IngestContext, data: unknown, skipped: Skips) => Promise<void>;

/**
 * Feeds one Baileys event (`event` = the `BaileysEventMap` name, `data` = the listener's argument) through ingestion.
 * Returns `handled: false` for events ingestion does not own, and every item it skipped with the reason.
 * Never throws on a bad payload; throws on infrastructure errors (the runner retries).
 */
export async function handleBaileysEvent(
  ctx: IngestContext,
  event: string,
  data: unknown,
): Promise<{ handled: boolean; skipped: { reason: string }[] }> {
  const handler = HANDLERS[event];
  if (!handler) return { handled: false, skipped: [{ reason: `event not ingested: ${event}` }] };
  const skipped: Skips = [];
  await handler(ctx, data, skipped);
  return { handled: true, skipped };
}

/**
 * Runs one item's work; a domain refusal of the payload (AppError 400/404) becomes a skip, anything else
 * (infrastructure, 409 conflicts that kept failing) propagates.
 */
async function guard(skipped: Skips, fn: () => Promise<void>): Promise<void> {
  try {
    // Infrastructure failures (throttling, 5xx, conflicts that kept failing, ERR_CREATING_TICKET) are retried with
    // backoff a few times; every write is idempotent, so a retry after a partial success is harmless (issue 8 §1).
    await withRetries(fn, (err) => !isRefusal(err));
  } catch (err) {
    if (isRefusal(err)) {
      skipped.push({ reason: `refused: ${(err as AppError).code}` });
      return;
    }
    throw err;
  }
}

const isRefusal = (err: unknown) => err instanceof AppError && (err.status === 400 || err.status === 404);

const HANDLERS: Record<string, Handler> = {
  "messages.upsert": onUpsert,
  "messages.update": onUpdate,
  "messages.reaction": onReaction,
  "message-receipt.update": onReceipt,
  "presence.update": onPresence,
  call: onCall,
  "chats.update": onChatsUpdate,
  "contacts.upsert": onContacts,
  "contacts.update": onContacts,
  "groups.update": onGroupsUpdate,
  "lid-mapping.update": onLidMapping,
};

function asArray(data: unknown, event: string, skipped: Skips): unknown[] | null {
  if (Array.isArray(data)) return data;
  skipped.push({ reason: `invalid ${event} payload` });
  return null;
}

/** True when group messages are to be ignored (setting `CheckMsgIsGroup` = `enabled`, the default). */
async function groupsIgnored(companyId: number): Promise<boolean> {
  return (await getSetting(companyId, "CheckMsgIsGroup")) === "enabled";
}

// ---- messages.upsert ------------------------------------------------------------------------------------------

async function onUpsert(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const p = MessagesUpsert.safeParse(data);
  if (!p.success) {
    skipped.push({ reason: "invalid messages.upsert payload" });
    await keepRaw(ctx, data, "invalid messages.upsert payload", "upsert");
    return;
  }
  // Only live messages (`notify`, or a payload printed without its type) count as unread.
  const type = p.data.type === undefined || p.data.type === "notify" ? "notify" : "append";
  // Each message on its own (issue 8 §1): one that keeps failing is parked for a re-drive, the rest go on.
  for (const raw of p.data.messages) {
    try {
      await guard(skipped, () => ingestOne(ctx, raw, type, skipped));
    } catch (err) {
      const waId = (raw as { key?: { id?: unknown } } | null)?.key?.id;
      await parkInbound(ctx, raw, typeof waId === "string" ? waId : "unknown", type, err);
      skipped.push({ reason: `parked for re-drive: ${(err as Error)?.name ?? "Error"}` });
    }
  }
}

/**
 * Re-drives the parked inbound messages of `shards` that are due at `now` (issue 8 §1): each is ingested again (a
 * duplicate is recognised by its alias and simply unparked); a failure is rescheduled with backoff, and given up as
 * dead (kept raw) after `retryOptions.parkedMaxAttempts`. Messages this process held in memory are parked first.
 * `contextFor` gives the live session's context (media download) when the runner has one. Returns the counts.
 */
export async function redriveParked(opts: {
  shards: number[];
  now?: number;
  contextFor?: (companyId: number, whatsappId: number) => IngestContext | undefined;
}): Promise<{ stored: number; rescheduled: number; dead: number; held: number }> {
  const now = opts.now ?? Date.now();
  const counts = { stored: 0, rescheduled: 0, dead: 0, held: 0 };
  await flushHeld();
  for (const shard of opts.shards) {
    for (const p of await dueParked(shard, now)) {
      const ctx = opts.contextFor?.(p.companyId, p.whatsappId) ?? { companyId: p.companyId, whatsappId: p.whatsappId };
      const skipped: Skips = [];
      try {
        await guard(skipped, () => ingestOne(ctx, rawFromJson(p.raw), p.type, skipped));
        await unpark(p);
        counts.stored++;
      } catch (err) {
        try {
          counts[await reschedule(p, err, now)]++;
        } catch (e) {
          log("warn", "parked inbound message not rescheduled", { companyId: p.companyId, whatsappId: p.whatsappId, err: e });
        }
      }
    }
  }
  counts.held = heldCount();
  return counts;
}

/** WhatsApp timestamp (seconds, sometimes ms) → ISO; now when absent. */
/**
 * A message's time as ISO-8601 with milliseconds, from Baileys' `messageTimestamp` (seconds; ms accepted). WhatsApp
 * stamps whole seconds, so several messages of one second would sort by their random ids: when a message reaches us
 * within its own second, the milliseconds are how far into that second it arrived, which keeps a live burst in
 * arrival order; later arrivals (history, offline catch-up) keep WhatsApp's whole second.
 */
export function waTime(ts: number | undefined, receivedAtMs = Date.now()): string {
  if (!ts || ts <= 0) return new Date(receivedAtMs).toISOString();
  if (ts > 1e12) return new Date(ts).toISOString();
  const second = ts * 1000;
  const late = receivedAtMs - second;
  return new Date(second + (late >= 0 && late < 1000 ? late : 0)).toISOString();
}

/** Baileys `WebMessageInfo.Status` → the spec's ack (0 pending, 1-2 sent, 3 delivered, 4-5 read; -1 failed). */
export function ackOf(status: number | undefined, fromMe: boolean): number {
  if (status == null) return fromMe ? 1 : 0;
  if (status === MessageStatus.ERROR) return fromMe ? -1 : 0;
  return Math.min(5, Math.max(0, status));
}

async function ingestOne(ctx: IngestContext, raw: unknown, type: "notify" | "append", skipped: Skips): Promise<void> {
  const parsed = WAMessage.safeParse(raw);
  if (!parsed.success) {
    skipped.push({ reason: "unreadable message" });
    const id = (raw as { key?: { id?: unknown } } | null)?.key?.id;
    await keepRaw(ctx, raw, "unreadable message", typeof id === "string" ? id.slice(0, 128) : "unknown");
    return;
  }
  const m = parsed.data;
  const resolved = resolveKey(m.key, m.participant);
  if (!resolved.ok) {
    skipped.push({ reason: resolved.reason });
    return;
  }
  if (!m.key.id || m.key.id.length > MAX_WA_ID_CHARS) {
    skipped.push({ reason: m.key.id ? "invalid message id" : "missing message id" });
    return;
  }
  const identity = resolved.identity;
  let content = mapContent(m.message);
  if (content.kind === "none" && m.key.isViewOnce && !m.message && !m.key.fromMe) {
    // WhatsApp no longer delivers view-once media to linked devices, only this key: the agent is told to look at the phone.
    content = { kind: "message", contentType: "viewOnceStub", mediaType: "chat", body: VIEW_ONCE_BODY, preview: VIEW_ONCE_BODY, quotedMsgId: null, isForwarded: false };
  }
  if (content.kind === "none") {
    const stub = m.messageStubType != null ? StubType[m.messageStubType] : undefined;
    skipped.push({ reason: m.message == null && stub ? `stub ${stub}` : content.reason });
    return;
  }
  if (identity.isGroup && (await groupsIgnored(ctx.companyId))) {
    skipped.push({ reason: "group messages ignored (CheckMsgIsGroup)" });
    return;
  }
  const fromMe = !!m.key.fromMe;
  const sender = { fromMe, participant: identity.participant };
  switch (content.kind) {
    case "reaction":
      return applyReaction(ctx, identity, sender, content.target.id!, content.emoji, content.atMs, skipped);
    case "edit":
      return applyEdit(ctx, identity, content.targetId ?? m.key.id, content.body, skipped, sender);
    case "revoke":
      return applyRevoke(ctx, identity, content.targetId, skipped, sender);
    case "message":
      return storeMessage(ctx, { raw, waId: m.key.id, identity, fromMe, pushName: m.pushName, timestamp: m.messageTimestamp, status: m.status, type, content }, skipped);
  }
}

interface Incoming {
  /** The event's original object, handed to `downloadMedia`. */
  raw: unknown;
  waId: string;
  identity: ChatIdentity;
  fromMe: boolean;
  pushName?: string;
  /** Seconds. */
  timestamp?: number;
  status?: number;
  type: "notify" | "append";
  content: MappedMessage;
}

/** Downloads with the time limit and the size limit; null on failure, timeout or no downloader. */
async function download(ctx: IngestContext, raw: unknown, maxBytes: number): Promise<MediaDownload> {
  if (!ctx.downloadMedia) return null;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      ctx.downloadMedia(raw, maxBytes).catch(() => null),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), ingestOptions.mediaTimeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function extOf(mimetype: string, fileName: string | null): string | undefined {
  const fromName = fileName?.match(/\.([A-Za-z0-9]{1,8})$/)?.[1];
  return (extension(mimetype) || undefined) ?? fromName;
}

/** Stores a new message (contact → ticket → media → one ingest transaction) and publishes it. */
async function storeMessage(ctx: IngestContext, inc: Incoming, skipped: Skips): Promise<void> {
  const { companyId, whatsappId } = ctx;
  const { identity, content, fromMe } = inc;
  // A redelivery (also under the chat's other JID) is recognised before any download or new ticket; the ingest
  // transaction below stays the real guard (its alias put under the chat JID is conditional). The common case, a
  // customer's text in a chat known by one JID with an open ticket, skips the pre-check: the transaction alone
  // refuses a duplicate there, and nothing was downloaded or created before it (issue 8 ingest ratio: 2 reads saved).
  const contactIdentity = {
    jids: identity.contact.jids,
    number: identity.contact.number,
    // The pushName of an own message is ours; groups are named by their subject (groupSubject / groups.update).
    name: identity.isGroup || fromMe ? "" : (inc.pushName ?? ""),
    isGroup: identity.isGroup,
  };
  const keepClosed = fromMe || inc.type === "append";
  const cheap = !keepClosed && !content.media && identity.altChatJids.length === 0;
  const [duplicate, contact] = await Promise.all([cheap ? null : findTarget(ctx, identity, inc.waId), resolveContact(companyId, contactIdentity)]);
  if (duplicate) {
    skipped.push({ reason: "duplicate message" });
    return;
  }
  if (identity.isGroup && ctx.groupSubject && hasPlaceholderName(contact)) {
    const named = await nameGroup(ctx, contact, identity.chatJid);
    const key = contactCacheKey(companyId, identity.contact);
    if (named && contactCache.has(key)) contactCache.set(key, { contact: named, until: Date.now() + CONTACT_CACHE_MS });
  }
  const open = cheap ? await activeTicket(ctx, contact.id) : null;
  if (cheap && !open && (await findTarget(ctx, identity, inc.waId))) {
    // No open ticket: a redelivery must not start one.
    skipped.push({ reason: "duplicate message" });
    return;
  }
  const { ticket, created: ticketCreated } = open ? { ticket: open, created: false } : await ticketFor(ctx, contact.id, identity.isGroup, keepClosed);

  let media: Pick<MessageItem, "mediaKey" | "mediaName" | "mediaMime" | "mediaSize" | "mediaError"> = {
    mediaKey: null,
    mediaName: null,
    mediaMime: null,
    mediaSize: null,
    mediaError: false,
  };
  let body = content.body;
  if (content.media) {
    const limit = mediaSizeLimits[content.media.kind];
    // `fileLength` is read first: an announced 1.5 GB document is never downloaded (issue 8 §3).
    const announcedTooLarge = content.media.size != null && content.media.size > limit;
    const got = announcedTooLarge ? ({ tooLarge: true, size: content.media.size! } as const) : await download(ctx, inc.raw, limit);
    const mimetype = (got && "mimetype" in got ? got.mimetype : "") || content.media.mimetype;
    media = { mediaKey: null, mediaName: content.media.fileName, mediaMime: mimetype, mediaSize: content.media.size, mediaError: true };
    let tooLarge = got && "tooLarge" in got ? got.size : null;
    if (got && !("tooLarge" in got)) {
      // Streamed from the CDN to S3 (multipart), never held whole; cut at the kind's limit (issue 8 §3).
      const key = mediaKey(companyId, ticket.id, inc.waId, extOf(mimetype, content.media.fileName));
      try {
        const put = await putMediaStream(key, "stream" in got ? got.stream : got.bytes, mimetype, { maxBytes: limit, timeoutMs: ingestOptions.mediaTransferTimeoutMs });
        if (put.stored) media = { ...media, mediaKey: key, mediaSize: put.size, mediaError: false };
        else tooLarge = put.size;
      } catch (err) {
        log("warn", "ingest: media upload failed", { companyId, whatsappId, messageId: inc.waId, err });
      }
    }
    if (tooLarge != null) {
      media = { ...media, mediaSize: Math.max(tooLarge, content.media.size ?? 0) };
      body = [content.body, tooLargeNote(media.mediaSize!)].filter(Boolean).join("\n\n");
      log("warn", "ingest: media too large, kept without its file", { companyId, whatsappId, messageId: inc.waId, size: media.mediaSize, kind: content.media.kind });
    }
  }

  let quotedMsg: MessageItem["quotedMsg"] = null;
  if (content.quotedMsgId) {
    const q = await findTarget(ctx, identity, content.quotedMsgId);
    if (q) {
      quotedMsg = { id: q.id, body: q.body.slice(0, MAX_PREVIEW_CHARS), fromMe: q.fromMe, mediaType: q.mediaType, senderName: q.senderName };
    } else if (content.quoted) {
      const byContact = content.quoted.participant ? identity.contact.jids.includes(normalizeUserJid(content.quoted.participant) ?? "") : true;
      quotedMsg = {
        id: content.quotedMsgId,
        body: content.quoted.body,
        fromMe: identity.isGroup ? false : !byContact,
        mediaType: content.quoted.mediaType,
        senderName: null,
      };
    }
  }

  const message: Omit<MessageItem, "createdAt" | "updatedAt"> = {
    id: inc.waId,
    ticketId: ticket.id,
    companyId,
    contactId: contact.id,
    whatsappId,
    remoteJid: identity.chatJid,
    participant: identity.participant,
    senderName: identity.isGroup && !fromMe ? (inc.pushName ?? (identity.participant ? jidUser(identity.participant) : null)) : null,
    body,
    fromMe,
    read: fromMe || inc.type === "append",
    mediaType: content.mediaType,
    ...media,
    ack: ackOf(inc.status, fromMe),
    isDeleted: false,
    isEdited: false,
    previousBody: null,
    isForwarded: content.isForwarded,
    quotedMsgId: content.quotedMsgId,
    quotedMsg,
    reactions: [],
    waTimestamp: waTime(inc.timestamp),
    userId: null,
    isAutomatic: false,
    sendError: null,
  };
  const res = await ingestMessage(companyId, ticket, message, {
    lastMessage: content.preview,
    incrementUnread: !fromMe && inc.type === "notify",
    waAliasJid: identity.chatJid,
  });
  if (!res.stored) {
    skipped.push({ reason: "duplicate message" });
    return;
  }
  // Stored: `dispatch` never throws (listeners log their failures), so the caller never retries a stored message.
  await dispatch({ type: "message.created", companyId, message: res.message, ticket: res.ticket, ticketCreated });
  // The automation seam (issue 9): a customer's new message may get an automatic answer (rating, chatbot, hours).
  if (!fromMe && inc.type === "notify") {
    await onInbound({ companyId, whatsappId, ticket: res.ticket, ticketCreated, message: res.message, contact, now: new Date() });
  }
}

/** Recently resolved contacts by company and identity: a burst of messages from one person resolves them once. */
const contactCache = new Map<string, { contact: ContactItem; until: number }>();
const CONTACT_CACHE_MS = 10_000;
const CONTACT_CACHE_MAX = 5_000;

const contactCacheKey = (companyId: number, identity: { jids: string[]; number?: string }) =>
  `${companyId}|${identity.jids.join(",")}|${identity.number ?? ""}`;

/**
 * {@link findOrCreateContactByIdentity}, skipped for ~10 s after the same identity resolved to a contact that already
 * holds every JID and the number (nothing to add or merge). The cache is per process and short-lived: a contact
 * deleted meanwhile is found missing again within seconds.
 */
async function resolveContact(companyId: number, identity: Parameters<typeof findOrCreateContactByIdentity>[1]): Promise<ContactItem> {
  const key = contactCacheKey(companyId, identity);
  const hit = contactCache.get(key);
  const now = Date.now();
  if (hit && hit.until > now) return hit.contact;
  const contact = await findOrCreateContactByIdentity(companyId, identity);
  if (identity.jids.every((j) => contact.jids.includes(j)) && (!identity.number || contact.number === identity.number)) {
    if (contactCache.size >= CONTACT_CACHE_MAX) contactCache.clear();
    contactCache.set(key, { contact, until: now + CONTACT_CACHE_MS });
  }
  return contact;
}

/** Forgets cached contact resolutions (tests that delete or merge contacts behind the service's back). */
export function clearIngestCaches(): void {
  contactCache.clear();
}

/** Names a group's contact after its subject (time-limited; a failure leaves the placeholder); the renamed contact or null. */
async function nameGroup(ctx: IngestContext, contact: ContactItem, groupJid: string): Promise<ContactItem | null> {
  let timer: NodeJS.Timeout | undefined;
  const subject = await Promise.race([
    ctx.groupSubject!(groupJid).catch(() => null),
    new Promise<null>((r) => {
      timer = setTimeout(() => r(null), ingestOptions.mediaTimeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  const name = subject?.trim().slice(0, 50);
  if (!name || name.length < 2 || name === contact.name) return null;
  return updateContact(ctx.companyId, contact.id, { name });
}

/** The contact's open or pending ticket on this connection (active marker, then the ticket), or null. */
async function activeTicket(ctx: IngestContext, contactId: number): Promise<TicketItem | null> {
  const id = await getActiveTicketId(ctx.companyId, ctx.whatsappId, contactId);
  const t = id ? await getTicketItem(ctx.companyId, id, true) : null;
  return t && isActiveStatus(t.status) ? t : null;
}

/**
 * The ticket a message goes to: the contact's open/pending ticket on this connection, else a new pending one
 * (a customer writing after close starts a new ticket). Own messages sent from the phone and history (`keepClosed`)
 * never start a ticket when the contact already had one: they join the latest, closed one, which stays closed.
 */
async function ticketFor(ctx: IngestContext, contactId: number, isGroup: boolean, keepClosed: boolean): Promise<{ ticket: TicketItem; created: boolean }> {
  if (keepClosed && !(await getActiveTicketId(ctx.companyId, ctx.whatsappId, contactId))) {
    const latest = (await queryContactTickets(ctx.companyId, contactId, 20)).find((t) => t.whatsappId === ctx.whatsappId);
    if (latest) return { ticket: latest, created: false };
  }
  // A customer's new ticket on a connection with exactly one queue goes to that queue (Whaticket's verifyQueue, without
  // a greeting); with more queues it stays without one until the queue menu (chatbot) chooses.
  const resolveQueueId = async () => {
    const wa = isGroup || keepClosed ? null : await getWhatsappItem(ctx.companyId, ctx.whatsappId);
    return wa?.queueIds.length === 1 ? wa.queueIds[0] : null;
  };
  return findOrCreateTicket(ctx.companyId, { contactId, whatsappId: ctx.whatsappId, isGroup, resolveQueueId });
}

// ---- messages.update / reactions / receipts --------------------------------------------------------------------

async function onUpdate(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const list = asArray(data, "messages.update", skipped);
  for (const raw of list ?? []) {
    await guard(skipped, async () => {
      const p = WAMessageUpdate.safeParse(raw);
      if (!p.success || !p.data.key.id) {
        skipped.push({ reason: "unreadable messages.update item" });
        return;
      }
      const { key, update } = p.data;
      const resolved = resolveKey(key);
      if (!resolved.ok) {
        skipped.push({ reason: resolved.reason });
        return;
      }
      const identity = resolved.identity;
      let applied = false;
      if (update.status != null) {
        applied = true;
        await applyAck(ctx, identity, key.id!, ackOf(update.status, !!key.fromMe), skipped);
      }
      if (update.message) {
        const c = mapContent(update.message);
        if (c.kind === "edit") {
          applied = true;
          await applyEdit(ctx, identity, c.targetId ?? key.id!, c.body, skipped);
        } else if (c.kind === "revoke") {
          applied = true;
          await applyRevoke(ctx, identity, c.targetId, skipped);
        }
      } else if (update.messageStubType === StubType.REVOKE) {
        // Baileys' revoke form: `key` is the deleted message, `update.key` the protocol message's.
        applied = true;
        await applyRevoke(ctx, identity, key.id!, skipped);
      }
      if (!applied) skipped.push({ reason: "update without a visible change" });
    });
  }
}

async function onReaction(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const list = asArray(data, "messages.reaction", skipped);
  for (const raw of list ?? []) {
    await guard(skipped, async () => {
      const p = ReactionEvent.safeParse(raw);
      if (!p.success || !p.data.key.id) {
        skipped.push({ reason: "unreadable messages.reaction item" });
        return;
      }
      const { key, reaction } = p.data;
      // The reaction's own key says who reacted; the chat is the reacted message's.
      const senderKey = reaction.key ?? key;
      const resolved = resolveKey({ ...key, participant: senderKey.participant ?? key.participant, participantAlt: senderKey.participantAlt });
      if (!resolved.ok) {
        skipped.push({ reason: resolved.reason });
        return;
      }
      const sender = { fromMe: !!senderKey.fromMe, participant: resolved.identity.participant };
      await applyReaction(ctx, resolved.identity, sender, key.id!, reaction.text ?? "", reaction.senderTimestampMs, skipped);
    });
  }
}

async function onReceipt(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const list = asArray(data, "message-receipt.update", skipped);
  for (const raw of list ?? []) {
    await guard(skipped, async () => {
      const p = ReceiptUpdate.safeParse(raw);
      if (!p.success || !p.data.key.id) {
        skipped.push({ reason: "unreadable receipt" });
        return;
      }
      const r = p.data.receipt;
      const ack = r.playedTimestamp ? 5 : r.readTimestamp ? 4 : r.receiptTimestamp ? 3 : undefined;
      const resolved = resolveKey(p.data.key);
      if (!resolved.ok || ack == null) {
        skipped.push({ reason: resolved.ok ? "receipt without timestamps" : resolved.reason });
        return;
      }
      await applyAck(ctx, resolved.identity, p.data.key.id!, ack, skipped);
    });
  }
}

// ---- presence, calls, chats, contacts, groups ----------------------------------------------------------------

/** The contact id that owns a JID in this company, or null. */
async function contactIdByJid(companyId: number, jid: string | undefined): Promise<number | null> {
  if (!jid || jid.length > MAX_JID_CHARS) return null;
  return readMarker(companyId, { kind: "jid", value: jid });
}

const TICKET_PRESENCES = new Set(["composing", "recording"]);

async function onPresence(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const p = PresenceUpdate.safeParse(data);
  if (!p.success) {
    skipped.push({ reason: "invalid presence.update payload" });
    return;
  }
  await guard(skipped, async () => {
    const { id, presences } = p.data;
    const isGroup = id.endsWith("@g.us");
    const chatJid = isGroup ? id : normalizeUserJid(id);
    if (!chatJid) {
      skipped.push({ reason: `invalid presence id ${id}` });
      return;
    }
    const entries = Object.entries(presences);
    const own = entries.find(([jid]) => normalizeUserJid(jid) === chatJid);
    // In a group anyone typing shows the group as typing; in a chat the contact's own entry counts.
    const states = (own ? [own] : entries).map(([, v]) => v.lastKnownPresence ?? "");
    const presence = states.find((s) => TICKET_PRESENCES.has(s)) ?? "";
    const contactId = await contactIdByJid(ctx.companyId, chatJid);
    const ticketId = contactId ? await getActiveTicketId(ctx.companyId, ctx.whatsappId, contactId) : null;
    if (!ticketId) {
      skipped.push({ reason: "presence for a chat without an open ticket" });
      return;
    }
    await setTicketPresence(ctx.companyId, ticketId, presence);
  });
}

/** Body shown for a view-once message whose media WhatsApp kept on the phone (our own wording, Portuguese). */
export const VIEW_ONCE_BODY = "📷 Mensagem de visualização única: abra no celular para ver";

/** Body of a call log: our own wording, Portuguese like the product's other system texts. */
export function callLogBody(isVideo: boolean): string {
  return isVideo ? "Chamada de vídeo recebida" : "Chamada de voz recebida";
}

const CALL_LOGGED = new Set(["offer", "accept", "reject", "timeout", "terminate"]);

async function onCall(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const list = asArray(data, "call", skipped);
  for (const raw of list ?? []) {
    await guard(skipped, async () => {
      const p = CallEvent.safeParse(raw);
      if (!p.success || !p.data.id || p.data.id.length > MAX_WA_ID_CHARS) {
        skipped.push({ reason: "unreadable call" });
        return;
      }
      const c = p.data;
      const callId = p.data.id;
      // One log per call (its id is the message id): the first of offer/accept/reject/timeout/terminate that arrives
      // (an offline device may only see the end). Transport/ringing states add nothing visible.
      if (!CALL_LOGGED.has(c.status ?? "")) {
        skipped.push({ reason: `call ${c.status ?? "unknown"} not logged` });
        return;
      }
      const caller = c.from ?? c.chatId;
      const inGroup = !!c.isGroup && !!c.groupJid;
      const resolved = resolveKey(
        inGroup
          ? { remoteJid: c.groupJid, participant: caller, participantAlt: c.callerPn, fromMe: false, id: c.id }
          : { remoteJid: caller, remoteJidAlt: c.callerPn, fromMe: false, id: c.id },
      );
      if (!resolved.ok) {
        skipped.push({ reason: resolved.reason });
        return;
      }
      if (resolved.identity.isGroup && (await groupsIgnored(ctx.companyId))) {
        skipped.push({ reason: "group messages ignored (CheckMsgIsGroup)" });
        return;
      }
      // Issue 9 §4 (automation/calls.ts): a ringing call the company does not take is rejected; its log below gets the text.
      if (c.status === "offer" && !inGroup && caller && ctx.rejectCall && (await callsRefused(ctx.companyId))) {
        await ctx.rejectCall(callId, caller).catch((err) => log("warn", "ingest: call not rejected", { companyId: ctx.companyId, callId, err }));
      }
      const date = c.date instanceof Date ? c.date.getTime() : typeof c.date === "string" ? Date.parse(c.date) : c.date;
      const body = callLogBody(!!c.isVideo);
      await storeMessage(
        ctx,
        {
          raw,
          waId: callId,
          identity: resolved.identity,
          fromMe: false,
          timestamp: date && Number.isFinite(date) ? date : undefined,
          type: "notify",
          content: { kind: "message", contentType: "call", mediaType: "call_log", body, preview: body, quotedMsgId: null, isForwarded: false },
        },
        skipped,
      );
    });
  }
}

async function onChatsUpdate(_ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const list = asArray(data, "chats.update", skipped);
  for (const raw of list ?? []) {
    const p = ChatUpdate.safeParse(raw);
    // Archive, pin and mute live on the phone only; the inbox has no such state to mirror.
    skipped.push({ reason: p.success ? "chat state not shown in the inbox" : "unreadable chats.update item" });
  }
}

/**
 * The existing contact known by any of `jids` (null when none: address-book entries and mappings never create
 * contacts). When `jids` reveal identities the contact lacks (a LID and its phone number), they are merged onto it.
 */
async function knownContact(ctx: IngestContext, jids: string[]): Promise<ContactItem | null> {
  let contactId: number | null = null;
  for (const j of jids) contactId ??= await contactIdByJid(ctx.companyId, j);
  if (!contactId) return null;
  const contact = await getContactItem(ctx.companyId, contactId);
  if (!contact || jids.every((j) => contact.jids.includes(j))) return contact;
  return findOrCreateContactByIdentity(ctx.companyId, { jids, number: jids.map(phoneDigits).find(Boolean), name: "", isGroup: false });
}

/** True when a contact still carries a placeholder name (its number or a JID's user part). */
function hasPlaceholderName(contact: ContactItem): boolean {
  return !contact.name || contact.name === contact.number || contact.jids.some((j) => jidUser(j) === contact.name);
}

async function onContacts(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const list = asArray(data, "contacts.update", skipped);
  for (const raw of list ?? []) {
    await guard(skipped, async () => {
      const p = ContactUpdate.safeParse(raw);
      if (!p.success || !p.data.id) {
        skipped.push({ reason: "unreadable contact" });
        return;
      }
      const c = p.data;
      const jids = [c.id, c.lid, c.phoneNumber].map(normalizeUserJid).filter((j): j is string => !!j);
      let contact = await knownContact(ctx, jids);
      // The phone's address book does not create contacts: only people who wrote (or were written to) are kept.
      if (!contact) {
        skipped.push({ reason: "address-book entry without a contact" });
        return;
      }
      // The name saved in the phone's address book, else the business or push name; only replaces a placeholder.
      const name = (c.name ?? c.verifiedName ?? c.notify)?.trim();
      if (name && name.length >= 2 && hasPlaceholderName(contact)) {
        contact = await updateContact(ctx.companyId, contact.id, { name: name.slice(0, 50) });
      }
      if (c.imgUrl === null || (typeof c.imgUrl === "string" && /^https?:\/\//.test(c.imgUrl))) {
        const pic = c.imgUrl ?? "";
        if (pic !== contact.profilePicUrl) {
          const next = await patchContact(ctx.companyId, contact.id, { profilePicUrl: pic });
          if (next) await dispatch({ type: "contact.updated", companyId: ctx.companyId, contact: next });
        }
      }
    });
  }
}

/** Baileys 7 `lid-mapping.update` `{lid, pn}`: the same person under both identities — merged when already a contact. */
async function onLidMapping(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const p = LidMapping.safeParse(data);
  const jids = p.success ? [normalizeUserJid(p.data.pn), normalizeUserJid(p.data.lid)] : [];
  if (!jids[0] || !jids[1]) {
    skipped.push({ reason: "invalid lid-mapping.update payload" });
    return;
  }
  await guard(skipped, async () => {
    if (!(await knownContact(ctx, jids as string[]))) skipped.push({ reason: "mapping for a person without a contact" });
  });
}

async function onGroupsUpdate(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const list = asArray(data, "groups.update", skipped);
  for (const raw of list ?? []) {
    await guard(skipped, async () => {
      const p = GroupUpdate.safeParse(raw);
      if (!p.success || !p.data.id || !p.data.id.endsWith("@g.us")) {
        skipped.push({ reason: "unreadable groups.update item" });
        return;
      }
      const contactId = await contactIdByJid(ctx.companyId, p.data.id);
      if (!contactId) {
        skipped.push({ reason: "group without a contact" });
        return;
      }
      const subject = p.data.subject?.trim();
      if (!subject) {
        skipped.push({ reason: "group update without a subject" });
        return;
      }
      const contact = await getContactItem(ctx.companyId, contactId);
      if (contact && contact.name !== subject.slice(0, 50)) await updateContact(ctx.companyId, contactId, { name: subject.slice(0, 50) });
    });
  }
}
