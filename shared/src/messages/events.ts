/**
 * Messages' domain events (see `docs/architecture.md` §4): `message.created|updated` carry the stored message and its
 * ticket after the write. Realtime frame `company-{id}-appMessage` `{action, message: MessageView, ticket: TicketView,
 * contact}` to whoever may see the ticket.
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames, type Frame } from "../events/index.ts";
import "../tickets/events.ts"; // `message.created` may fold in a `ticket.created`; the ticket events are defined wherever messages are
import { TicketItem } from "../tickets/schema.ts";
import { toTicketView } from "../tickets/views.ts";
import { AppMessageFrame } from "./contract.ts";
import { MessageItem } from "./schema.ts";
import { toMessageView } from "./views.ts";

type Base<T extends string> = { type: T; companyId: number };

declare module "../events/registry.ts" {
  interface EventMap {
    /**
     * A message was stored (inbound from WhatsApp or sent by an agent); `ticket` is the ticket after the bump;
     * `ticketCreated`: this message opened the ticket (its `ticket.created` is folded in here: one frame set).
     */
    "message.created": Base<"message.created"> & { message: MessageItem; ticket: TicketItem; ticketCreated?: boolean };
    "message.updated": Base<"message.updated"> & { message: MessageItem; ticket: TicketItem };
  }
}

defineEvents({
  "message.created": baseEvent("message.created").extend({ message: MessageItem, ticket: TicketItem, ticketCreated: z.boolean().optional() }),
  "message.updated": baseEvent("message.updated").extend({ message: MessageItem, ticket: TicketItem }),
});

defineFrames({ appMessage: AppMessageFrame });

/**
 * `company-{id}-appMessage` `{action, message: MessageView, ticket: TicketView, contact}` to whoever may see the ticket.
 * One frame per message and socket: the ticket it carries is what a `ticket` update would say (new preview, unread
 * count, order), and clients apply it the same way, so no `ticket` frame follows it (half the posts to the sockets
 * per message).
 */
async function appMessageFrame(e: { companyId: number; message: MessageItem; ticket: TicketItem }, action: "create" | "update"): Promise<Frame[]> {
  const [view, ticketView] = await Promise.all([toMessageView(e.companyId, e.message), toTicketView(e.companyId, e.ticket)]);
  return [{ name: "appMessage", data: { action, message: view, ticket: ticketView, contact: ticketView.contact }, audience: { kind: "ticket", ticket: e.ticket } }];
}
realtimeFrames("message.created", (e) => appMessageFrame(e, "create"));
realtimeFrames("message.updated", (e) => appMessageFrame(e, "update"));
