/**
 * The minute tick (DESIGN.md §1 "EventBridge schedule (every minute)"; issue 2 §2): the scheduled handler
 * EventBridge invokes in the cloud and `infra/local` invokes in-process every 60 s.
 *
 * It sweeps user presence: a user whose `online` flag is true but who has no live socket registration
 * (all expired, e.g. the socket died without `$disconnect`) is set offline. And it re-drives the domain events'
 * outbox (`shared/src/events/outbox.ts`): counter items a dead process left behind are applied, each exactly once,
 * read through their due-time index (no scan). And it fires the timers due by the event's time (`shared/src/timers`:
 * `expiresTicket`, `timeToTransfer`, `ratingWait`, `searchBackfill`, and any kind a feature registers), one Query per due-index shard; a
 * timer whose time passed while nothing ran fires on the first tick after, once. Returns the counts.
 */
import { log } from "@atende/shared/log";
import { sweepOutbound } from "@atende/shared/messages/delivery";
import { listCompanyIds, listOnlineUserIds } from "@atende/shared/realtime/connections";
import { companySockets } from "@atende/shared/realtime/publish";
import { setUserOnline } from "@atende/shared/users/service";
import { redriveOutbox } from "@atende/shared/events/index";
import { runDueTimers } from "@atende/shared/timers/index";
// The timer kinds this tick fires (each file registers its handlers when loaded).
import "@atende/shared/timers/ticket-kinds";
import "@atende/shared/automation/rating";
import "@atende/shared/search/backfill-job";

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
}> {
  let outboxApplied = 0;
  const parsed = event.time ? Date.parse(event.time) : NaN;
  const at = Number.isFinite(parsed) ? parsed : Date.now();
  try {
    outboxApplied = await redriveOutbox(at);
  } catch (err) {
    log("error", "tick: outbox re-drive failed", { err });
  }
  // Due timers (issue 9 §5): auto-close, transfer to a queue, the rating wait.
  let timers: Awaited<ReturnType<typeof runDueTimers>> | undefined;
  try {
    timers = await runDueTimers(new Date(at));
  } catch (err) {
    log("error", "tick: timers failed", { err });
  }
  // Outbound messages left at ack 0 beyond their deadline (issue 8 §2): re-driven once, then failed.
  let outbound: Awaited<ReturnType<typeof sweepOutbound>> | undefined;
  try {
    outbound = await sweepOutbound();
  } catch (err) {
    log("error", "tick: outbound sweep failed", { err });
  }
  let usersSetOffline = 0;
  for (const companyId of await listCompanyIds()) {
    const online = await listOnlineUserIds(companyId);
    if (!online.length) continue;
    const connected = new Set((await companySockets(companyId)).map((m) => m.userId));
    for (const userId of online) {
      if (connected.has(userId)) continue;
      await setUserOnline(companyId, userId, false);
      usersSetOffline++;
    }
  }
  if (usersSetOffline) log("info", "tick: users set offline", { usersSetOffline, time: event.time });
  if (outboxApplied) log("info", "tick: outbox items applied", { outboxApplied, time: event.time });
  return { usersSetOffline, outboxApplied, ...(outbound ? { outbound } : {}), ...(timers ? { timers } : {}) };
}
