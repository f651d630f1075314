/**
 * Message rules (docs/product/messages.md; the outbound path, docs/architecture.md#1-parts-and-data-flow): views with
 * presigned `mediaUrl`, realtime `appMessage`, the outbound send path (store with
 * `ack: 0` → `send` session command → runner acks; failures end as `ack: -1` + `sendError` and 400
 * `ERR_SENDING_WAPP_MSG`), reading a conversation (zero unread, read receipts), edit, delete, react, forward.
 */
import { randomUUID } from "node:crypto";
import { nowIso } from "../common.ts";
import { getContactItem } from "../contacts/repository.ts";
import type { ContactItem } from "../contacts/schema.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { dispatch } from "../events/index.ts";
import "./events.ts";
import "../tickets/events.ts";
import { presignAttachment, uploadedAttachment } from "../media/attachments.ts";
import { mediaKey, presignMediaGet, putMedia } from "../storage/media.ts";
import { otherOpenTicket } from "../tickets/access.ts";
import { getTicketItem, queryTicketIndex, writeTicketTransition, zeroUnread } from "../tickets/repository.ts";
import { decodeCursor, encodeCursor } from "../db/cursor.ts";
import { keys } from "../db/keys.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { canSeeInCompany } from "../access/visibility.ts";
import {
  findOrCreateTicket,
  getAccessibleTicket,
  isAdminActor,
  toTicketView,
  type TicketActor,
} from "../tickets/service.ts";
import { sendSessionCommand } from "../whatsapp/commands.ts";
import { outboundWatch } from "./delivery.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import type { WhatsappItem } from "../whatsapp/schema.ts";
import { getMessageById, ingestMessage, listMessages, replaceLastMessage, updateMessage } from "./repository.ts";
import { DELETED_MESSAGE_PREVIEW, MessageItem, previewOf, TICKET_UPLOADS, type MediaType, type MediaUpload, type MediaUploadBody, type MessageView } from "./schema.ts";
import { renderVariables } from "../automation/variables.ts";
import { getCompany } from "../companies/repository.ts";

// ---------------------------------------------------------------------------------------------
// Views and realtime

import { MEDIA_URL_TTL_SECONDS, toMessageView } from "./views.ts";

export { MEDIA_URL_TTL_SECONDS, toMessageView } from "./views.ts";

/** The chat JID of a contact: `<digits>@g.us` for groups, its phone JID, else its first known JID (LID). */
export function chatJidOf(contact: Pick<ContactItem, "number" | "isGroup" | "jids">): string {
  if (contact.isGroup) return contact.jids.find((j) => j.endsWith("@g.us")) ?? `${contact.number}@g.us`;
  return contact.jids.find((j) => j.endsWith("@s.whatsapp.net")) ?? (contact.number ? `${contact.number}@s.whatsapp.net` : contact.jids[0] ?? "");
}

/** The message type of an uploaded file by its MIME type (image, audio, video, else application). */
export function mediaTypeOf(mime: string): MediaType {
  const head = mime.split("/")[0];
  return head === "image" || head === "audio" || head === "video" ? head : "application";
}

// ---------------------------------------------------------------------------------------------
// Outbound

/** Who sends: the agent (name used for the signature) or the system. */
export interface Sender {
  userId: number | null;
  name: string;
}

/** Outbound content: text (with optional quote) or one stored media object. */
export interface OutboundInput {
  body: string;
  quotedMsgId?: string | null;
  /** Prefix `*{name}:*\n` (default true; the web's sign toggle). */
  signMessage?: boolean;
  isForwarded?: boolean;
  /** Already uploaded media (S3 key under `media/<cid>/`). */
  media?: { key: string; mime: string; name: string; size: number; mediaType?: MediaType };
  /** Pre-generated message id (media uploads name their S3 object after it). */
  messageId?: string;
  /** Sent by the system, not an agent (bot menus, greetings, notices): stored with `isAutomatic`, never signed. */
  automatic?: boolean;
  /** Written by the AI assistant (stored with `isAssistant`; automatic as well). */
  assistant?: boolean;
  /** IANA zone for the message variables; default the company's (read when the body holds a `{{`). */
  timeZone?: string;
  /**
   * The ticket's contact and connection as the caller just read them (a scheduled message's or a campaign's send): not read again.
   * Each is used only when it is the ticket's own (same id); otherwise it is read.
   */
  known?: { contact?: ContactItem; whatsapp?: WhatsappItem };
}

let baileys: Promise<typeof import("@whiskeysockets/baileys")> | undefined;

/**
 * A new outbound WhatsApp message id (Baileys' `generateMessageIDV2`, seeded with the connection's number when known).
 * Baileys is loaded on first use, so the ticket-list path never pays for it.
 */
export async function newOutboundId(wa?: Pick<WhatsappItem, "number"> | null): Promise<string> {
  baileys ??= import("@whiskeysockets/baileys");
  const { generateMessageIDV2 } = await baileys;
  return generateMessageIDV2(wa?.number ? `${wa.number}@s.whatsapp.net` : undefined);
}

async function markFailed(companyId: number, ticket: TicketItem, messageId: string, reason: string): Promise<MessageItem> {
  const failed = await updateMessage(companyId, ticket.id, messageId, { ack: -1, sendError: reason });
  await dispatch({ type: "message.updated", companyId, message: failed, ticket });
  return failed;
}

/**
 * Stores an outbound message (`fromMe`, `ack: 0`) with the variables applied (in the company's zone) and the signature
 * when asked, publishes it, and enqueues the `send` session command. When the connection is not CONNECTED or the enqueue fails the message is
 * kept with `ack: -1` and `sendError`, an `update` is published, and 400 `ERR_SENDING_WAPP_MSG` (carrying `message`)
 * is thrown. Returns the stored message view.
 */
export async function sendOutbound(companyId: number, sender: Sender, ticket: TicketItem, input: OutboundInput): Promise<MessageView> {
  const knownContact = input.known?.contact?.id === ticket.contactId && input.known.contact.companyId === companyId ? input.known.contact : undefined;
  const knownWa = input.known?.whatsapp?.id === ticket.whatsappId && input.known.whatsapp.companyId === companyId ? input.known.whatsapp : undefined;
  const [contact, wa] = await Promise.all([knownContact ?? getContactItem(companyId, ticket.contactId), knownWa ?? getWhatsappItem(companyId, ticket.whatsappId)]);
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
  const remoteJid = chatJidOf(contact);
  // Variables render in the company's zone, agents' texts included; the company is read only when the
  // text holds a variable and the caller did not pass the zone (automatic messages do).
  const timeZone = input.timeZone ?? (input.body.includes("{{") ? (await getCompany(companyId))?.timezone : undefined);
  let text = renderVariables(input.body, { contactName: contact.name, ticketId: ticket.id, timeZone });
  if (!input.automatic && (input.signMessage ?? true) && sender.name && text) text = `*${sender.name}:*\n${text}`;
  let quoted: MessageItem | null = null;
  if (input.quotedMsgId) {
    const q = await getMessageById(companyId, input.quotedMsgId);
    if (q && q.ticketId === ticket.id) quoted = q;
  }
  const id = input.messageId ?? (await newOutboundId(wa));
  const now = nowIso();
  const draft = MessageItem.parse({
    id,
    ticketId: ticket.id,
    companyId,
    contactId: contact.id,
    whatsappId: ticket.whatsappId,
    remoteJid,
    body: text,
    fromMe: true,
    read: true,
    mediaType: input.media ? (input.media.mediaType ?? mediaTypeOf(input.media.mime)) : "chat",
    mediaKey: input.media?.key ?? null,
    mediaName: input.media?.name ?? null,
    mediaMime: input.media?.mime ?? null,
    mediaSize: input.media?.size ?? null,
    ack: 0,
    isForwarded: !!input.isForwarded,
    quotedMsgId: quoted?.id ?? null,
    quotedMsg: quoted ? { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType, senderName: quoted.senderName } : null,
    waTimestamp: now,
    userId: sender.userId,
    isAutomatic: !!input.automatic,
    isAssistant: !!input.assistant,
    createdAt: now,
    updatedAt: now,
  });
  const { createdAt: _c, updatedAt: _u, ...toStore } = draft;
  const commandId = randomUUID();
  const stored = await ingestMessage(companyId, ticket, toStore, {
    lastMessage: previewOf(text || input.media?.name || ""),
    incrementUnread: false,
    waAliasJid: remoteJid,
    pending: outboundWatch(companyId, ticket.id, ticket.whatsappId, id, commandId),
  });
  // The same message id stored before (a retried send with a reserved id, e.g. a scheduled message): already sent.
  if (!stored.stored) return toMessageView(companyId, stored.message);
  await dispatch({ type: "message.created", companyId, message: stored.message, ticket: stored.ticket });

  if (wa?.status !== "CONNECTED") {
    const failed = await markFailed(companyId, stored.ticket, id, "ERR_WAPP_NOT_INITIALIZED");
    throw new AppError("ERR_SENDING_WAPP_MSG", { message: await toMessageView(companyId, failed) });
  }
  try {
    await sendSessionCommand({ type: "send", companyId, whatsappId: ticket.whatsappId, ticketId: ticket.id, messageId: id }, commandId);
  } catch (err) {
    log("error", "send command enqueue failed", { companyId, ticketId: ticket.id, messageId: id, err });
    const failed = await markFailed(companyId, stored.ticket, id, "ERR_SENDING_WAPP_MSG");
    throw new AppError("ERR_SENDING_WAPP_MSG", { message: await toMessageView(companyId, failed) });
  }
  return toMessageView(companyId, stored.message);
}

/** `POST /api/messages/{ticketId}` (text): access-checked send as the caller. See {@link sendOutbound}. */
export async function sendTicketMessage(
  actor: TicketActor,
  ticketId: number,
  input: { body: string; quotedMsgId?: string | null; signMessage?: boolean },
): Promise<MessageView> {
  const ticket = await getAccessibleTicket(actor, ticketId);
  if (!input.body.trim()) throw new AppError("ERR_VALIDATION", { fields: [{ path: "body", message: "Required" }] });
  return sendOutbound(actor.companyId, { userId: actor.userId, name: actor.name }, ticket, input);
}

/** An uploaded file of a multipart `medias` field. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  content: Buffer;
}

/**
 * `POST /api/messages/{ticketId}` (multipart `medias`): stores each file in S3 under `media/<cid>/<ticketId>/<id>.<ext>`
 * and sends it as its own message (mediaType from the MIME type; body = its caption, else the file name). Every file is
 * attempted; when any fails the others stay sent and 400 `ERR_SENDING_WAPP_MSG` is thrown at the end.
 */
export async function sendMediaMessages(actor: TicketActor, ticketId: number, files: UploadedFile[], captions: string[]): Promise<MessageView[]> {
  const ticket = await getAccessibleTicket(actor, ticketId);
  if (!files.length) throw new AppError("ERR_VALIDATION", { fields: [{ path: "medias", message: "Required" }] });
  const cid = actor.companyId;
  const wa = await getWhatsappItem(cid, ticket.whatsappId);
  const out: MessageView[] = [];
  let failed: AppError | null = null;
  for (const [i, f] of files.entries()) {
    const id = await newOutboundId(wa);
    const ext = f.filename.includes(".") ? f.filename.split(".").pop() : undefined;
    const key = mediaKey(cid, ticket.id, id, ext);
    await putMedia(key, f.content, f.mimetype || "application/octet-stream");
    const caption = (captions[i] ?? captions[0] ?? "").trim();
    try {
      out.push(
        await sendOutbound(cid, { userId: actor.userId, name: actor.name }, (await getAccessibleTicket(actor, ticket.id)), {
          body: caption && caption !== f.filename ? caption : f.filename,
          signMessage: false,
          messageId: id,
          media: { key, mime: f.mimetype || "application/octet-stream", name: f.filename, size: f.content.length },
        }),
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      failed = err;
    }
  }
  if (failed) throw failed;
  return out;
}

/** Lifetime of an upload URL (seconds). */
export const UPLOAD_URL_TTL_SECONDS = 300;

/**
 * `POST /api/media/uploads`: a presigned PUT for one file the caller will send on a ticket they may act
 * on (403/404 as {@link getAccessibleTicket}). The server chooses the key, `media/<cid>/uploads/<ticketId>/<uuid>.<ext>`;
 * the content type and size are bound in the signature. A size over the kind's limit (`MEDIA_SIZE_LIMITS`) is refused
 * with 400 `ERR_VALIDATION` (`size`) before anything is signed.
 */
export async function createMediaUpload(actor: TicketActor, input: MediaUploadBody): Promise<MediaUpload> {
  const ticket = await getAccessibleTicket(actor, input.ticketId);
  return presignAttachment(TICKET_UPLOADS, actor.companyId, ticket.id, input, UPLOAD_URL_TTL_SECONDS);
}

/**
 * `POST /api/messages/{ticketId}` `{body, medias: [{key, fileName}]}`: sends files the browser uploaded,
 * one message each (body = the caption, else the file name), like {@link sendMediaMessages}. A key is accepted only
 * under the caller's company and this ticket's upload prefix (another company's or ticket's key: 404 `ERR_NOT_FOUND`,
 * nothing sent); the object must exist and be within its type's limit (read from S3, not from the browser).
 */
export async function sendUploadedMedia(actor: TicketActor, ticketId: number, medias: { key: string; fileName: string }[], caption: string): Promise<MessageView[]> {
  const ticket = await getAccessibleTicket(actor, ticketId);
  const files: { key: string; fileName: string; size: number; mime: string }[] = [];
  for (const m of medias) files.push({ ...(await uploadedAttachment(TICKET_UPLOADS, actor.companyId, ticket.id, m.key)), fileName: m.fileName });
  const wa = await getWhatsappItem(actor.companyId, ticket.whatsappId);
  const out: MessageView[] = [];
  let failed: AppError | null = null;
  for (const f of files) {
    const id = await newOutboundId(wa);
    const text = caption.trim();
    try {
      out.push(
        await sendOutbound(actor.companyId, { userId: actor.userId, name: actor.name }, await getAccessibleTicket(actor, ticket.id), {
          body: text && text !== f.fileName ? text : f.fileName,
          signMessage: false,
          messageId: id,
          media: { key: f.key, mime: f.mime, name: f.fileName, size: f.size },
        }),
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      failed = err;
    }
  }
  if (failed) throw failed;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading a conversation

/**
 * `GET /api/messages/{ticketId}`: 20 messages per page, the newest page first, each page returned oldest → newest.
 * `cursor` (from `nextCursor`) or `pageNumber` (walked, at most 50 pages). Opening the first page zeroes the ticket's
 * unread count (publishing a ticket update) and, best-effort, marks the page's unread inbound messages read and
 * enqueues a `read` command for them, unless `peek` (looking without attending: nothing changes). 403/404 as
 * {@link getAccessibleTicket}.
 */
export async function listTicketMessages(
  actor: TicketActor,
  ticketId: number,
  opts: { pageNumber?: number; cursor?: string; peek?: boolean },
): Promise<{ messages: MessageView[]; ticket: Awaited<ReturnType<typeof toTicketView>>; count: number; hasMore: boolean; nextCursor?: string }> {
  const ticket = await getAccessibleTicket(actor, ticketId);
  const cid = actor.companyId;
  let cursor = opts.cursor;
  let walked = 0;
  const first = !cursor && (opts.pageNumber ?? 1) <= 1 && !opts.peek;
  if (!cursor && (opts.pageNumber ?? 1) > 1) {
    for (let i = 0; i < Math.min((opts.pageNumber ?? 1) - 1, 50); i++) {
      const p = await listMessages(cid, ticket.id, { cursor });
      walked += p.messages.length;
      cursor = p.nextCursor;
      if (!cursor) return { messages: [], ticket: await toTicketView(cid, ticket), count: walked, hasMore: false };
    }
  }
  const page = await listMessages(cid, ticket.id, { cursor });
  let current = ticket;
  if (first) {
    const unread = page.messages.filter((m) => !m.fromMe && !m.read);
    const work: Promise<unknown>[] = [];
    if (ticket.unreadMessages > 0) {
      current = { ...ticket, unreadMessages: 0 };
      work.push(zeroUnread(cid, ticket.id).then(() => dispatch({ type: "ticket.updated", companyId: cid, ticket: current })));
    }
    if (unread.length) {
      work.push(
        ...unread.map((m) => updateMessage(cid, ticket.id, m.id, { read: true }).catch(() => undefined)),
        sendSessionCommand({ type: "read", companyId: cid, whatsappId: ticket.whatsappId, remoteJid: unread[0].remoteJid, messageIds: unread.map((m) => m.id) }).catch(
          (err) => log("warn", "read command enqueue failed", { companyId: cid, ticketId: ticket.id, err }),
        ),
      );
      for (const m of unread) m.read = true;
    }
    await Promise.all(work);
  }
  const [views, ticketView] = await Promise.all([
    Promise.all([...page.messages].reverse().map((m) => toMessageView(cid, m))),
    toTicketView(cid, current),
  ]);
  return { messages: views, ticket: ticketView, count: walked + views.length, hasMore: !!page.nextCursor, nextCursor: page.nextCursor };
}

// ---------------------------------------------------------------------------------------------
// Edit, delete, react, forward

async function accessibleMessage(actor: TicketActor, messageId: string): Promise<{ message: MessageItem; ticket: TicketItem }> {
  const message = await getMessageById(actor.companyId, messageId);
  if (!message) throw new AppError("ERR_NO_MESSAGE_FOUND");
  const ticket = await getAccessibleTicket(actor, message.ticketId);
  return { message, ticket };
}

/**
 * Edit and delete act only on the caller's own sent messages (docs/product/messages.md#editing-and-deleting): `fromMe` and
 * written by this user (`userId`); admins may act on any sent message. 403 `ERR_NO_PERMISSION` otherwise.
 */
function assertOwnMessage(actor: TicketActor, message: MessageItem): void {
  if (!message.fromMe) throw new AppError("ERR_NO_PERMISSION");
  if (!isAdminActor(actor) && message.userId !== actor.userId) throw new AppError("ERR_NO_PERMISSION");
}

async function enqueueOr(code: "ERR_SENDING_WAPP_MSG" | "ERR_DELETE_WAPP_MSG", fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    log("error", "session command enqueue failed", { err });
    throw new AppError(code);
  }
}

/** The agent signature `sendOutbound` puts before a signed text: `*Name:*` and a newline. */
const SIGNATURE = /^\*[^*\n]+:\*\n/;

/**
 * Keeps the ticket list's preview true after `message` changed (edited: its new text; deleted for everyone:
 * {@link DELETED_MESSAGE_PREVIEW}): when it is the ticket's newest message (reactions aside), the ticket's
 * `lastMessage` becomes `text` cut by `previewOf`; `updatedAt` and the list order stay. Returns the ticket as it now is.
 */
export async function refreshPreview(companyId: number, ticket: TicketItem, message: MessageItem, text: string): Promise<TicketItem> {
  const preview = previewOf(text);
  if (ticket.lastMessage === preview) return ticket;
  const newest = (await listMessages(companyId, ticket.id, { limit: 5 })).messages.find((m) => m.mediaType !== "reactionMessage");
  if (newest?.id !== message.id) return ticket;
  return (await replaceLastMessage(companyId, ticket.id, ticket.lastMessage, preview)) ? { ...ticket, lastMessage: preview } : ticket;
}

/**
 * `POST /api/messages/edit/{id}`: edits one of the caller's own sent (`fromMe`) messages: enqueues the `edit` command,
 * then stores `body`, `previousBody`, `isEdited` and publishes an update. The original's agent signature (`*Name:*\n`) is
 * kept when the new text does not carry it. The ticket's preview follows when it is the newest message. 403 `ERR_NO_PERMISSION` for others' messages,
 * 400 for empty text or a deleted message, 400 `ERR_SENDING_WAPP_MSG` when the command cannot be enqueued (nothing changes).
 */
export async function editMessage(actor: TicketActor, messageId: string, body: string): Promise<MessageView> {
  const { message, ticket } = await accessibleMessage(actor, messageId);
  assertOwnMessage(actor, message);
  if (!body.trim()) throw new AppError("ERR_VALIDATION", { fields: [{ path: "body", message: "Required" }] });
  if (message.isDeleted) throw new AppError("ERR_VALIDATION", { fields: [{ path: "id", message: "Deleted" }] });
  // The agent's signature stays: an edit of "*Ana:*\nOlá" typed as "Olá!" is sent and stored as "*Ana:*\nOlá!".
  const sign = SIGNATURE.exec(message.body)?.[0] ?? "";
  const text = sign && !body.startsWith(sign) ? sign + body : body;
  await enqueueOr("ERR_SENDING_WAPP_MSG", () =>
    sendSessionCommand({ type: "edit", companyId: actor.companyId, whatsappId: message.whatsappId, ticketId: ticket.id, messageId, body: text }),
  );
  const updated = await updateMessage(actor.companyId, ticket.id, messageId, { body: text, previousBody: message.body, isEdited: true });
  const current = await refreshPreview(actor.companyId, ticket, updated, text);
  await dispatch({ type: "message.updated", companyId: actor.companyId, message: updated, ticket: current });
  return toMessageView(actor.companyId, updated);
}

/**
 * `DELETE /api/messages/{id}`: deletes one of the caller's own messages for everyone: enqueues `delete`, sets
 * `isDeleted`, publishes an update (the ticket's preview reads {@link DELETED_MESSAGE_PREVIEW} when it was the newest). 403 for others' messages; 400 `ERR_DELETE_WAPP_MSG` when the command cannot be enqueued.
 */
export async function deleteMessage(actor: TicketActor, messageId: string): Promise<MessageView> {
  const { message, ticket } = await accessibleMessage(actor, messageId);
  assertOwnMessage(actor, message);
  await enqueueOr("ERR_DELETE_WAPP_MSG", () =>
    sendSessionCommand({ type: "delete", companyId: actor.companyId, whatsappId: message.whatsappId, ticketId: ticket.id, messageId }),
  );
  const updated = await updateMessage(actor.companyId, ticket.id, messageId, { isDeleted: true });
  const current = await refreshPreview(actor.companyId, ticket, updated, DELETED_MESSAGE_PREVIEW);
  await dispatch({ type: "message.updated", companyId: actor.companyId, message: updated, ticket: current });
  return toMessageView(actor.companyId, updated);
}

/**
 * `POST /api/messages/{id}/reactions` `{type: emoji}`: reacts to any message of an accessible ticket: enqueues `react`,
 * stores the reaction on the target (one per sender; an empty emoji removes ours) and publishes an update.
 */
export async function reactToMessage(actor: TicketActor, messageId: string, emoji: string): Promise<MessageView> {
  const { message, ticket } = await accessibleMessage(actor, messageId);
  await enqueueOr("ERR_SENDING_WAPP_MSG", () =>
    sendSessionCommand({ type: "react", companyId: actor.companyId, whatsappId: message.whatsappId, ticketId: ticket.id, messageId, emoji }),
  );
  const reactions = message.reactions.filter((r) => !r.fromMe);
  if (emoji) reactions.push({ emoji, fromMe: true, senderJid: null, at: nowIso() });
  const updated = await updateMessage(actor.companyId, ticket.id, messageId, { reactions });
  await dispatch({ type: "message.updated", companyId: actor.companyId, message: updated, ticket });
  return toMessageView(actor.companyId, updated);
}

/**
 * `POST /api/message/forward` `{messageId, contactId, signMessage}`: sends a copy of an accessible message (text or the
 * same media object) to the contact through the source ticket's connection, in the contact's open/pending ticket there
 * (a new one is opened and assigned to the caller, in the source ticket's queue). `isForwarded` is set. The caller must
 * be allowed on the destination ticket too: an existing ticket of a queue they may not see (held by someone else) is
 * 409 `ERR_OTHER_OPEN_TICKET` with who holds it and in which queue (`otherOpenTicket`: no uuid, contact or messages)
 * and nothing is sent.
 */
export async function forwardMessage(actor: TicketActor, input: { messageId: string; contactId: number; signMessage?: boolean }): Promise<MessageView> {
  const { message, ticket: source } = await accessibleMessage(actor, input.messageId);
  const contact = await getContactItem(actor.companyId, input.contactId);
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
  let { ticket, created } = await findOrCreateTicket(actor.companyId, {
    contactId: contact.id,
    whatsappId: source.whatsappId,
    isGroup: contact.isGroup,
    queueId: source.queueId,
  });
  if (!created && !(await canSeeInCompany(actor, ticket, actor.companyId))) throw await otherOpenTicket(actor, ticket.id);
  if (created) {
    const opened = ticket;
    ticket = await writeTicketTransition(opened, { status: "open", userId: actor.userId, updatedAt: nowIso() });
    await dispatch({ type: "ticket.updated", companyId: actor.companyId, ticket, previous: opened, created: true });
  }
  return sendOutbound(actor.companyId, { userId: actor.userId, name: actor.name }, ticket, {
    body: message.mediaKey ? (message.body === message.mediaName ? "" : message.body) : message.body,
    signMessage: input.signMessage ?? false,
    isForwarded: true,
    media: message.mediaKey
      ? { key: message.mediaKey, mime: message.mediaMime ?? "application/octet-stream", name: message.mediaName ?? "file", size: message.mediaSize ?? 0, mediaType: message.mediaType }
      : undefined,
  });
}

/** `GET /api/media/{messageId}`: a short-lived presigned URL of an accessible message's media (404 when it has none). */
export async function mediaUrlOf(actor: TicketActor, messageId: string): Promise<{ url: string; expiresInSeconds: number }> {
  const { message } = await accessibleMessage(actor, messageId);
  if (!message.mediaKey) throw new AppError("ERR_NOT_FOUND");
  const url = await presignMediaGet(actor.companyId, message.mediaKey, MEDIA_URL_TTL_SECONDS, message.mediaName ?? undefined, message.mediaMime);
  return { url, expiresInSeconds: MEDIA_URL_TTL_SECONDS };
}

// ---------------------------------------------------------------------------------------------
// The contact's earlier conversation

/** Messages per page of {@link listEarlierMessages}. */
export const EARLIER_PAGE_SIZE = 20;
/** Earlier tickets without messages skipped in one call at most (each costs one Query). */
const EARLIER_TICKETS_PER_CALL = 10;

/** Where {@link listEarlierMessages} reads: an earlier ticket of the contact, and where in it (`m`, a message cursor). */
interface EarlierPlace {
  ticket: TicketItem;
  m?: string;
}

const contactTicketSK = (t: Pick<TicketItem, "createdAt" | "id">) => keys.ticketEdgeSK(t.createdAt, t.id);

/** The opaque cursor of a place: the ticket (`tk`), its contact-index key (`sk`) and the message cursor (`m`). */
const placeCursor = (p: EarlierPlace) => encodeCursor({ tk: p.ticket.id, sk: contactTicketSK(p.ticket), ...(p.m ? { m: p.m } : {}) });

/** The contact's ticket created just before the one with contact-index key `beforeSK` (one Query of GSI4), or null. */
async function previousContactTicket(companyId: number, contactId: number, beforeSK: string): Promise<TicketItem | null> {
  const out = await queryTicketIndex("GSI4", keys.contactTicketsPK(companyId, contactId), { limit: 2, skBetween: [keys.ticketEdgePrefix, beforeSK] });
  return out.items.find((t) => t._sk < beforeSK) ?? null;
}

/**
 * `GET /api/messages/{ticketId}/earlier`: the contact's conversation before this ticket (a new ticket after a close
 * shows the earlier conversation, docs/product/messages.md#earlier-conversation): the messages of the contact's earlier
 * tickets, newest ticket first, {@link EARLIER_PAGE_SIZE} per page, each page oldest → newest; every message carries
 * its `ticketId` (the web draws a divider per ticket). A page holds messages of one ticket; `nextCursor` continues in
 * it or in the ticket before. The caller must be allowed to see THIS ticket (403/404 as {@link getAccessibleTicket});
 * each earlier ticket goes through the same visibility rule (queues, assignee, `viewclosed`, `viewgroups`), and one the
 * caller may not see is skipped unread, as is one without messages. A cursor naming another contact's or company's
 * ticket is 400 `ERR_INVALID_CURSOR`.
 */
export async function listEarlierMessages(
  actor: TicketActor,
  ticketId: number,
  opts: { cursor?: string },
): Promise<{ messages: MessageView[]; hasMore: boolean; nextCursor?: string }> {
  const ticket = await getAccessibleTicket(actor, ticketId);
  const cid = actor.companyId;
  const at = decodeCursor<Record<string, unknown>>(opts.cursor);
  let place: EarlierPlace | null = null;
  if (at) {
    const tk = Number(at.tk);
    const from = Number.isInteger(tk) && tk !== ticket.id ? await getTicketItem(cid, tk) : null;
    if (!from || from.contactId !== ticket.contactId || contactTicketSK(from) !== at.sk || contactTicketSK(from) >= contactTicketSK(ticket)) {
      throw new AppError("ERR_INVALID_CURSOR");
    }
    if (at.m !== undefined && typeof at.m !== "string") throw new AppError("ERR_INVALID_CURSOR");
    place = { ticket: from, m: at.m };
  } else {
    const prev = await previousContactTicket(cid, ticket.contactId, contactTicketSK(ticket));
    if (!prev) return { messages: [], hasMore: false };
    place = { ticket: prev };
  }
  for (let i = 0; place && i < EARLIER_TICKETS_PER_CALL; i++) {
    const visible = await canSeeInCompany(actor, place.ticket, cid);
    const page: Awaited<ReturnType<typeof listMessages>> = visible
      ? await listMessages(cid, place.ticket.id, { cursor: place.m, limit: EARLIER_PAGE_SIZE })
      : { messages: [] };
    let next: EarlierPlace | null = null;
    if (page.nextCursor) next = { ticket: place.ticket, m: page.nextCursor };
    else {
      const prev = await previousContactTicket(cid, ticket.contactId, contactTicketSK(place.ticket));
      if (prev) next = { ticket: prev };
    }
    const shown = page.messages.filter((m) => m.mediaType !== "reactionMessage");
    if (shown.length || !next) {
      const messages = await Promise.all([...shown].reverse().map((m) => toMessageView(cid, m)));
      return { messages, hasMore: !!next, nextCursor: next ? placeCursor(next) : undefined };
    }
    place = next;
  }
  return { messages: [], hasMore: !!place, nextCursor: place ? placeCursor(place) : undefined };
}
