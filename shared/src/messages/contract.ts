/**
 * Messages and media operations (the conversation view; docs/product/messages.md).
 * `POST /api/messages/{ticketId}` takes JSON `{body, quotedMsg?, signMessage?}` (one message back) or multipart
 * `medias` (+ `body` captions; one message per file back), or JSON `{body, medias: [{key, fileName}]}` for files the
 * browser uploaded through the presigned PUT of `POST /api/media/uploads` (docs/product/messages.md#media).
 */
import { z } from "zod";
import { zId, zPageNumber, zQueryBool } from "../common.ts";
import { defineRoutes } from "../contract.ts";
import { TicketView } from "../tickets/contract.ts";
import { MediaUpload, MediaUploadBody, MessageItem, SendMessageBody } from "./schema.ts";

/** A message as the API and realtime events show it: plus `mediaUrl` (short-lived, or null) and `quotedMsg` (or null). */
export const MessageView = MessageItem.extend({
  mediaUrl: z.string().nullable(),
  quotedMsg: MessageItem.shape.quotedMsg.unwrap().unwrap().nullable(),
});

const TicketParams = z.object({ ticketId: zId });
const MessageIdParams = z.object({ id: z.string().min(1).max(128) });

export const messagesRoutes = defineRoutes("messages", {
  "GET /api/messages/{ticketId}": {
    auth: "user",
    params: TicketParams,
    /** `peek`: an admin's look at a waiting ticket; nothing is marked read (no unread reset, no read receipts). */
    query: z.object({ pageNumber: zPageNumber, cursor: z.string().max(4000).optional(), peek: zQueryBool.optional() }),
    response: z.object({ messages: z.array(MessageView), ticket: TicketView, count: z.number().int(), hasMore: z.boolean(), nextCursor: z.string().optional() }),
  },
  /** The contact's earlier tickets' messages, before this ticket (one ticket per page; `ticketId` on each message). */
  "GET /api/messages/{ticketId}/earlier": {
    auth: "user",
    params: TicketParams,
    query: z.object({ cursor: z.string().max(4000).optional() }),
    response: z.object({ messages: z.array(MessageView), hasMore: z.boolean(), nextCursor: z.string().optional() }),
  },
  "POST /api/messages/{ticketId}": { auth: "user", params: TicketParams, body: SendMessageBody, multipart: true, response: z.union([MessageView, z.array(MessageView)]) },
  "POST /api/messages/edit/{id}": { auth: "user", params: MessageIdParams, body: z.object({ body: z.string().max(65536) }).passthrough(), response: MessageView },
  "DELETE /api/messages/{id}": { auth: "user", params: MessageIdParams, response: MessageView },
  "POST /api/messages/{id}/reactions": { auth: "user", params: MessageIdParams, body: z.object({ type: z.string().max(32) }), response: MessageView },
  "POST /api/message/forward": {
    auth: "user",
    body: z.object({ messageId: z.string().min(1).max(128), contactId: zId, signMessage: z.boolean().optional() }),
    response: MessageView,
  },
});

export const mediaRoutes = defineRoutes("media", {
  "GET /api/media/{messageId}": {
    auth: "user",
    params: z.object({ messageId: z.string().min(1).max(128) }),
    response: z.object({ url: z.string(), expiresInSeconds: z.number().int() }),
  },
  /** A presigned PUT for one outbound file; then `POST /api/messages/{ticketId}` `{medias: [{key, fileName}]}`. */
  "POST /api/media/uploads": { auth: "user", body: MediaUploadBody, response: MediaUpload },
});

/** `company-{id}-appMessage` frames: the message and its ticket as the API shows them, and the ticket's contact. */
export const AppMessageFrame = z.object({
  action: z.enum(["create", "update"]),
  message: MessageView,
  ticket: TicketView,
  contact: TicketView.shape.contact,
});
export type AppMessageFrame = z.infer<typeof AppMessageFrame>;
