/**
 * What the ticket timers do when they fire (docs/product/timers.md: auto-close and transfer, as in the old system but
 * without its every-minute scans of every company). Scheduled by `./ticket-listener.ts`; each handler re-reads the
 * ticket and the connection, so a timer that no longer applies ends quietly, and acts with the ticket's version-checked
 * transition, so running twice changes nothing twice. Imported by the minute tick (`functions/src/jobs/tick.ts`).
 *
 * - `expiresTicket`: an open ticket whose last message is the agent's (`fromMe`, automatic messages included) and
 *   whose `updatedAt` (every message and transition moves it) is `expiresTicket` minutes old is closed and the
 *   connection's `expiresInactiveMessage` sent. Lazy check: when there was activity since, or the customer spoke
 *   last, the timer moves to `updatedAt + expiresTicket` (or `now + expiresTicket`), no write per message. A ticket
 *   awaiting a rating is left to the rating wait (looked at again `expiresTicket` minutes later).
 * - `timeToTransfer`: a ticket still pending without a queue `timeToTransfer` minutes after it got there moves to the
 *   connection's `transferQueueId` (`ticket.updated`; with `sendMsgTransfTicket` the customer gets the transfer notice).
 */
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import "../tickets/events.ts";
import { log } from "../log.ts";
import { listMessages } from "../messages/repository.ts";
import { laterIso } from "../contacts/service.ts";
import { getQueue } from "../queues/repository.ts";
import { getSetting } from "../settings/service.ts";
import { getTicketItem, writeTicketTransition } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { notify, transferNotice } from "../automation/notices.ts";
import { registerTimerKind, type TimerResult } from "./index.ts";
import { EXPIRES_TICKET, TIME_TO_TRANSFER } from "./ticket-listener.ts";

const MINUTE = 60_000;
/** A transition that lost a race with an agent is looked at again a minute later. */
const RETRY_MS = MINUTE;

async function transition(prev: TicketItem, patch: Partial<TicketItem>): Promise<TicketItem | null> {
  try {
    return await writeTicketTransition(prev, { ...patch, updatedAt: laterIso(prev.updatedAt) });
  } catch (err) {
    if (err instanceof AppError && (err.code === "ERR_CONFLICT" || err.code === "ERR_OTHER_OPEN_TICKET")) return null;
    throw err;
  }
}

/** Fires `expiresTicket` for ticket `ticketId` at `now`. */
export async function fireExpiresTicket(companyId: number, ticketId: number, now: Date): Promise<TimerResult> {
  const t = await getTicketItem(companyId, ticketId, true);
  if (t?.status !== "open" || t.isGroup) return undefined;
  const wa = await getWhatsappItem(companyId, t.whatsappId);
  const span = (wa?.expiresTicket ?? 0) * MINUTE;
  if (!wa || span <= 0) return undefined;
  // Awaiting a rating: the rating wait ends it; if an agent takes it back instead, the idle clock goes on.
  if (t.ratingAt) return { rescheduleAt: now.getTime() + span };
  const idleUntil = Date.parse(t.updatedAt) + span;
  const last = (await listMessages(companyId, ticketId, { limit: 1 })).messages[0];
  if (!last?.fromMe) return { rescheduleAt: idleUntil > now.getTime() ? idleUntil : now.getTime() + span };
  if (idleUntil > now.getTime()) return { rescheduleAt: idleUntil };
  const next = await transition(t, { status: "closed" });
  if (!next) return { rescheduleAt: now.getTime() + RETRY_MS };
  await dispatch({ type: "ticket.updated", companyId, ticket: next, previous: t });
  await notify(companyId, next, wa.expiresInactiveMessage);
  log("info", "ticket closed for inactivity", { companyId, ticketId, minutes: wa.expiresTicket });
  return undefined;
}

/** Fires `timeToTransfer` for ticket `ticketId` at `now` (`since`: when it entered pending without a queue). */
export async function fireTimeToTransfer(companyId: number, ticketId: number, since: string | undefined, now: Date): Promise<TimerResult> {
  const t = await getTicketItem(companyId, ticketId, true);
  if (t?.status !== "pending" || t.queueId != null) return undefined;
  const wa = await getWhatsappItem(companyId, t.whatsappId);
  if (!wa || wa.timeToTransfer <= 0 || wa.transferQueueId == null) return undefined;
  const due = Date.parse(since ?? t.updatedAt) + wa.timeToTransfer * MINUTE;
  if (due > now.getTime()) return { rescheduleAt: due, data: since ? { since } : {} };
  const queue = await getQueue(companyId, wa.transferQueueId);
  if (!queue) {
    log("warn", "timeToTransfer: the connection's transferQueueId names no queue", { companyId, whatsappId: wa.id, transferQueueId: wa.transferQueueId });
    return undefined;
  }
  const next = await transition(t, { queueId: queue.id });
  if (!next) return { rescheduleAt: now.getTime() + RETRY_MS, data: since ? { since } : {} };
  await dispatch({ type: "ticket.updated", companyId, ticket: next, previous: t });
  if (!next.isGroup && (await getSetting(companyId, "sendMsgTransfTicket")) === "enabled") {
    await notify(companyId, next, transferNotice(queue.name, null));
  }
  return undefined;
}

registerTimerKind(EXPIRES_TICKET, (timer, now) => fireExpiresTicket(timer.companyId, Number(timer.ref), now));
registerTimerKind(TIME_TO_TRANSFER, (timer, now) =>
  fireTimeToTransfer(timer.companyId, Number(timer.ref), typeof timer.data.since === "string" ? timer.data.since : undefined, now),
);
