/**
 * Tickets' domain events (see `docs/architecture.md` §4): `ticket.created|updated|deleted` carry the stored ticket
 * item. Realtime frame `company-{id}-ticket` `{action:"update", ticket: TicketView}` to whoever may see the ticket,
 * `{action:"delete", ticketId}` to those who no longer may (names and shapes as the spec gives them).
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames, type Frame } from "../events/index.ts";
import { TicketFrame } from "./contract.ts";
import { TicketItem } from "./schema.ts";
import { toTicketView } from "./views.ts";

type Base<T extends string> = { type: T; companyId: number };

declare module "../events/registry.ts" {
  interface EventMap {
    /** A ticket was opened (by ingest or by an agent). */
    "ticket.created": Base<"ticket.created"> & { ticket: TicketItem };
    /**
     * A ticket changed; `previous` is given for agent transitions (accept, transfer, close...), absent for bumps.
     * `created`: `previous` was itself created in this request (a forward to a new contact) and told nowhere else.
     */
    "ticket.updated": Base<"ticket.updated"> & { ticket: TicketItem; previous?: TicketItem; created?: boolean };
    "ticket.deleted": Base<"ticket.deleted"> & { ticket: TicketItem };
  }
}

defineEvents({
  "ticket.created": baseEvent("ticket.created").extend({ ticket: TicketItem }),
  "ticket.updated": baseEvent("ticket.updated").extend({ ticket: TicketItem, previous: TicketItem.optional(), created: z.boolean().optional() }),
  "ticket.deleted": baseEvent("ticket.deleted").extend({ ticket: TicketItem }),
});

defineFrames({ ticket: TicketFrame });

/** `company-{id}-ticket` `{action:"update", ticket: TicketView}` to whoever may see the ticket. */
async function ticketUpdateFrame(companyId: number, ticket: TicketItem): Promise<Frame> {
  return { name: "ticket", data: { action: "update", ticket: await toTicketView(companyId, ticket) }, audience: { kind: "ticket", ticket } };
}

realtimeFrames("ticket.created", async (e) => [await ticketUpdateFrame(e.companyId, e.ticket)]);
realtimeFrames("ticket.updated", async (e) => {
  const frames: Frame[] = [];
  const p = e.previous;
  if (p && (p.queueId !== e.ticket.queueId || (p.userId !== e.ticket.userId && p.userId != null))) {
    // Users who could see it only through the old queue/assignee drop it from their lists.
    frames.push({ name: "ticket", data: { action: "delete", ticketId: e.ticket.id }, audience: { kind: "ticket", ticket: p } });
  } else if (p && p.status !== e.ticket.status && e.ticket.status === "closed") {
    // Closing hides it from users who see closed tickets of others only with viewclosed.
    frames.push({ name: "ticket", data: { action: "delete", ticketId: e.ticket.id }, audience: { kind: "ticketLost", before: p, after: e.ticket } });
  }
  frames.push(await ticketUpdateFrame(e.companyId, e.ticket));
  return frames;
});
realtimeFrames("ticket.deleted", (e) => [{ name: "ticket", data: { action: "delete", ticketId: e.ticket.id }, audience: { kind: "ticket", ticket: e.ticket } }]);
