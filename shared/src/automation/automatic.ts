/**
 * Automatic messages (docs/product/messages.md#automatic-messages): bot menus, greetings, out-of-hours texts, transfer notices, rating prompts,
 * closing texts. One way out for all of them: the idempotent outbound path (`sendOutbound`), stored in the ticket's
 * history with `isAutomatic: true` (shown as such, never signed by an agent). The phone's echo of the sent message
 * carries the same WhatsApp id, so the ingest's alias item drops it: never stored twice.
 */
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { newOutboundId, sendOutbound, type OutboundInput } from "../messages/service.ts";
import { copyIntoMessage, type StoredMedia } from "../media/attachments.ts";
import type { MessageView } from "../messages/schema.ts";
import type { TicketItem } from "../tickets/schema.ts";

/** The system as sender: no user, no signature. */
const SYSTEM = { userId: null, name: "" } as const;

/**
 * Sends `body` (variables rendered in `timeZone`) and optional stored media to the ticket's contact as an automatic
 * message. Returns the stored message, or null when the send failed in a way already visible in the history
 * (the message is kept with ack -1: connection down, enqueue failure). Other errors (e.g. the contact was deleted)
 * propagate.
 */
export async function sendAutomatic(
  companyId: number,
  ticket: TicketItem,
  body: string,
  opts: { media?: OutboundInput["media"]; messageId?: string; timeZone?: string } = {},
): Promise<MessageView | null> {
  try {
    return await sendOutbound(companyId, SYSTEM, ticket, { body, media: opts.media, messageId: opts.messageId, timeZone: opts.timeZone, automatic: true, signMessage: false });
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_SENDING_WAPP_MSG") {
      log("warn", "automatic message not sent (kept as failed)", { companyId, ticketId: ticket.id });
      return null;
    }
    throw err;
  }
}

export type { StoredMedia };

/**
 * Sends a stored file (`media`, e.g. a queue option's) with caption `body` as an automatic message. The message gets its
 * own copy of the object (`media/<cid>/<ticketId>/<messageId>.<ext>`, the media port's `copyIntoMessage`), so the ticket's history keeps
 * the file after the admin replaces or removes the option's media; it goes out with its real size and MIME type.
 * A source object that no longer exists sends the text alone. Returns as {@link sendAutomatic}.
 */
export async function sendAutomaticMedia(companyId: number, ticket: TicketItem, body: string, media: StoredMedia, opts: { timeZone?: string } = {}): Promise<MessageView | null> {
  const messageId = await newOutboundId();
  const copy = await copyIntoMessage(companyId, ticket.id, messageId, media);
  if (!copy) {
    log("warn", "automatic media missing in storage: text sent alone", { companyId, ticketId: ticket.id, key: media.key });
    return body.trim() ? sendAutomatic(companyId, ticket, body, opts) : null;
  }
  return sendAutomatic(companyId, ticket, body, { ...opts, messageId, media: copy });
}
