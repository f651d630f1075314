/**
 * Production adapter of the runner's {@link MessageStorePort}: the messages repository (stored outbound messages and
 * WhatsApp-id aliases), the tickets repository (the audience of `appMessage` events), and S3 media.
 */
import { findByWaId, getMessage, updateMessage } from "@atende/shared/messages/repository";
import { dispatch } from "@atende/shared/events/index";
import "@atende/shared/messages/events";
import { getMedia } from "@atende/shared/storage/media";
import { getTicketItem } from "@atende/shared/tickets/repository";
import type { MessageStorePort } from "./ports.ts";

/** The store the runner uses outside tests. */
export const messageStore: MessageStorePort = {
  getMessage,
  updateMessage,
  getMedia,
  findWaMessage: findByWaId,
  async publishMessageUpdate(message) {
    const ticket = await getTicketItem(message.companyId, message.ticketId);
    if (ticket) await dispatch({ type: "message.updated", companyId: message.companyId, message, ticket });
  },
};
