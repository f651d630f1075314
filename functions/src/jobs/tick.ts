/**
 * The minute tick (DESIGN.md §1 "EventBridge schedule (every minute)"; issue 2 §2): the scheduled handler
 * EventBridge invokes in the cloud and `infra/local` invokes in-process every 60 s.
 *
 * It sweeps user presence: a user whose `online` flag is true but who has no live socket registration
 * (all expired, e.g. the socket died without `$disconnect`) is set offline. And it re-drives the domain events'
 * outbox (`shared/src/events/outbox.ts`): counter items a dead process left behind are applied, each exactly once,
 * read through their due-time index (no scan). Returns how many users it changed and how many outbox items it applied.
 */
import { log } from "@atende/shared/log";
import { sweepOutbound } from "@atende/shared/messages/delivery";
import { listCompanyIds, listOnlineUserIds } from "@atende/shared/realtime/connections";
import { companySockets } from "@atende/shared/realtime/publish";
import { setUserOnline } from "@atende/shared/users/service";
import { redriveOutbox } from "@atende/shared/events/index";

/** The EventBridge scheduled event (only `time` is read, for logs). */
export interface ScheduledEvent {
  "detail-type"?: string;
  source?: string;
  time?: string;
}

export async function handler(
  event: ScheduledEvent = {},
): Promise<{ usersSetOffline: number; outboxApplied: number; outbound?: Awaited<ReturnType<typeof sweepOutbound>> }> {
  let outboxApplied = 0;
  try {
    const at = event.time ? Date.parse(event.time) : NaN;
    outboxApplied = await redriveOutbox(Number.isFinite(at) ? at : Date.now());
  } catch (err) {
    log("error", "tick: outbox re-drive failed", { err });
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
  return { usersSetOffline, outboxApplied, ...(outbound ? { outbound } : {}) };
}
