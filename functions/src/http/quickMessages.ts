/**
 * Quick messages area. Thin: call the quick messages service; who may do what is decided there. Contract:
 * `shared/src/quickMessages/contract.ts`. Sending one into a ticket is `POST /api/messages/{ticketId}` with
 * `quickMessageId` (`./messages.ts`).
 */
import {
  createQuickMessage,
  deleteQuickMessage,
  deleteQuickMessageMedia,
  listQuickMessagesFor,
  pageQuickMessages,
  showQuickMessage,
  updateQuickMessage,
  uploadQuickMessageMedia,
} from "@atende/shared/quickMessages/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("quickMessages", {
  "GET /api/quick-messages/list": async (ctx) => listQuickMessagesFor(ctx.auth, ctx.query),
  "GET /api/quick-messages": async (ctx) => pageQuickMessages(ctx.auth, ctx.query),
  "GET /api/quick-messages/{id}": async (ctx) => showQuickMessage(ctx.auth, ctx.params.id),
  "POST /api/quick-messages": async (ctx) => createQuickMessage(ctx.auth, ctx.body),
  "PUT /api/quick-messages/{id}": async (ctx) => updateQuickMessage(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/quick-messages/{id}": answering("Quick message deleted", (ctx) => deleteQuickMessage(ctx.auth, ctx.params.id)),
  "POST /api/quick-messages/{id}/media-upload": async (ctx) => uploadQuickMessageMedia(ctx.auth, ctx.params.id, ctx.upload),
  "DELETE /api/quick-messages/{id}/media-upload": async (ctx) => deleteQuickMessageMedia(ctx.auth, ctx.params.id),
});
