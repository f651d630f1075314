/**
 * Schedules the ticket timers (docs/product/timers.md) from the domain events, so every path that opens or moves a ticket (ingest,
 * agents, the chatbot, the timers themselves) is covered in one place. A listener (wired in `events/wiring.ts`),
 * awaited by `dispatch`. It only schedules: whether a timer still applies is checked when it fires
 * (`./ticket-kinds.ts`), so activity on a ticket costs no timer write.
 *
 * - `expiresTicket` / ticket id: when a ticket enters `open` (created open, accepted, reopened, transferred to an agent)
 *   on a connection with `expiresTicket` > 0, due `updatedAt + expiresTicket` minutes.
 * - `timeToTransfer` / ticket id: when a ticket enters `pending` without a queue (a customer's new ticket, a return)
 *   on a connection with `timeToTransfer` > 0 and a `transferQueueId`, due that many minutes later; data `{since}`.
 * Entering the state again replaces the timer (one item per kind and ticket).
 *
 * An admin's edit of a connection's timer fields (`whatsapp.updated` with `previous`) re-schedules or removes the
 * timers of the tickets already open or pending on it (`./connection-listener.ts`).
 */
import type { Listener } from "../events/registry.ts";
import { log } from "../log.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { followConnectionTimers } from "./connection-listener.ts";
import { scheduleTimer } from "./index.ts";
import { EXPIRES_TICKET, TIME_TO_TRANSFER } from "./kinds.ts";
import type {} from "../tickets/events.ts"; // the tickets events handled here (types only)
import type {} from "../messages/events.ts"; // the messages events handled here (types only)
import type {} from "../whatsapp/events.ts"; // the whatsapp events handled here (types only)

export { EXPIRES_TICKET, TIME_TO_TRANSFER };

const MINUTE = 60_000;

/** Schedules what applies to ticket `t` after it changed from `prev` (null: just created). */
export async function scheduleTicketTimers(companyId: number, prev: TicketItem | null, t: TicketItem): Promise<void> {
  const enteredOpen = t.status === "open" && prev?.status !== "open" && !t.isGroup;
  const waitingNoQueue = (x: TicketItem | null) => !!x && x.status === "pending" && x.queueId == null;
  const enteredPendingNoQueue = waitingNoQueue(t) && !waitingNoQueue(prev);
  if (!enteredOpen && !enteredPendingNoQueue) return;
  const wa = await getWhatsappItem(companyId, t.whatsappId);
  if (!wa) return;
  const since = Date.parse(t.updatedAt);
  if (enteredOpen && wa.expiresTicket > 0) {
    await scheduleTimer(companyId, EXPIRES_TICKET, t.id, since + wa.expiresTicket * MINUTE);
  }
  if (enteredPendingNoQueue && wa.timeToTransfer > 0 && wa.transferQueueId != null) {
    await scheduleTimer(companyId, TIME_TO_TRANSFER, t.id, since + wa.timeToTransfer * MINUTE, { since: t.updatedAt });
  }
}

export const ticketTimersListener: Listener = {
  name: "ticketTimers",
  async handle(event) {
    try {
      if (event.type === "ticket.created") await scheduleTicketTimers(event.companyId, null, event.ticket);
      else if (event.type === "message.created" && event.ticketCreated) await scheduleTicketTimers(event.companyId, null, event.ticket);
      else if (event.type === "ticket.updated" && event.previous) await scheduleTicketTimers(event.companyId, event.previous, event.ticket);
      else if (event.type === "whatsapp.updated" && event.previous) await followConnectionTimers(event.previous, event.whatsapp);
    } catch (err) {
      log("warn", "ticket timer not scheduled", { companyId: event.companyId, type: event.type, err });
    }
  },
};
