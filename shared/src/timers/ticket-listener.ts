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
import type { DomainEvent, Listener } from "../events/registry.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { getTicketItem } from "../tickets/repository.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { followConnectionTimers, timerFieldsChanged } from "./connection-listener.ts";
import { scheduleTimer } from "./index.ts";
import { EXPIRES_TICKET, TIME_TO_TRANSFER } from "./kinds.ts";
import type {} from "../tickets/events.ts"; // the tickets events handled here (types only)
import type {} from "../messages/events.ts"; // the messages events handled here (types only)
import type {} from "../whatsapp/events.ts"; // the whatsapp events handled here (types only)

export { EXPIRES_TICKET, TIME_TO_TRANSFER };

const MINUTE = 60_000;

/** Which timers ticket `t` may need after it changed from `prev` (null: just created); pure. */
function timersEntered(prev: TicketItem | null, t: TicketItem): { open: boolean; pendingNoQueue: boolean } {
  const waitingNoQueue = (x: TicketItem | null) => !!x && x.status === "pending" && x.queueId == null;
  return { open: t.status === "open" && prev?.status !== "open" && !t.isGroup, pendingNoQueue: waitingNoQueue(t) && !waitingNoQueue(prev) };
}

/** Schedules what applies to ticket `t` after it changed from `prev` (null: just created). Throws when a write failed. */
export async function scheduleTicketTimers(companyId: number, prev: TicketItem | null, t: TicketItem): Promise<void> {
  const entered = timersEntered(prev, t);
  if (!entered.open && !entered.pendingNoQueue) return;
  const wa = await getWhatsappItem(companyId, t.whatsappId);
  if (!wa) return;
  const since = Date.parse(t.updatedAt);
  if (entered.open && wa.expiresTicket > 0) {
    await scheduleTimer(companyId, EXPIRES_TICKET, t.id, since + wa.expiresTicket * MINUTE);
  }
  if (entered.pendingNoQueue && wa.timeToTransfer > 0 && wa.transferQueueId != null) {
    await scheduleTimer(companyId, TIME_TO_TRANSFER, t.id, since + wa.timeToTransfer * MINUTE, { since: t.updatedAt });
  }
}

/** The ticket change an event carries, when it may start a timer: `[prev, ticket]` (prev null: a new ticket). */
function ticketChange(event: DomainEvent): [TicketItem | null, TicketItem] | null {
  if (event.type === "ticket.created") return [null, event.ticket];
  if (event.type === "message.created" && event.ticketCreated) return [null, event.ticket];
  if (event.type === "ticket.updated" && event.previous) return [event.previous, event.ticket];
  return null;
}

/**
 * Durable (`events/durable.ts`): a schedule whose write failed, or that a dead process never made, is made by the
 * minute tick's re-drive; scheduling again puts the same timer (idempotent). Re-driven, a ticket's change applies only
 * while the ticket is still at that version, and a connection edit uses the connection as it is now.
 */
export const ticketTimersListener: Listener = {
  name: "ticketTimers",
  durable: true,
  wants(event) {
    const change = ticketChange(event);
    if (change) {
      const entered = timersEntered(change[0], change[1]);
      return entered.open || entered.pendingNoQueue;
    }
    if (event.type === "whatsapp.updated" && event.previous) {
      const changed = timerFieldsChanged(event.previous, event.whatsapp);
      return changed.expires || changed.transfer || changed.rating;
    }
    return false;
  },
  async handle(event, run) {
    const change = ticketChange(event);
    if (change) {
      // Re-driven after newer changes of the ticket: those scheduled its timers already.
      if (run?.redriven && (await getTicketItem(event.companyId, change[1].id, true))?.version !== change[1].version) return;
      await scheduleTicketTimers(event.companyId, change[0], change[1]);
    } else if (event.type === "whatsapp.updated" && event.previous) {
      const next = run?.redriven ? await getWhatsappItem(event.companyId, event.whatsapp.id) : event.whatsapp;
      if (next) await followConnectionTimers(event.previous, next);
    }
  },
};
