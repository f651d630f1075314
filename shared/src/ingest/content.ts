/**
 * Message content → what an agent sees (docs/product/messages.md#kinds-of-message).
 *
 * `mapContent` unwraps Baileys' wrappers (ephemeral, view-once v1/v2/v2-extension, document-with-caption,
 * edited; buttons/template content via `extractMessageContent`) and returns one of:
 * - `message`: a row to store, with the product's `mediaType` (`chat`, `image`, `audio` — voice notes too —, `video`,
 *   `application` for documents, `sticker`, `locationMessage`, `contactMessage`), its `body`, a short `preview` for the
 *   ticket's `lastMessage`, `quotedMsgId` (contextInfo.stanzaId), `isForwarded`, and `media` when bytes are to be
 *   downloaded;
 * - `reaction` (attach to `target`), `edit` (new body for `targetId`, or for the event's own key when `targetId` is
 *   absent — the `messages.update` form), `revoke` (delete-for-everyone of `targetId`);
 * - `none` with a reason (protocol/key-distribution/unsupported content: nothing is stored).
 *
 * Location body: `<image>|<link>[|<description>]` where image is the JPEG thumbnail as a data URI (or empty), link is
 * `https://maps.google.com/maps?q=<lat>%2C<lng>&z=17`, description is `name\naddress` (live location: its caption).
 * Pure: no I/O.
 */
import { extractMessageContent, getContentType } from "@whiskeysockets/baileys/lib/Utils/messages.js";
import { type MediaType, previewOf } from "../messages/schema.ts";
import {
  ContactMessage,
  ContactsArrayMessage,
  ContextInfo,
  ExtendedTextMessage,
  LocationMessage,
  MediaMessage,
  PollCreationMessage,
  ProtocolMessage,
  ProtocolType,
  Reaction,
  ResponseMessage,
  type WAMessageKey,
} from "./schema.ts";

export type MediaKind = "image" | "video" | "audio" | "document" | "sticker";

export interface MappedMessage {
  kind: "message";
  mediaType: MediaType;
  body: string;
  /** Short text for the ticket list (`lastMessage`): never a data URI or a whole vCard. */
  preview: string;
  quotedMsgId: string | null;
  /** What the quote shows when the quoted message is not stored: its text/caption, type and author JID. */
  quoted?: { body: string; mediaType: MediaType; participant?: string };
  isForwarded: boolean;
  /** Present for media whose bytes should be downloaded. `size` in bytes. */
  media?: { kind: MediaKind; mimetype: string; fileName: string | null; size: number | null };
  /** The Baileys content type it came from (e.g. `imageMessage`), for logs and tests. */
  contentType: string;
}
export interface MappedReaction {
  kind: "reaction";
  /** Key of the reacted-to message (its `remoteJid`/`fromMe` are from the sender's point of view). */
  target: WAMessageKey;
  /** Emoji; empty string removes the sender's reaction. */
  emoji: string;
  /** Sender timestamp in ms, when given. */
  atMs?: number;
}
export interface MappedEdit {
  kind: "edit";
  /** Edited message's id; absent when the edit arrived on the edited message's own key (`messages.update`). */
  targetId?: string;
  body: string;
}
export interface MappedRevoke {
  kind: "revoke";
  targetId: string;
}
export interface MappedNone {
  kind: "none";
  reason: string;
}
export type MappedContent = MappedMessage | MappedReaction | MappedEdit | MappedRevoke | MappedNone;

type Content = Record<string, unknown>;

const MEDIA: Record<string, { kind: MediaKind; mediaType: MediaType; defaultMime: string; preview: string }> = {
  imageMessage: { kind: "image", mediaType: "image", defaultMime: "image/jpeg", preview: "📷" },
  videoMessage: { kind: "video", mediaType: "video", defaultMime: "video/mp4", preview: "🎥" },
  ptvMessage: { kind: "video", mediaType: "video", defaultMime: "video/mp4", preview: "🎥" },
  audioMessage: { kind: "audio", mediaType: "audio", defaultMime: "audio/ogg; codecs=opus", preview: "🎤" },
  documentMessage: { kind: "document", mediaType: "application", defaultMime: "application/octet-stream", preview: "📄" },
  stickerMessage: { kind: "sticker", mediaType: "sticker", defaultMime: "image/webp", preview: "🏷️" },
};

const POLLS = new Set(["pollCreationMessage", "pollCreationMessageV2", "pollCreationMessageV3", "pollCreationMessageV4", "pollCreationMessageV5"]);
const RESPONSES = new Set(["buttonsResponseMessage", "listResponseMessage", "templateButtonReplyMessage", "interactiveResponseMessage"]);

const isObj = (v: unknown): v is Content => typeof v === "object" && v !== null && !Array.isArray(v);

/** Google Maps link of a coordinate pair, as the web's location preview opens it. */
export function mapsLink(lat: number, lng: number): string {
  return `https://maps.google.com/maps?q=${lat}%2C${lng}&z=17`;
}

/** The location body `<image>|<link>[|<description>]` (the old system's format, which the web renders). */
export function locationBody(p: { lat: number; lng: number; thumbnailBase64?: string; description?: string }): string {
  const image = p.thumbnailBase64 && p.thumbnailBase64.length < 60_000 ? `data:image/jpeg;base64,${p.thumbnailBase64}` : "";
  const parts = [image, mapsLink(p.lat, p.lng)];
  if (p.description) parts.push(p.description);
  return parts.join("|");
}

function contextOf(c: unknown): ContextInfo | undefined {
  if (!isObj(c)) return undefined;
  const parsed = ContextInfo.safeParse(c.contextInfo);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Size limits (characters) that keep a message item far below DynamoDB's 400 KB even in 4-byte characters:
 * WhatsApp texts stop at 65,536 characters; longer bodies are cut, a location whose thumbnail would not fit drops it.
 */
export const MAX_BODY_CHARS = 65_536;

const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

function message(contentType: string, m: Omit<MappedMessage, "kind" | "contentType" | "quotedMsgId" | "quoted" | "isForwarded">, inner: unknown): MappedMessage {
  const ctx = contextOf(inner);
  const quotedContent = ctx?.stanzaId && ctx.quotedMessage ? mapContent(ctx.quotedMessage) : undefined;
  return {
    kind: "message",
    contentType,
    ...m,
    body: cut(m.body, MAX_BODY_CHARS),
    preview: previewOf(m.preview),
    quotedMsgId: ctx?.stanzaId ?? null,
    ...(quotedContent?.kind === "message"
      ? { quoted: { body: quotedContent.preview, mediaType: quotedContent.mediaType, ...(ctx?.participant ? { participant: ctx.participant } : {}) } }
      : {}),
    isForwarded: !!ctx?.isForwarded || (ctx?.forwardingScore ?? 0) > 0,
  };
}

/** The text a customer would read in an (edited or quoted) content: text, caption or file name. */
export function textOf(content: unknown): string {
  const m = mapContent(content);
  return m.kind === "message" ? m.body : "";
}

/**
 * Maps a `WAMessage.message` (or `update.message`) to what is stored/applied. Never throws; anything unreadable is
 * `{kind: "none", reason}`.
 */
export function mapContent(raw: unknown): MappedContent {
  if (!isObj(raw)) return { kind: "none", reason: "no message content" };
  let source: Content = raw;
  let editedWrapper = false;
  // `editedMessage` at the top: the messages.update form (new content for the event's own key), or the upsert form
  // wrapping a protocolMessage MESSAGE_EDIT (handled below once unwrapped).
  if (isObj(raw.editedMessage)) {
    const inner = raw.editedMessage.message;
    if (!isObj(inner)) return { kind: "none", reason: "edit without content" };
    source = inner;
    editedWrapper = true;
  }
  let content: Content | undefined;
  try {
    content = extractMessageContent(source as never) as Content | undefined;
  } catch {
    content = undefined;
  }
  if (!isObj(content)) return { kind: "none", reason: "no message content" };
  const type = getContentType(content as never) as string | undefined;
  if (!type) return { kind: "none", reason: "no user-visible content" };
  const inner = content[type];

  if (type === "protocolMessage") {
    const p = ProtocolMessage.safeParse(inner);
    if (!p.success) return { kind: "none", reason: "unreadable protocolMessage" };
    const targetId = p.data.key?.id;
    if (p.data.type === ProtocolType.REVOKE) {
      return targetId ? { kind: "revoke", targetId } : { kind: "none", reason: "revoke without target key" };
    }
    if (p.data.type === ProtocolType.MESSAGE_EDIT) {
      if (!targetId) return { kind: "none", reason: "edit without target key" };
      const edited = mapContent(p.data.editedMessage);
      if (edited.kind !== "message") return { kind: "none", reason: "edit without text" };
      return { kind: "edit", targetId, body: cut(edited.body, MAX_BODY_CHARS) };
    }
    const name = p.data.type != null ? ProtocolType[p.data.type] : "unknown";
    return { kind: "none", reason: `protocol message ${name ?? p.data.type}` };
  }

  if (editedWrapper) {
    const edited = mapContent(content);
    if (edited.kind === "edit" || edited.kind === "none") return edited;
    if (edited.kind !== "message") return { kind: "none", reason: "edit without text" };
    return { kind: "edit", body: cut(edited.body, MAX_BODY_CHARS) };
  }

  if (type === "conversation") {
    if (typeof inner !== "string") return { kind: "none", reason: "unreadable conversation" };
    return message(type, { mediaType: "chat", body: inner, preview: inner }, undefined);
  }
  if (type === "extendedTextMessage") {
    const t = ExtendedTextMessage.safeParse(inner);
    if (!t.success) return { kind: "none", reason: "unreadable extendedTextMessage" };
    const body = t.data.text ?? "";
    return message(type, { mediaType: "chat", body, preview: body }, inner);
  }
  const media = MEDIA[type];
  if (media) {
    const m = MediaMessage.safeParse(inner);
    if (!m.success) return { kind: "none", reason: `unreadable ${type}` };
    const fileName = media.kind === "document" ? (m.data.fileName ?? m.data.title ?? null) : (m.data.fileName ?? null);
    const body = m.data.caption ?? (media.kind === "document" ? (fileName ?? "") : "");
    return message(
      type,
      {
        mediaType: media.mediaType,
        body,
        preview: body || fileName || media.preview,
        media: {
          kind: media.kind,
          mimetype: m.data.mimetype ?? media.defaultMime,
          fileName,
          size: m.data.fileLength != null ? Math.trunc(m.data.fileLength) : null,
        },
      },
      inner,
    );
  }
  if (type === "locationMessage" || type === "liveLocationMessage") {
    const l = LocationMessage.safeParse(inner);
    if (!l.success || l.data.degreesLatitude == null || l.data.degreesLongitude == null) {
      return { kind: "none", reason: `unreadable ${type}` };
    }
    const description = [l.data.name, l.data.address].filter(Boolean).join("\n") || l.data.caption || l.data.comment || "";
    const body = locationBody({
      lat: l.data.degreesLatitude,
      lng: l.data.degreesLongitude,
      thumbnailBase64: l.data.jpegThumbnail,
      description,
    });
    return message(type, { mediaType: "locationMessage", body, preview: `📍 ${description || mapsLink(l.data.degreesLatitude, l.data.degreesLongitude)}` }, inner);
  }
  if (type === "contactMessage") {
    const c = ContactMessage.safeParse(inner);
    if (!c.success || (!c.data.vcard && !c.data.displayName)) return { kind: "none", reason: "unreadable contactMessage" };
    return message(type, { mediaType: "contactMessage", body: c.data.vcard ?? c.data.displayName ?? "", preview: `👤 ${c.data.displayName ?? ""}`.trim() }, inner);
  }
  if (type === "contactsArrayMessage") {
    const c = ContactsArrayMessage.safeParse(inner);
    const vcards = c.success ? (c.data.contacts ?? []).map((x) => x.vcard).filter((v): v is string => !!v) : [];
    if (!vcards.length) return { kind: "none", reason: "unreadable contactsArrayMessage" };
    const names = (c.data?.contacts ?? []).map((x) => x.displayName).filter(Boolean);
    return message(type, { mediaType: "contactMessage", body: vcards.join("\n"), preview: `👤 ${c.data?.displayName ?? names.join(", ")}`.trim() }, inner);
  }
  if (type === "reactionMessage") {
    const r = Reaction.safeParse(inner);
    if (!r.success || !r.data.key?.id) return { kind: "none", reason: "reaction without target key" };
    return { kind: "reaction", target: r.data.key, emoji: cut(r.data.text ?? "", 32), atMs: r.data.senderTimestampMs };
  }
  if (POLLS.has(type)) {
    const p = PollCreationMessage.safeParse(inner);
    if (!p.success || !p.data.name) return { kind: "none", reason: `unreadable ${type}` };
    const options = (p.data.options ?? []).map((o) => o.optionName).filter(Boolean);
    const body = [`📊 ${p.data.name}`, ...options.map((o) => `• ${o}`)].join("\n");
    return message(type, { mediaType: "chat", body, preview: `📊 ${p.data.name}` }, inner);
  }
  if (RESPONSES.has(type)) {
    const r = ResponseMessage.safeParse(inner);
    const text = r.success ? (r.data.selectedDisplayText ?? r.data.title ?? r.data.body?.text ?? r.data.selectedButtonId ?? r.data.singleSelectReply?.selectedRowId) : undefined;
    if (!text) return { kind: "none", reason: `unreadable ${type}` };
    return message(type, { mediaType: "chat", body: text, preview: text }, inner);
  }
  return { kind: "none", reason: `unsupported content: ${type}` };
}
