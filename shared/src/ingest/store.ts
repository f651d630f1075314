/**
 * Storing a new message (one transaction for message, ticket and markers), shared by `messages.upsert` and `call`: contact
 * (by JID/LID/phone) → ticket (the open one, or a new pending one) → media → ONE ingest transaction (alias put if
 * absent, message, ref, ticket, outbox, search index; for a reply a campaign waits for, the durable listener's pending
 * run) → `message.created` (and `campaign.replied`) → the automation seam.
 */
import { findOrCreateContactByIdentity, updateContact } from "../contacts/service.ts";
import type { ContactItem } from "../contacts/schema.ts";
import { MAX_PREVIEW_CHARS, type MessageItem } from "../messages/schema.ts";
import { aliasOwnedBy, ingestMessage, mayHaveOlderAlias, StaleTicket } from "../messages/repository.ts";
import { dispatch } from "../events/index.ts";
import "../messages/events.ts";
import "../campaigns/events.ts";
import type { CampaignReplied } from "../campaigns/events.ts";
import { pendingRunPuts } from "../events/durable.ts";
import { onInbound } from "../automation/inbound.ts";
import { getActiveTicketId, getTicketItem, isActiveStatus, queryContactTickets } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { findOrCreateTicket } from "../tickets/service.ts";
import { summariesOf } from "../tickets/summaries.ts";
import { clearReadCache, contactCache, forgetOpenTicket, keepOpenTicket, openTicketCopy, readCacheOptions } from "./read-cache.ts";
import type { MappedMessage } from "./content.ts";
import { hasPlaceholderName, ingestOptions, type IngestContext, type Skips } from "./context.ts";
import { jidUser, normalizeUserJid, type ChatIdentity } from "./identity.ts";
import { storeMedia } from "./media.ts";
import { MessageStatus } from "./schema.ts";
import { findTarget } from "./targets.ts";

/** A new message as the handlers hand it to {@link storeMessage}. */
export interface Incoming {
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
  /**
   * This delivery's processing token (one per message of an event, kept through its retries and its parking): a try
   * that finds the message already stored under the same token finishes what an earlier try's lost answer left undone.
   */
  token?: string;
}

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

/** Baileys `WebMessageInfo.Status` → the product's ack (0 pending, 1-2 sent, 3 delivered, 4-5 read; -1 failed). */
export function ackOf(status: number | undefined, fromMe: boolean): number {
  if (status == null) return fromMe ? 1 : 0;
  if (status === MessageStatus.ERROR) return fromMe ? -1 : 0;
  return Math.min(5, Math.max(0, status));
}

/** Tries of {@link storeMessage} when the kept copy of the open ticket proves stale (then a fresh read each time). */
const STALE_TRIES = 3;

/**
 * Stores a new message (contact → ticket → media → one ingest transaction) and publishes it. A customer's text on an
 * open ticket uses the ticket as this process last kept it (`read-cache.ts`), confirmed by the transaction's condition
 * on its `rev`; a stale copy stores nothing ({@link StaleTicket}) and the message is taken again from a fresh read.
 */
export async function storeMessage(ctx: IngestContext, inc: Incoming, skipped: Skips): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await storeOnce(ctx, inc, skipped, attempt === 1);
    } catch (err) {
      if (!(err instanceof StaleTicket) || attempt >= STALE_TRIES) throw err;
    }
  }
}

async function storeOnce(ctx: IngestContext, inc: Incoming, skipped: Skips, useCopy: boolean): Promise<void> {
  const { companyId, whatsappId } = ctx;
  const { identity, content, fromMe } = inc;
  // A redelivery (also under the chat's other JID) is recognised before any download or new ticket; the ingest
  // transaction below stays the real guard (its alias put under the chat JID is conditional). The common case, a
  // customer's text in a chat known by one JID with an open ticket, skips the pre-check: the transaction alone
  // refuses a duplicate there, and nothing was downloaded or created before it (2 reads saved per message). The
  // transaction guards the merged alias only: a message that may have been stored with the older alias pair (its
  // WhatsApp time before the table's merge, `messages/repository.ts`) takes the pre-check, which reads both.
  const contactIdentity = {
    jids: identity.contact.jids,
    number: identity.contact.number,
    // The pushName of an own message is ours; groups are named by their subject (groupSubject / groups.update).
    name: identity.isGroup || fromMe ? "" : (inc.pushName ?? ""),
    isGroup: identity.isGroup,
  };
  const keepClosed = fromMe || inc.type === "append";
  const waTimestamp = waTime(inc.timestamp);
  const cheap = !keepClosed && !content.media && identity.altChatJids.length === 0 && !(await mayHaveOlderAlias(waTimestamp));
  const [duplicate, resolved] = await Promise.all([cheap ? null : findTarget(ctx, identity, inc.waId), resolveContact(companyId, contactIdentity)]);
  if (duplicate) return duplicateOrOwn(ctx, inc, resolved.contact, skipped);
  let contact = resolved.contact;
  if (identity.isGroup && ctx.groupSubject && hasPlaceholderName(contact)) {
    const named = await nameGroup(ctx, contact, identity.chatJid);
    if (named) {
      contact = named;
      refreshCachedContact(companyId, contactIdentity, named);
    }
  }
  let open = cheap ? await activeTicket(ctx, contact.id, useCopy) : null;
  if (cheap && !open && resolved.cached) {
    // About to start a ticket on a remembered contact: make sure it still exists as remembered (it may have been
    // deleted or merged by another process meanwhile).
    contact = (await resolveContact(companyId, contactIdentity, true)).contact;
    open = await activeTicket(ctx, contact.id, false);
  }
  if (cheap && !open && (await findTarget(ctx, identity, inc.waId))) {
    // No open ticket: a redelivery must not start one.
    return duplicateOrOwn(ctx, inc, contact, skipped);
  }
  if (open && resolved.cached) contact = withSummary(contact, open);
  const { ticket, created: ticketCreated } = open ? { ticket: open, created: false } : await ticketFor(ctx, contact.id, identity.isGroup, keepClosed);
  // A new ticket on a remembered contact: its campaign wait is read fresh (the common path re-resolved it above).
  if (ticketCreated && resolved.cached && !cheap) contact = (await resolveContact(companyId, contactIdentity, true)).contact;
  const replied = replyOf(ctx, inc, ticket, contact);
  const { media, body } = await storeMedia(ctx, { raw: inc.raw, waId: inc.waId, ticketId: ticket.id }, content);

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
    waTimestamp,
    userId: null,
    isAutomatic: false,
    sendError: null,
  };
  // The open ticket (a kept copy or a fresh read) is written only at the revision it was seen at: the copy it leaves
  // is then exact and kept. Other paths leave the stored `rev` ahead of any copy: only the open ticket's id is kept.
  const atRev = !!open;
  const res = await ingestMessage(companyId, ticket, message, {
    lastMessage: content.preview,
    incrementUnread: !fromMe && inc.type === "notify",
    waAliasJid: identity.chatJid,
    atRev,
    attempt: inc.token ? { token: inc.token, ticketCreated } : undefined,
    clearReplyWait: !!replied && !!ticket.campaignWait,
    extra: replied ? pendingRunPuts(replied) : undefined,
  });
  if (atRev && res.stored) keepOpenTicket(res.ticket);
  else if (!atRev && isActiveStatus(ticket.status)) keepOpenTicket(res.ticket, false);
  else if (!atRev) forgetOpenTicket(companyId, whatsappId, contact.id);
  if (!res.stored) return duplicateOrOwn(ctx, inc, contact, skipped);
  if (replied) {
    // Answered: the next message of this process must not answer it again (the listener clears the stored wait).
    const { [String(whatsappId)]: _answered, ...waits } = contact.campaignWaits ?? {};
    contact = { ...contact, campaignWaits: waits };
    refreshCachedContact(companyId, contactIdentity, contact);
  }
  await afterStore(ctx, inc, res.message, res.ticket, ticketCreated, contact, replied);
}

/**
 * The campaign wait a customer's new message answers (docs/product/campaigns.md#replies), read from what the ingest
 * holds anyway: the open ticket's `campaignWait` (exact at its `rev`), else the contact's wait on this connection.
 * Null for own messages, history, groups, and when nothing waits: such a message costs no extra call.
 */
function replyOf(ctx: IngestContext, inc: Incoming, ticket: TicketItem, contact: ContactItem): CampaignReplied | null {
  if (inc.fromMe || inc.type !== "notify" || inc.identity.isGroup) return null;
  const wait = ticket.campaignWait ?? contact.campaignWaits?.[String(ctx.whatsappId)];
  if (!wait) return null;
  return {
    type: "campaign.replied",
    companyId: ctx.companyId,
    whatsappId: ctx.whatsappId,
    contactId: contact.id,
    ticketId: ticket.id,
    messageId: inc.waId,
    wait,
    at: new Date().toISOString(),
  };
}

/**
 * What follows a stored message: `message.created`, then the automation seam (a customer's new message may get an
 * automatic answer: rating, chatbot, hours). `dispatch` never throws (listeners log their failures), so the caller
 * never retries a stored message.
 */
async function afterStore(
  ctx: IngestContext,
  inc: Incoming,
  message: MessageItem,
  ticket: TicketItem,
  ticketCreated: boolean,
  contact: ContactItem,
  replied: CampaignReplied | null = null,
): Promise<void> {
  const { companyId, whatsappId } = ctx;
  await dispatch({ type: "message.created", companyId, message, ticket, ticketCreated });
  if (replied) await dispatch(replied);
  if (!inc.fromMe && inc.type === "notify") {
    await onInbound({ companyId, whatsappId, ticket, ticketCreated, message, contact, now: new Date() });
  }
}

/**
 * A message found already stored: a redelivery (skipped as a duplicate), or this very delivery's earlier try whose
 * answer from DynamoDB was lost after the store (same processing token on the alias): then what follows a store runs
 * now, on the ticket as stored, so the agent still sees the message live and the customer still gets the automatic
 * answer.
 */
async function duplicateOrOwn(ctx: IngestContext, inc: Incoming, contact: ContactItem, skipped: Skips): Promise<void> {
  const own = inc.token ? await aliasOwnedBy(ctx.companyId, ctx.whatsappId, inc.identity.chatJid, inc.waId, inc.token) : null;
  const ticket = own ? await getTicketItem(ctx.companyId, own.message.ticketId, true) : null;
  if (!own || !ticket) {
    skipped.push({ reason: "duplicate message" });
    return;
  }
  await afterStore(ctx, inc, own.message, ticket, own.ticketCreated, contact);
}

const CONTACT_CACHE_MS = 60_000;

const contactCacheKey = (companyId: number, identity: { jids: string[]; number?: string }) =>
  `${companyId}|${identity.jids.join(",")}|${identity.number ?? ""}`;

/**
 * {@link findOrCreateContactByIdentity}, skipped for a minute after the same identity resolved to a contact that
 * already holds every JID and the number (nothing to add or merge); `fresh` skips the cache. `cached` tells which.
 * The cache (`read-cache.ts` `contactCache`) is dropped at once when this process updates or deletes the contact;
 * another process's change is seen within the minute, and sooner for what a ticket row shows (name, `disableBot`):
 * those come from the open ticket's stored summary, read fresh with every message ({@link withSummary}).
 */
async function resolveContact(
  companyId: number,
  identity: Parameters<typeof findOrCreateContactByIdentity>[1],
  fresh = false,
): Promise<{ contact: ContactItem; cached: boolean }> {
  const key = contactCacheKey(companyId, identity);
  const hit = contactCache.get(key);
  const now = Date.now();
  if (!fresh && hit && hit.until > now) return { contact: hit.contact, cached: true };
  contactCache.delete(key);
  const contact = await findOrCreateContactByIdentity(companyId, identity);
  if (identity.jids.every((j) => contact.jids.includes(j)) && (!identity.number || contact.number === identity.number)) {
    if (contactCache.size >= readCacheOptions.maxEntries) contactCache.clear();
    contactCache.set(key, { contact, until: now + CONTACT_CACHE_MS });
  }
  return { contact, cached: false };
}

function refreshCachedContact(companyId: number, identity: { jids: string[]; number?: string }, contact: ContactItem): void {
  const key = contactCacheKey(companyId, identity);
  const hit = contactCache.get(key);
  if (hit) contactCache.set(key, { contact, until: hit.until });
}

/** A remembered contact with what the ticket's fresh row summary says of it (name, picture, e-mail, `disableBot`). */
function withSummary(contact: ContactItem, ticket: TicketItem): ContactItem {
  const s = summariesOf(ticket)?.contact;
  if (!s || s.id !== contact.id) return contact;
  return { ...contact, name: s.name, profilePicUrl: s.profilePicUrl, email: s.email, disableBot: s.disableBot ?? contact.disableBot };
}

/** Forgets cached contact resolutions and read-cache entries (tests that change items behind the services' back). */
export function clearIngestCaches(): void {
  clearReadCache();
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

/**
 * The contact's open or pending ticket on this connection (still open or pending, same contact and connection, so it
 * holds the ACTIVE marker), or null: the copy this process kept (`useCopy`; confirmed by the ingest write's condition
 * on its `rev`), else the kept ticket read again, else the ACTIVE marker and then its ticket. Reads are consistent;
 * what they find open is kept.
 */
async function activeTicket(ctx: IngestContext, contactId: number, useCopy: boolean): Promise<TicketItem | null> {
  const isOpen = (t: TicketItem | null): t is TicketItem => !!t && isActiveStatus(t.status) && t.contactId === contactId && t.whatsappId === ctx.whatsappId;
  const copy = openTicketCopy(ctx.companyId, ctx.whatsappId, contactId);
  if (copy?.ticket && useCopy && isOpen(copy.ticket)) return copy.ticket;
  forgetOpenTicket(ctx.companyId, ctx.whatsappId, contactId);
  let t = copy ? await getTicketItem(ctx.companyId, copy.id, true) : null;
  if (!isOpen(t)) {
    const id = await getActiveTicketId(ctx.companyId, ctx.whatsappId, contactId);
    t = id ? await getTicketItem(ctx.companyId, id, true) : null;
  }
  if (!isOpen(t)) return null;
  keepOpenTicket(t);
  return t;
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
