/**
 * Quick messages operations. Every route is open to any logged-in user; the service decides who may do what:
 * - admin and supervisor see, edit and delete every quick message of the company;
 * - a user sees the `geral` ones and their own, and edits and deletes only their own that are not `geral`;
 * - only admins set or clear `geral` (403 `ERR_NO_PERMISSION`, nothing written).
 * Another company's quick message is 404 `ERR_NO_QUICK_MESSAGE_FOUND`; one the caller may not see is 404 as well.
 *
 * Media: `POST /api/quick-messages/{id}/media-upload` is `multipart/form-data` with one file in `file` (or `medias`;
 * the spec's `typeArch` field is accepted and ignored), as the queues' media upload; the server chooses the key under
 * the company and the quick message, and the stored `mediaName` has its spaces replaced by underscores. It replaces
 * any earlier file (the old object is deleted). `DELETE .../media-upload` removes it.
 *
 * Sending one into a ticket: `POST /api/messages/{ticketId}` with `{body, quickMessageId}` (JSON). The server
 * checks the caller may use that quick message (same company, `geral` or visible to them) and sends its media, if
 * any, as a message of its own (a server-side copy per message, so editing or deleting the quick message never
 * breaks a ticket's history) with `body` as its caption; without media `body` goes out as text. `body` is what the
 * composer holds (the quick message's text as the agent may have edited it).
 */
import { defineRoutes } from "../contract.ts";
import {
  CreateQuickMessageBody,
  ListQuickMessagesQuery,
  PageQuickMessagesQuery,
  QuickMessage,
  QuickMessageDeleted,
  QuickMessageIdParams,
  QuickMessageList,
  QuickMessagesPage,
  UpdateQuickMessageBody,
} from "./schema.ts";

export const quickMessagesRoutes = defineRoutes("quickMessages", {
  "GET /api/quick-messages/list": { auth: "user", query: ListQuickMessagesQuery, response: QuickMessageList },
  "GET /api/quick-messages": { auth: "user", query: PageQuickMessagesQuery, response: QuickMessagesPage },
  "GET /api/quick-messages/{id}": { auth: "user", params: QuickMessageIdParams, response: QuickMessage },
  "POST /api/quick-messages": { auth: "user", body: CreateQuickMessageBody, response: QuickMessage },
  "PUT /api/quick-messages/{id}": { auth: "user", params: QuickMessageIdParams, body: UpdateQuickMessageBody, response: QuickMessage },
  "DELETE /api/quick-messages/{id}": { auth: "user", params: QuickMessageIdParams, response: QuickMessageDeleted },
  /** Multipart: one file in `file` (or `medias`); `typeArch` ignored. Answers the quick message with its new media. */
  "POST /api/quick-messages/{id}/media-upload": { auth: "user", params: QuickMessageIdParams, multipart: true, response: QuickMessage },
  "DELETE /api/quick-messages/{id}/media-upload": { auth: "user", params: QuickMessageIdParams, response: QuickMessage },
});
