/**
 * The minute tick (an EventBridge schedule, every minute): the scheduled handler
 * EventBridge invokes in the cloud and `infra/local` invokes in-process every 60 s.
 *
 * User presence comes from due-time items, never a list of companies: each user's `presence` timer
 * (`shared/src/realtime/presence.ts`, due when their newest socket registration expires, or at once when a socket
 * vanished without `$disconnect`) sets offline a user flagged online with no live socket left. It re-drives the domain
 * events' outbox (`shared/src/events/outbox.ts`): counter items a dead process left behind are applied, each exactly once,
 * read through their due-time index (no scan), and the durable listeners' runs a failed write or a dead process left
 * (`shared/src/events/durable.ts`: timers, ticket summaries). And it fires the timers due by the event's time (`shared/src/timers`:
 * `expiresTicket`, `timeToTransfer`, `ratingWait`, `searchBackfill`, and any kind a feature registers), one Query per due-index shard; a
 * timer whose time passed while nothing ran fires on the first tick after, once. Returns the counts.
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { log } from "@atende/shared/log";
import { sweepOutbound } from "@atende/shared/messages/delivery";
import { redriveDurable } from "@atende/shared/events/durable";
import { redriveOutbox } from "@atende/shared/events/outbox";
import { runDueTimers } from "@atende/shared/timers/index";
// The timer kinds this tick fires (each file registers its handlers when loaded).
import "@atende/shared/timers/ticket-kinds";
import "@atende/shared/tickets/remains";
import "@atende/shared/automation/rating";
import "@atende/shared/integrations/runtime";
import { presenceCounts } from "@atende/shared/realtime/presence-kind";
import "@atende/shared/search/backfill-job";
import "@atende/shared/reports/backfill";
import "@atende/shared/campaigns/engine";
import "@atende/shared/invoices/due";
import "@atende/shared/invoices/timer-backfill";
import "@atende/shared/webhooks/delivery";
import { sweepDueSchedules } from "@atende/shared/schedules/send";

/** The EventBridge scheduled event (only `time` is read, for logs). */
export interface ScheduledEvent {
  "detail-type"?: string;
  source?: string;
  time?: string;
}

export async function handler(
  event: ScheduledEvent = {},
): Promise<{
  usersSetOffline: number;
  outboxApplied: number;
  outbound?: Awaited<ReturnType<typeof sweepOutbound>>;
  timers?: Awaited<ReturnType<typeof runDueTimers>>;
  schedules?: Awaited<ReturnType<typeof sweepDueSchedules>>;
}> {
  let outboxApplied = 0;
  const parsed = event.time ? Date.parse(event.time) : NaN;
  const at = Number.isFinite(parsed) ? parsed : Date.now();
  try {
    outboxApplied = await redriveOutbox(at);
  } catch (err) {
    log("error", "tick: outbox re-drive failed", { err });
  }
  // Durable listeners' runs that failed or that a dead process left (timers, ticket summaries): run again.
  let listenerRuns = 0;
  try {
    listenerRuns = await redriveDurable(at);
  } catch (err) {
    log("error", "tick: durable listeners re-drive failed", { err });
  }
  if (listenerRuns) log("info", "tick: durable listener runs applied", { listenerRuns, time: event.time });
  // Due timers (docs/product/timers.md): auto-close, transfer to a queue, the rating wait, presence checks.
  let timers: Awaited<ReturnType<typeof runDueTimers>> | undefined;
  const offlineBefore = presenceCounts.setOffline;
  try {
    timers = await runDueTimers(new Date(at));
  } catch (err) {
    log("error", "tick: timers failed", { err });
  }
  // Outbound messages left at ack 0 beyond their deadline (docs/product/messages.md#delivery): re-driven once, then failed.
  let outbound: Awaited<ReturnType<typeof sweepOutbound>> | undefined;
  try {
    outbound = await sweepOutbound();
  } catch (err) {
    log("error", "tick: outbound sweep failed", { err });
  }
  // Scheduled messages due by now (docs/product/schedules.md#sending): claimed and put on the dispatch queue.
  let schedules: Awaited<ReturnType<typeof sweepDueSchedules>> | undefined;
  try {
    schedules = await sweepDueSchedules(new Date(at));
  } catch (err) {
    log("error", "tick: scheduled messages sweep failed", { err });
  }
  // Presence checks fired with the timers above (`presence` kind).
  const usersSetOffline = presenceCounts.setOffline - offlineBefore;
  if (usersSetOffline) log("info", "tick: users set offline", { usersSetOffline, time: event.time });
  if (outboxApplied) log("info", "tick: outbox items applied", { outboxApplied, time: event.time });
  return { usersSetOffline, outboxApplied, ...(outbound ? { outbound } : {}), ...(timers ? { timers } : {}), ...(schedules ? { schedules } : {}) };
}
