/**
 * Message entity (docs/product/messages.md). `id` is the WhatsApp message id
 * (outbound: generated with Baileys' `generateMessageIDV2` before sending).
 */
import { z } from "zod";
import { defineAttachmentKind } from "../media/kinds.ts";
import { zId } from "../common.ts";

export const MediaType = z.enum([
  "chat", "image", "audio", "video", "application", "sticker", "locationMessage", "contactMessage", "vcard", "reactionMessage", "call_log",
]);
export type MediaType = z.infer<typeof MediaType>;

/**
 * The ticket's `lastMessage` after its newest message was deleted for everyone: what WhatsApp shows in its chat list
 * (pt; the web shows its translated text for this exact value).
 */
export const DELETED_MESSAGE_PREVIEW = "Esta mensagem foi apagada";
/** Longest ticket-list preview (the ticket's `lastMessage`) and quoted snippet, in characters. */
export const MAX_PREVIEW_CHARS = 1_000;
/** A message's text as the ticket list's preview: its first {@link MAX_PREVIEW_CHARS} characters (customers' and agents' alike). */
export const previewOf = (text: string): string => (text.length > MAX_PREVIEW_CHARS ? text.slice(0, MAX_PREVIEW_CHARS) : text);

export const MessageItem = z.object({
  id: z.string(),
  ticketId: z.number().int(),
  companyId: z.number().int(),
  contactId: z.number().int().nullable().default(null),
  whatsappId: z.number().int(),
  /** WhatsApp chat JID the message belongs to (runner/ingest). */
  remoteJid: z.string(),
  /** Group messages: the sender's JID and name. */
  participant: z.string().nullable().default(null),
  senderName: z.string().nullable().default(null),
  body: z.string().default(""),
  fromMe: z.boolean(),
  read: z.boolean().default(false),
  mediaType: MediaType.default("chat"),
  /** S3 object key (never a public URL); the API adds a short-lived presigned `mediaUrl`. */
  mediaKey: z.string().nullable().default(null),
  mediaName: z.string().nullable().default(null),
  mediaMime: z.string().nullable().default(null),
  mediaSize: z.number().int().nullable().default(null),
  /** true when the media download failed; the message is kept. */
  mediaError: z.boolean().default(false),
  /** 0 pending, 1-2 sent, 3 delivered, 4-5 read; -1 failed to send. */
  ack: z.number().int().min(-1).max(5).default(0),
  isDeleted: z.boolean().default(false),
  isEdited: z.boolean().default(false),
  /** Body before the last edit. */
  previousBody: z.string().nullable().default(null),
  isForwarded: z.boolean().default(false),
  quotedMsgId: z.string().nullable().default(null),
  /** Small copy of the quoted message taken when this one was stored (the list renders quotes without extra reads). */
  quotedMsg: z
    .object({ id: z.string(), body: z.string(), fromMe: z.boolean(), mediaType: z.string(), senderName: z.string().nullable().optional() })
    .nullable()
    .default(null),
  /** Reactions attached to this message: one per sender. */
  reactions: z.array(z.object({ emoji: z.string(), fromMe: z.boolean(), senderJid: z.string().nullable(), at: z.string() })).default([]),
  /** WhatsApp timestamp of the message (ISO); the sort key. */
  waTimestamp: z.string(),
  /** User who sent it from the web (outbound). */
  userId: z.number().int().nullable().default(null),
  /** Sent by the system (bot menu, greeting, notice, rating prompt): shown as automatic, never signed by an agent. */
  isAutomatic: z.boolean().default(false),
  /** Written by the AI assistant of a prompt (docs/product/prompts.md): shown with the assistant's mark. */
  isAssistant: z.boolean().optional(),
  sendError: z.string().nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MessageItem = z.infer<typeof MessageItem>;

/**
 * What the API and realtime events return for a message: the item plus `mediaUrl` (short-lived presigned GET URL,
 * null when the message has no media) and `quotedMsg` (null when none).
 */
export type MessageView = MessageItem & { mediaUrl: string | null; quotedMsg: NonNullable<MessageItem["quotedMsg"]> | null };

/** `POST /api/messages/{ticketId}` JSON body. `signMessage` defaults to true (the web's sign toggle). */
export const SendMessageBody = z.object({
  body: z.string().max(65536).default(""),
  quotedMsg: z.object({ id: z.string().min(1) }).passthrough().nullable().optional(),
  signMessage: z.boolean().default(true),
  fromMe: z.unknown().optional(),
  read: z.unknown().optional(),
  mediaUrl: z.unknown().optional(),
  /** Files the browser already uploaded through `POST /api/media/uploads`: one message per file, `body` its caption. */
  medias: z
    .array(z.object({ key: z.string().min(1).max(300), fileName: z.string().trim().min(1).max(255) }))
    .min(1)
    .max(10)
    .optional(),
  /**
   * A quick message the composer sends (its media, if any, as a server-side copy with `body` as the caption; else
   * `body` as text). The caller must be allowed to see the quick message (`shared/src/quickMessages/service.ts`).
   */
  quickMessageId: zId.optional(),
});
export type SendMessageBody = z.infer<typeof SendMessageBody>;

/**
 * A ticket's outbound uploads (`POST /api/media/uploads`): files a browser puts straight into S3 under
 * `media/<cid>/uploads/<ticketId>/` before sending them; any type, each within its type's outbound limit.
 */
export const TICKET_UPLOADS = defineAttachmentKind({ folder: "uploads" });

/** `POST /api/media/uploads`: the file a browser is about to upload for a ticket. */
export const MediaUploadBody = z.object({
  ticketId: z.number().int().positive(),
  fileName: z.string().trim().min(1).max(255),
  contentType: z
    .string()
    .max(200)
    .regex(/^[a-z0-9][a-z0-9.+-]*\/[a-z0-9][a-z0-9.+-]*(\s*;\s*[a-z0-9-]+=[^;\s]+)*$/i, "a MIME type"),
  size: z.number().int().min(1),
});
export type MediaUploadBody = z.infer<typeof MediaUploadBody>;

/** Where and how to upload: a presigned PUT of `key` that accepts exactly the announced type and size. */
export const MediaUpload = z.object({
  key: z.string(),
  url: z.string(),
  method: z.literal("PUT"),
  headers: z.record(z.string(), z.string()),
  expiresInSeconds: z.number().int(),
});
export type MediaUpload = z.infer<typeof MediaUpload>;
