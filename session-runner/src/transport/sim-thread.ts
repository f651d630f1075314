/**
 * The sandbox phone's thread: what the simulated network carried for one chat of a connection, both
 * ways, as the customer's phone shows it. Built from the real `WAMessage`s the network saw (the customer's messages,
 * reactions, edits and deletes from `/sim`, and what the runner sent), so a reloaded sandbox page gets the whole
 * conversation back, including messages sent through `/sim` by anyone.
 *
 * `GET /sim/whatsapp/{id}/thread?number=<digits>` answers `threadOf(carried, number)`; a reply carries its quote.
 */
import { jidNormalizedUser, type WAMessage } from "@whiskeysockets/baileys";

/** One message the network carried, with the time (ISO, ms) it passed. */
export interface CarriedMessage {
  msg: WAMessage;
  at: string;
}

export type ThreadKind = "text" | "image" | "audio" | "video" | "document" | "location" | "vcard" | "sticker";

/** One bubble of the customer's phone. `mine`: sent by the customer (not by the business). */
export interface ThreadMessage {
  id: string;
  mine: boolean;
  kind: ThreadKind;
  text: string;
  /** ISO time the network carried it. */
  at: string;
  edited: boolean;
  deleted: boolean;
  /** Reactions on it, one per side (customer, business), empty ones removed. */
  reactions: { mine: boolean; emoji: string }[];
  /** The message it replies to (WhatsApp's quote), as it stands now when this thread has it, else as quoted. */
  quoted?: { id: string; mine: boolean; kind: ThreadKind; text: string; deleted: boolean };
}

/** Most messages kept per connection (oldest dropped first). */
export const MAX_CARRIED = 2000;

const numberOf = (jid: string | null | undefined) => (jid ? jidNormalizedUser(jid).split("@")[0].split(":")[0] : "");

/** Protocol message types (Baileys `proto.Message.ProtocolMessage.Type`). */
const REVOKE = 0;
const MESSAGE_EDIT = 14;

type Content = NonNullable<WAMessage["message"]>;

function textOf(m: Content | null | undefined): string {
  if (!m) return "";
  return m.conversation ?? m.extendedTextMessage?.text ?? "";
}

/** The reply context of a message's content (Baileys puts it inside the typed message), or undefined. */
function contextOf(m: Content) {
  const inner = m.extendedTextMessage ?? m.imageMessage ?? m.videoMessage ?? m.audioMessage ?? m.documentMessage ?? m.stickerMessage ?? m.locationMessage ?? m.contactMessage;
  return inner?.contextInfo ?? undefined;
}

/** The quote of a reply: the quoted bubble of this thread (its current text), else the content the reply carried. */
function quoteOf(m: Content, byId: ReadonlyMap<string, ThreadMessage>, number: string): ThreadMessage["quoted"] {
  const ctx = contextOf(m);
  const id = ctx?.stanzaId;
  if (!id) return undefined;
  const known = byId.get(id);
  if (known) return { id, mine: known.mine, kind: known.kind, text: known.text, deleted: known.deleted };
  const carried = ctx.quotedMessage ? bubbleOf(ctx.quotedMessage) : null;
  return { id, mine: numberOf(ctx.participant) === number, kind: carried?.kind ?? "text", text: carried?.text ?? "", deleted: false };
}

function bubbleOf(m: Content): { kind: ThreadKind; text: string } | null {
  if (m.conversation != null || m.extendedTextMessage) return { kind: "text", text: textOf(m) };
  const doc = m.documentMessage ?? m.documentWithCaptionMessage?.message?.documentMessage;
  if (m.imageMessage) return { kind: "image", text: m.imageMessage.caption ?? "" };
  if (m.videoMessage) return { kind: "video", text: m.videoMessage.caption ?? "" };
  if (m.audioMessage) return { kind: "audio", text: "" };
  if (doc) return { kind: "document", text: doc.caption || doc.fileName || "" };
  if (m.stickerMessage) return { kind: "sticker", text: "" };
  if (m.locationMessage) return { kind: "location", text: m.locationMessage.name || m.locationMessage.address || "" };
  if (m.contactMessage) return { kind: "vcard", text: m.contactMessage.displayName ?? "" };
  return null;
}

/**
 * The thread of the chat with `number` (digits) from what the network carried (oldest first): bubbles in carrying
 * order with edits, deletes (REVOKE) and reactions applied to their targets. Messages of other chats are ignored.
 */
export function threadOf(carried: readonly CarriedMessage[], number: string): ThreadMessage[] {
  const list: ThreadMessage[] = [];
  const byId = new Map<string, ThreadMessage>();
  for (const { msg, at } of carried) {
    if (numberOf(msg.key.remoteJid) !== number || !msg.message) continue;
    const mine = !msg.key.fromMe;
    const m = msg.message;
    const proto = m.protocolMessage;
    if (proto) {
      const target = proto.key?.id ? byId.get(proto.key.id) : undefined;
      if (!target) continue;
      if (proto.type === REVOKE) target.deleted = true;
      else if (proto.type === MESSAGE_EDIT) Object.assign(target, { text: textOf(proto.editedMessage) || target.text, edited: true });
      continue;
    }
    const reaction = m.reactionMessage;
    if (reaction) {
      const target = reaction.key?.id ? byId.get(reaction.key.id) : undefined;
      if (!target) continue;
      target.reactions = target.reactions.filter((r) => r.mine !== mine);
      if (reaction.text) target.reactions.push({ mine, emoji: reaction.text });
      continue;
    }
    const bubble = bubbleOf(m);
    const id = msg.key.id;
    if (!bubble || !id || byId.has(id)) continue;
    const quoted = quoteOf(m, byId, number);
    const item: ThreadMessage = { id, mine, ...bubble, at, edited: false, deleted: false, reactions: [], ...(quoted ? { quoted } : {}) };
    byId.set(id, item);
    list.push(item);
  }
  return list;
}
