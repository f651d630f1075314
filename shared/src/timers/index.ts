/**
 * Timers from due-time index items, never from scans (docs/product/timers.md).
 *
 * A timer is ONE item per (company, kind, ref) — `keys.timer` — with a `dueAt` and a small `data` object, indexed in
 * GSI1 under `TIMER#<shard>` / `<dueAt>#<cid>#<kind>#<ref>` (`keys.timerDueIndex`). Scheduling again replaces it (one
 * Put), cancelling deletes it. The minute tick calls {@link runDueTimers}: one Query per shard for the items due up to
 * `now` — never a scan of companies or tickets — so a timer whose time passed while the system was down is found by
 * the first tick that runs again.
 *
 * Firing exactly once:
 * 1. claim: a conditional Update moves the item's `dueAt` to `now + CLAIM_MS` on the condition that `dueAt` is still
 *    the value the Query saw. Two ticks running at once (or a replacement written meanwhile): only one claim wins.
 * 2. the kind's handler runs. Handlers are conditional on the state they act on (they re-read the ticket and write
 *    with its version check), so running one again after a crash changes nothing twice.
 * 3. settle: the handler either finishes (Delete, condition `dueAt` = the claim) or asks to run again later (Update to
 *    the new `dueAt`, same condition). A timer re-scheduled by someone else while the handler ran keeps the newer value.
 * A process that dies between claim and settle leaves the item due at the claim's end: the tick retries it then. A
 * handler that keeps throwing is given up after {@link MAX_ATTEMPTS} (logged).
 */
import { dueShardsToRead } from "../db/keys.ts";
import { log } from "../log.ts";
import { CLAIM_MS, deleteIfDue, dueTimerPages, iso, MAX_ATTEMPTS, moveDue, type Timer, type TimerResult } from "./repository.ts";

export {
  CLAIM_MS,
  cancelTimer,
  getTimer,
  MAX_ATTEMPTS,
  moveTimer,
  scheduleTimer,
  setTimerFlagOnce,
  type Timer,
  type TimerResult,
} from "./repository.ts";

export type TimerHandler = (timer: Timer, now: Date) => Promise<TimerResult | undefined>;

const handlers = new Map<string, TimerHandler>();

/** Registers the handler of a timer kind (once, at module load, by the feature that owns the kind). */
export function registerTimerKind(kind: string, handler: TimerHandler): void {
  if (kind.includes("#")) throw new Error(`timer kind ${kind}: no '#'`);
  handlers.set(kind, handler);
}

/** Claims and fires one due timer; returns what happened. */
async function fireOne(t: Timer, now: Date): Promise<"fired" | "rescheduled" | "lost" | "failed" | "unknown"> {
  const handler = handlers.get(t.kind);
  if (!handler) return "unknown";
  const claim = iso(now.getTime() + CLAIM_MS);
  if (!(await moveDue(t, t.dueAt, claim, { attempt: true }))) return "lost";
  let result: TimerResult | undefined;
  try {
    result = await handler({ ...t, attempts: t.attempts + 1 }, now);
  } catch (err) {
    if (t.attempts + 1 >= MAX_ATTEMPTS) {
      log("error", "timer given up", { companyId: t.companyId, kind: t.kind, ref: t.ref, err });
      await deleteIfDue(t, claim);
    } else log("warn", "timer failed (retried after the claim)", { companyId: t.companyId, kind: t.kind, ref: t.ref, err });
    return "failed";
  }
  if (result?.rescheduleAt !== undefined) {
    await moveDue(t, claim, iso(result.rescheduleAt), { data: result.data, resetAttempts: true });
    return "rescheduled";
  }
  await deleteIfDue(t, claim);
  return "fired";
}

/**
 * The minute tick's part: fires every timer due at `now` or before, shard by shard through the due index (at most
 * `limitPerShard` each run). Returns the counts. Kinds with no handler in this process are left untouched.
 */
export async function runDueTimers(
  now: Date = new Date(),
  limitPerShard = 500,
): Promise<{ fired: number; rescheduled: number; lost: number; failed: number }> {
  const counts = { fired: 0, rescheduled: 0, lost: 0, failed: 0 };
  for (let shard = 0, shards = dueShardsToRead("timers"); shard < shards; shard++) {
    let seen = 0;
    for await (const items of dueTimerPages(shard, now)) {
      for (const it of items) {
        seen++;
        const outcome = await fireOne(it, now).catch((err) => {
          log("error", "timer claim failed", { err, kind: it.kind, ref: it.ref, companyId: it.companyId });
          return "failed" as const;
        });
        if (outcome !== "unknown") counts[outcome]++;
      }
      if (seen >= limitPerShard) break;
    }
  }
  return counts;
}
