/**
 * Quick messages (shortcut replies): an agent types "/" in the composer and picks one by its `shortcode`; its
 * `message` fills the composer and its media, if any, goes out with it. Three blocks:
 *
 * 1. the stored item (what DynamoDB holds),
 * 2. request schemas (bodies, queries, path params) — the edge parses every input with these,
 * 3. response and realtime shapes (what the API answers and what `company-{id}-quickmessage` carries).
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";
import { defineAttachmentKind } from "../media/kinds.ts";
import { attachedMedia } from "../media/schema.ts";

/** Quick messages per page of `GET /api/quick-messages`. */
export const QUICK_MESSAGES_PAGE_SIZE = 20;
/** Longest shortcode (what the agent types after "/"). */
export const SHORTCODE_MAX = 100;
/** Longest message text (as a WhatsApp text the composer sends). */
export const QUICK_MESSAGE_TEXT_MAX = 65536;

/**
 * A quick message's media (sent with it into a ticket): any type within the outbound limit of its type; spaces in the
 * stored file name become underscores.
 */
export const QUICK_MESSAGE_MEDIA = defineAttachmentKind({ folder: "quick-messages", fileName: (name) => name.replace(/\s/g, "_") });

// ---------------------------------------------------------------------------------------------
// 1. Stored item

/**
 * Quick message item `C#<cid>` / `QUICK#<id>` (`keys.quickMessage`; a small collection of the company partition). `userId` is its owner (the creator); `geral` makes it everyone's in the
 * company (only admins set it); `status` true is "Ativo" (offered in the composer), false "Inativo". The media
 * (`mediaPath` under `media/<cid>/quick-messages/<id>/`) is owned by the media port (`media/attachments.ts`).
 */
export const QuickMessageItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  userId: z.number().int(),
  shortcode: z.string(),
  message: z.string().default(""),
  geral: z.boolean().default(false),
  status: z.boolean().default(true),
  ...attachedMedia,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QuickMessageItem = z.infer<typeof QuickMessageItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

/** shortcode: required ("Obrigatório"), trimmed, at most {@link SHORTCODE_MAX} characters. */
const shortcode = z
  .string({ error: (iss) => (iss.input == null ? "Obrigatório" : "Invalid input") })
  .trim()
  .superRefine((v, ctx) => {
    if (!v) ctx.addIssue({ code: "custom", message: "Obrigatório" });
    else if (v.length > SHORTCODE_MAX) ctx.addIssue({ code: "custom", message: "Too Long!" });
  });

/** A flag as forms send it: a boolean, or "true"/"false". */
const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

/**
 * `POST /api/quick-messages`: shortcode (required), message (default ""), geral (default false; only admins may set
 * it true), status (default true = "Ativo"). The owner is the caller; a `userId` or `companyId` in the body is ignored.
 */
export const CreateQuickMessageBody = z.object({
  shortcode,
  message: z.string().max(QUICK_MESSAGE_TEXT_MAX).optional(),
  geral: flag.optional(),
  status: flag.optional(),
});
export type CreateQuickMessageBody = z.infer<typeof CreateQuickMessageBody>;

/** `PUT /api/quick-messages/{id}`: every field optional; absent = unchanged. Changing `geral` is for admins only. */
export const UpdateQuickMessageBody = z.object({
  shortcode: shortcode.optional(),
  message: z.string().max(QUICK_MESSAGE_TEXT_MAX).optional(),
  geral: flag.optional(),
  status: flag.optional(),
});
export type UpdateQuickMessageBody = z.infer<typeof UpdateQuickMessageBody>;

/**
 * `GET /api/quick-messages/list`: the spec's `companyId` and `userId` are accepted; the company is always the
 * caller's. `userId` narrows the answer to that user's own quick messages plus the `geral` ones (what the composer
 * offers that user); `status=true` keeps only the active ones; `searchParam` matches the shortcode or the message.
 */
export const ListQuickMessagesQuery = z.object({
  companyId: z.string().max(20).optional(),
  userId: zId.optional(),
  status: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
  searchParam: z.string().max(100).optional(),
});
export type ListQuickMessagesQuery = z.infer<typeof ListQuickMessagesQuery>;

/** `GET /api/quick-messages`: `searchParam` (shortcode or message contains, accent- and case-insensitive), `pageNumber`. */
export const PageQuickMessagesQuery = z.object({
  searchParam: z.string().max(100).optional(),
  pageNumber: zPageNumber,
});
export type PageQuickMessagesQuery = z.infer<typeof PageQuickMessagesQuery>;

export const QuickMessageIdParams = z.object({ id: zId });

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/**
 * A quick message as every route answers it: the stored fields plus `isMedia` (it has a file). `mediaPath` is the
 * object's key (not a URL): the composer sends the media by the quick message's id, never by key.
 */
export const QuickMessage = QuickMessageItem.extend({ isMedia: z.boolean() });
export type QuickMessage = z.infer<typeof QuickMessage>;

/** `GET /api/quick-messages/list`: every quick message the caller may see (filtered by the query), by shortcode. */
export const QuickMessageList = z.array(QuickMessage);

/** `GET /api/quick-messages`: one page by shortcode; `count` = the caller's visible quick messages matching the search. */
export const QuickMessagesPage = z.object({ records: z.array(QuickMessage), count: z.number().int(), hasMore: z.boolean() });
export type QuickMessagesPage = z.infer<typeof QuickMessagesPage>;

/** `DELETE /api/quick-messages/{id}`. */
export const QuickMessageDeleted = z.object({ message: z.string() });

/**
 * `company-{id}-quickmessage` frames: `{action: "create"|"update", record}` or `{action: "delete", id}`. A quick
 * message that is not `geral` goes only to its owner and to the profiles that may manage every quick message.
 */
export const QuickMessageEvent = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), record: QuickMessage }),
  z.object({ action: z.literal("update"), record: QuickMessage }),
  z.object({ action: z.literal("delete"), id: z.number().int() }),
]);
export type QuickMessageEvent = z.infer<typeof QuickMessageEvent>;
