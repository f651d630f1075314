/**
 * Timers follow the connection's settings (docs/product/timers.md): when an admin changes a connection's `expiresTicket`,
 * `timeToTransfer` / `transferQueueId` or `ratingWaitMinutes` (`whatsapp.updated` with `previous`), the tickets that
 * are already open or pending on THAT connection get their timers scheduled again at the new time, or removed when the
 * field was turned off. Called by the `ticketTimers` listener (`./ticket-listener.ts`); the tickets come from
 * `./repository.ts` (index keys, paged with `queryPages`, never a scan). Each handler still re-checks its ticket when it
 * fires (`./ticket-kinds.ts`, `automation/rating.ts`), so a ticket that changed meanwhile is handled right.
 *
 * - `expiresTicket` → every open, non-group ticket: due `updatedAt + expiresTicket` (0: timer removed);
 * - `timeToTransfer` / `transferQueueId` → every pending ticket without a queue: due `since + timeToTransfer`, `since`
 *   kept from its current timer (else the ticket's `updatedAt`) (0 or no queue: removed);
 * - `ratingWaitMinutes` → every open ticket awaiting a rating: its rating wait moved to `ratingAt + ratingWaitMinutes`,
 *   keeping the timer's data (the `reprompted` flag); scheduled when it had none.
 */
import type { TicketItem } from "../tickets/schema.ts";
import type { WhatsappItem } from "../whatsapp/schema.ts";
import { cancelTimer, getTimer, moveTimer, scheduleTimer } from "./index.ts";
import { connectionTicketPages } from "./repository.ts";
import { EXPIRES_TICKET, RATING_WAIT, TIME_TO_TRANSFER } from "./kinds.ts";

const MINUTE = 60_000;

/** What a connection edit changed, as far as timers care. */
export function timerFieldsChanged(prev: WhatsappItem, next: WhatsappItem): { expires: boolean; transfer: boolean; rating: boolean } {
  return {
    expires: prev.expiresTicket !== next.expiresTicket,
    transfer: prev.timeToTransfer !== next.timeToTransfer || prev.transferQueueId !== next.transferQueueId,
    rating: prev.ratingWaitMinutes !== next.ratingWaitMinutes,
  };
}

async function followExpires(wa: WhatsappItem, t: TicketItem): Promise<void> {
  if (t.isGroup) return;
  if (wa.expiresTicket > 0) await scheduleTimer(wa.companyId, EXPIRES_TICKET, t.id, Date.parse(t.updatedAt) + wa.expiresTicket * MINUTE);
  else await cancelTimer(wa.companyId, EXPIRES_TICKET, t.id);
}

async function followRating(wa: WhatsappItem, t: TicketItem): Promise<void> {
  if (!t.ratingAt) return;
  const due = Date.parse(t.ratingAt) + wa.ratingWaitMinutes * MINUTE;
  if (!(await moveTimer(wa.companyId, RATING_WAIT, t.id, due))) await scheduleTimer(wa.companyId, RATING_WAIT, t.id, due, { ratingAt: t.ratingAt });
}

async function followTransfer(wa: WhatsappItem, t: TicketItem): Promise<void> {
  if (wa.timeToTransfer <= 0 || wa.transferQueueId == null) {
    await cancelTimer(wa.companyId, TIME_TO_TRANSFER, t.id);
    return;
  }
  const current = await getTimer(wa.companyId, TIME_TO_TRANSFER, t.id);
  const since = typeof current?.data.since === "string" ? current.data.since : t.updatedAt;
  await scheduleTimer(wa.companyId, TIME_TO_TRANSFER, t.id, Date.parse(since) + wa.timeToTransfer * MINUTE, { since });
}

/**
 * Re-schedules (or removes) the timers of connection `next`'s open and pending tickets after an edit from `prev`.
 * Returns how many tickets were looked at per set. Does nothing when no timer field changed.
 */
export async function followConnectionTimers(prev: WhatsappItem, next: WhatsappItem): Promise<{ open: number; pendingNoQueue: number }> {
  const changed = timerFieldsChanged(prev, next);
  const seen = { open: 0, pendingNoQueue: 0 };
  if (changed.expires || changed.rating) {
    for await (const page of connectionTicketPages(next.companyId, next.id, "open")) {
      for (const t of page) {
        seen.open++;
        if (changed.expires) await followExpires(next, t);
        if (changed.rating) await followRating(next, t);
      }
    }
  }
  if (changed.transfer) {
    for await (const page of connectionTicketPages(next.companyId, next.id, "pendingNoQueue")) {
      for (const t of page) {
        seen.pendingNoQueue++;
        await followTransfer(next, t);
      }
    }
  }
  return seen;
}
