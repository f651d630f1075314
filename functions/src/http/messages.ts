/**
 * Messages area (the conversation view, forward included; docs/product/messages.md).
 * Thin: call one messages service. `POST /api/messages/{ticketId}` takes JSON `{body, quotedMsg?, signMessage?}` or
 * multipart `medias` (+ `body` captions), or JSON `{body, medias: [{key, fileName}]}` (presigned uploads), or JSON
 * `{body, quickMessageId}` (a quick message, its media copied into the ticket), parsed by the pipeline's multipart middleware (the contract says
 * `multipart`). Contract: `shared/src/messages/contract.ts`.
 */
import {
  deleteMessage,
  editMessage,
  forwardMessage,
  listEarlierMessages,
  listTicketMessages,
  reactToMessage,
  sendMediaMessages,
  sendTicketMessage,
  sendUploadedMedia,
} from "@atende/shared/messages/service";
import { sendQuickMessage } from "@atende/shared/quickMessages/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("messages", {
  "GET /api/messages/{ticketId}": async (ctx) => listTicketMessages(ctx.auth, ctx.params.ticketId, ctx.query),
  "GET /api/messages/{ticketId}/earlier": async (ctx) => listEarlierMessages(ctx.auth, ctx.params.ticketId, ctx.query),
  "POST /api/messages/{ticketId}": async (ctx) => {
    if (ctx.upload) return sendMediaMessages(ctx.auth, ctx.params.ticketId, ctx.upload.files, ctx.upload.captions);
    if (ctx.body.medias) return sendUploadedMedia(ctx.auth, ctx.params.ticketId, ctx.body.medias, ctx.body.body);
    if (ctx.body.quickMessageId) return sendQuickMessage(ctx.auth, ctx.params.ticketId, ctx.body.quickMessageId, ctx.body.body);
    return sendTicketMessage(ctx.auth, ctx.params.ticketId, {
      body: ctx.body.body,
      quotedMsgId: ctx.body.quotedMsg?.id ?? null,
      signMessage: ctx.body.signMessage,
    });
  },
  "POST /api/messages/edit/{id}": async (ctx) => editMessage(ctx.auth, ctx.params.id, ctx.body.body),
  "DELETE /api/messages/{id}": async (ctx) => deleteMessage(ctx.auth, ctx.params.id),
  "POST /api/messages/{id}/reactions": async (ctx) => reactToMessage(ctx.auth, ctx.params.id, ctx.body.type),
  "POST /api/message/forward": async (ctx) => forwardMessage(ctx.auth, ctx.body),
});
