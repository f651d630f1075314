/**
 * Internal chat operations (docs/product/chats.md), behind the plan flag `useInternalChat` (403
 * `ERR_PLAN_FEATURE_DISABLED` for a company whose plan has it off). Any user of the company; the service decides:
 * only members read or write a chat (404 `ERR_NO_CHAT_FOUND` otherwise, another company's chat included), only the
 * owner edits or deletes it (403 `ERR_NO_PERMISSION`), members are users of the caller's company only.
 */
import { defineRoutes } from "../contract.ts";
import {
  Chat,
  ChatDeleted,
  ChatIdParams,
  ChatMessage,
  ChatMessagesPage,
  ChatMessagesQuery,
  ChatsPage,
  CreateChatBody,
  ListChatsQuery,
  PostChatMessageBody,
  ReadChatBody,
  UpdateChatBody,
} from "./schema.ts";

const plan = "useInternalChat" as const;

export const chatsRoutes = defineRoutes("chats", {
  "GET /api/chats": { auth: "user", plan, query: ListChatsQuery, response: ChatsPage },
  "POST /api/chats": { auth: "user", plan, body: CreateChatBody, response: Chat },
  "PUT /api/chats/{id}": { auth: "user", plan, params: ChatIdParams, body: UpdateChatBody, response: Chat },
  "DELETE /api/chats/{id}": { auth: "user", plan, params: ChatIdParams, response: ChatDeleted },
  "GET /api/chats/{id}/messages": { auth: "user", plan, params: ChatIdParams, query: ChatMessagesQuery, response: ChatMessagesPage },
  "POST /api/chats/{id}/messages": { auth: "user", plan, params: ChatIdParams, body: PostChatMessageBody, response: ChatMessage },
  "POST /api/chats/{id}/read": { auth: "user", plan, params: ChatIdParams, body: ReadChatBody, response: Chat },
});
