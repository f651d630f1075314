/**
 * Internal chat area. Thin: call the chats service; who may do what is decided there. Contract:
 * `shared/src/chats/contract.ts` (docs/product/chats.md).
 */
import { createChat, deleteChat, listChatMessages, listChats, postChatMessage, readChat, updateChat } from "@atende/shared/chats/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("chats", {
  "GET /api/chats": async (ctx) => listChats(ctx.auth, ctx.query),
  "POST /api/chats": async (ctx) => createChat(ctx.auth, ctx.body),
  "PUT /api/chats/{id}": async (ctx) => updateChat(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/chats/{id}": answering("Chat deleted", (ctx) => deleteChat(ctx.auth, ctx.params.id)),
  "GET /api/chats/{id}/messages": async (ctx) => listChatMessages(ctx.auth, ctx.params.id, ctx.query.pageNumber),
  "POST /api/chats/{id}/messages": async (ctx) => postChatMessage(ctx.auth, ctx.params.id, ctx.body.message),
  "POST /api/chats/{id}/read": async (ctx) => readChat(ctx.auth, ctx.params.id),
});
