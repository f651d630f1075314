/**
 * Lenient zod schemas for the parts of Baileys 7 events the ingest service reads (Baileys 6.7 payloads too).
 * Nothing in a Baileys payload is trusted to be present or well-typed:
 * - a field of the wrong type becomes `undefined` (`opt`), it never fails the whole message;
 * - only what the pipeline cannot work without (a key with an id and a chat JID) is required, and its absence is a
 *   skip with a reason, decided by the caller;
 * - numbers and protobuf Longs arrive as numbers, numeric strings (protobuf-JSON) or `{low, high, unsigned}` objects
 *   (`Long` instances at runtime): {@link LongLike} turns all of them into a JS number;
 * - binary fields arrive as base64 strings, `Uint8Array`s or BufferJSON `{type: "Buffer", data}`: {@link Bytes} gives
 *   base64;
 * - enums arrive as numbers (decoded protobuf) or names (JSON): {@link protoEnum} accepts both, using Baileys' own
 *   `proto` enum tables.
 * Objects are `loose` (unknown keys kept) so Evolution/WAHA additions never break parsing.
 */
import { proto } from "@whiskeysockets/baileys/WAProto/index.js";
import { z } from "zod";

/** `schema`, or `undefined` when the value is absent or does not match (never an error). */
export const opt = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** A non-empty string, else `undefined` (Baileys 7 sends `participant: ""`). */
export const Str = z
  .unknown()
  .transform((v) => (typeof v === "string" && v.length > 0 ? v : undefined))
  .optional();

/** Booleans, also as "true"/"false" strings; anything else is `undefined`. */
export const Bool = z
  .unknown()
  .transform((v) => (typeof v === "boolean" ? v : v === "true" ? true : v === "false" ? false : undefined))
  .optional();

/** Combines a protobuf Long's two 32-bit halves into a JS number (exact below 2^53). */
function fromBits(low: number, high: number, unsigned: boolean): number {
  const hi = unsigned ? high >>> 0 : high | 0;
  return hi * 4294967296 + (low >>> 0);
}

/**
 * A number given as number, bigint, numeric string or Long-like `{low, high, unsigned}` → number.
 * Anything else fails (wrap in {@link opt}).
 */
export const LongLike = z.union([
  z.number().refine(Number.isFinite),
  z.bigint().transform(Number),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
  z
    .object({ low: z.number(), high: z.number(), unsigned: z.boolean().optional() })
    .loose()
    .transform((l) => fromBits(l.low, l.high, !!l.unsigned)),
]);

/** Binary as base64: base64 string, Uint8Array/Buffer, or BufferJSON `{type: "Buffer", data: base64 | number[]}`. */
export const Bytes = z.union([
  z.string(),
  z.instanceof(Uint8Array).transform((b) => Buffer.from(b).toString("base64")),
  z
    .object({ type: z.literal("Buffer"), data: z.union([z.string(), z.array(z.number())]) })
    .transform((b) => (typeof b.data === "string" ? b.data : Buffer.from(b.data).toString("base64"))),
]);

/**
 * An enum given as its number or its name, checked against a Baileys `proto` enum table (`{NAME: n}`) → number.
 * Unknown names/numbers fail (wrap in {@link opt}).
 */
export function protoEnum(table: Record<string, number | string>) {
  const numbers = new Set(Object.values(table).filter((v): v is number => typeof v === "number"));
  return z.union([z.number(), z.string(), z.object({ low: z.number(), high: z.number() }).loose()]).transform((v, ctx) => {
    const n =
      typeof v === "number" ? v : typeof v === "string" ? (/^\d+$/.test(v) ? Number(v) : (table[v] as number | undefined)) : v.low;
    if (typeof n !== "number" || !numbers.has(n)) {
      ctx.addIssue({ code: "custom", message: "unknown enum value" });
      return z.NEVER;
    }
    return n;
  });
}

export const ProtocolType = proto.Message.ProtocolMessage.Type;
export const MessageStatus = proto.WebMessageInfo.Status;
export const StubType = proto.WebMessageInfo.StubType;

/** `WAMessageKey` (proto.IMessageKey + Baileys 7 `remoteJidAlt`/`participantAlt`/`addressingMode`, 6.7.x `senderPn`/`senderLid`). */
export const WAMessageKey = z
  .object({
    remoteJid: Str,
    remoteJidAlt: Str,
    fromMe: Bool,
    id: Str,
    participant: Str,
    participantAlt: Str,
    addressingMode: Str,
    senderPn: Str,
    senderLid: Str,
    participantPn: Str,
    participantLid: Str,
    isViewOnce: Bool,
  })
  .loose();
export type WAMessageKey = z.infer<typeof WAMessageKey>;

/** Any object (message content, sub-message). Strings such as "[Object]" (elided by util.inspect) become `undefined`. */
export const Obj = opt(z.record(z.string(), z.unknown()));

/** `proto.IContextInfo`: quote, forward and mention data. */
export const ContextInfo = z
  .object({
    stanzaId: Str,
    participant: Str,
    remoteJid: Str,
    quotedMessage: Obj,
    isForwarded: Bool,
    forwardingScore: opt(LongLike),
    expiration: opt(LongLike),
  })
  .loose();
export type ContextInfo = z.infer<typeof ContextInfo>;

/** Fields shared by every media message (image, video, audio, document, sticker, ptv). */
export const MediaMessage = z
  .object({
    mimetype: Str,
    caption: Str,
    fileName: Str,
    title: Str,
    fileLength: opt(LongLike),
    seconds: opt(LongLike),
    ptt: Bool,
    gifPlayback: Bool,
    isAnimated: Bool,
    url: Str,
    directPath: Str,
    jpegThumbnail: opt(Bytes),
    contextInfo: opt(ContextInfo),
  })
  .loose();

export const ExtendedTextMessage = z
  .object({ text: Str, matchedText: Str, canonicalUrl: Str, title: Str, description: Str, contextInfo: opt(ContextInfo) })
  .loose();

/** `locationMessage` and `liveLocationMessage` (the latter with `caption`). */
export const LocationMessage = z
  .object({
    degreesLatitude: opt(LongLike),
    degreesLongitude: opt(LongLike),
    name: Str,
    address: Str,
    url: Str,
    comment: Str,
    caption: Str,
    jpegThumbnail: opt(Bytes),
    contextInfo: opt(ContextInfo),
  })
  .loose();

export const ContactMessage = z.object({ displayName: Str, vcard: Str, contextInfo: opt(ContextInfo) }).loose();
export const ContactsArrayMessage = z
  .object({ displayName: Str, contacts: opt(z.array(ContactMessage)), contextInfo: opt(ContextInfo) })
  .loose();

/** `reactionMessage` / `proto.IReaction`: `key` is the reacted-to message; empty `text` removes the reaction. */
export const Reaction = z
  .object({ key: opt(WAMessageKey), text: opt(z.string()), senderTimestampMs: opt(LongLike) })
  .loose();

export const ProtocolMessage = z
  .object({
    key: opt(WAMessageKey),
    type: opt(protoEnum(ProtocolType as unknown as Record<string, number>)),
    editedMessage: Obj,
    timestampMs: opt(LongLike),
  })
  .loose();

export const PollCreationMessage = z
  .object({ name: Str, options: opt(z.array(z.object({ optionName: Str }).loose())), contextInfo: opt(ContextInfo) })
  .loose();

/** Replies to buttons, lists, templates and native-flow messages: the text the customer picked. */
export const ResponseMessage = z
  .object({
    selectedDisplayText: Str,
    selectedButtonId: Str,
    title: Str,
    description: Str,
    singleSelectReply: opt(z.object({ selectedRowId: Str }).loose()),
    body: opt(z.object({ text: Str }).loose()),
    contextInfo: opt(ContextInfo),
  })
  .loose();

/** `proto.IWebMessageInfo` as Baileys emits it (`messages.upsert` → `messages[]`). */
export const WAMessage = z
  .object({
    key: WAMessageKey,
    message: Obj.nullable(),
    messageTimestamp: opt(LongLike),
    pushName: Str,
    participant: Str,
    status: opt(protoEnum(MessageStatus as unknown as Record<string, number>)),
    messageStubType: opt(protoEnum(StubType as unknown as Record<string, number>)),
    broadcast: Bool,
  })
  .loose();
export type WAMessage = z.infer<typeof WAMessage>;

export const MessagesUpsert = z.object({
  messages: z.array(z.unknown()),
  /** `notify` (live) or `append` (history, own sends); older Baileys also had `prepend`/`last` (history). */
  type: opt(z.string()),
});

/** One element of `messages.update`: `update` is a partial WAMessage. */
export const WAMessageUpdate = z
  .object({
    key: WAMessageKey,
    update: z
      .object({
        status: opt(protoEnum(MessageStatus as unknown as Record<string, number>)),
        message: Obj.nullable(),
        messageStubType: opt(protoEnum(StubType as unknown as Record<string, number>)),
        key: opt(WAMessageKey),
        messageTimestamp: opt(LongLike),
      })
      .loose(),
  })
  .loose();

/** One element of `messages.reaction`: `key` is the reacted-to message, `reaction.key` the reaction's own key. */
export const ReactionEvent = z.object({ key: WAMessageKey, reaction: Reaction }).loose();

/** One element of `message-receipt.update`. Timestamps are seconds. */
export const ReceiptUpdate = z
  .object({
    key: WAMessageKey,
    receipt: z
      .object({ userJid: Str, receiptTimestamp: opt(LongLike), readTimestamp: opt(LongLike), playedTimestamp: opt(LongLike) })
      .loose(),
  })
  .loose();

export const PresenceUpdate = z.object({
  id: z.string(),
  presences: z.record(z.string(), z.object({ lastKnownPresence: opt(z.string()) }).loose().catch({})),
});

/** `WACallEvent`; `date` is a Date at runtime, an ISO string once serialized. */
export const CallEvent = z
  .object({
    chatId: Str,
    from: Str,
    callerPn: Str,
    id: Str,
    date: opt(z.union([z.date(), z.string(), z.number()])),
    status: Str,
    offline: Bool,
    isVideo: Bool,
    isGroup: Bool,
    groupJid: Str,
  })
  .loose();

/** `Contact` of `contacts.upsert` / `contacts.update` (`imgUrl`: URL, "changed" or null). */
export const ContactUpdate = z
  .object({ id: Str, lid: Str, phoneNumber: Str, name: Str, notify: Str, verifiedName: Str, imgUrl: opt(z.string().nullable()) })
  .loose();

/** `Partial<GroupMetadata>` of `groups.update`. */
export const GroupUpdate = z.object({ id: Str, subject: Str }).loose();

/** `ChatUpdate` of `chats.update`. */
export const ChatUpdate = z.object({ id: Str, unreadCount: opt(LongLike), archived: Bool, pinned: opt(z.unknown()) }).loose();

/** `LIDMapping` of `lid-mapping.update`. */
export const LidMapping = z.object({ lid: Str, pn: Str }).loose();
