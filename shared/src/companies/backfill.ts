/**
 * A per-company backfill carried by the minute tick (docs/architecture.md#3-the-table, "Timers"): data stored before a
 * feature's index existed is brought in step in bounded, resumable runs, never by a scan.
 *
 * - The returned `start(now)` runs once per deploy (a custom resource of `infra/lib/seed-handler.ts`) and at every start
 *   of the one-machine stack (`infra/local/src/stack.ts`): it lists the companies (the `COMPANIES` index, once) and
 *   schedules the kind's timer, due now, for each company whose backfill is not done and has no timer yet.
 * - Each tick the timer fires: runs of `run(companyId)` (each bounded by the feature, its cursor kept by the feature)
 *   until the company is done (the timer is removed) or `msPerTick` has passed (the timer is due again at once: the
 *   next tick continues from the cursor). A crash mid-run leaves the claim to expire; the retry continues from the
 *   last stored cursor, so each run must be idempotent.
 * - A company created after the index existed is born done (its creation transaction writes the progress as done):
 *   it is never scheduled.
 */
import { getTimer, registerTimerKind, scheduleTimer } from "../timers/index.ts";
import { listCompanyIds } from "./repository.ts";

/** Time one tick spends on one company's backfill before handing over to the next tick, in ms (default). */
export const BACKFILL_MS_PER_TICK = 10_000;

/** A feature's backfill: its timer kind, whether a company is done, and one bounded run. */
export interface CompanyBackfill {
  /** The timer kind (`keys.timer(cid, kind, ref)`). */
  kind: string;
  /** The timer's ref (one backfill timer per company and kind; default "index"). */
  ref?: string;
  /** True when the company needs no (more) backfill. */
  isDone: (companyId: number) => Promise<boolean>;
  /** One bounded, idempotent run from the stored cursor; `done` once the company is finished. */
  run: (companyId: number) => Promise<{ done: boolean }>;
  /** Time one tick spends on one company, ms (default {@link BACKFILL_MS_PER_TICK}). */
  msPerTick?: number;
}

/**
 * Registers the backfill's timer kind and returns its `start(now)`: schedules the timer (due `now`) for every company
 * not yet done and not already scheduled; idempotent; returns the company ids it scheduled.
 */
export function defineCompanyBackfill(b: CompanyBackfill): (now?: Date) => Promise<number[]> {
  const budgetMs = b.msPerTick ?? BACKFILL_MS_PER_TICK;
  const ref = b.ref ?? "index";
  registerTimerKind(b.kind, async (timer, now) => {
    const started = Date.now();
    for (;;) {
      if ((await b.run(timer.companyId)).done) return undefined;
      if (Date.now() - started >= budgetMs) return { rescheduleAt: now };
    }
  });
  return async (now = new Date()) => {
    const scheduled: number[] = [];
    for (const companyId of await listCompanyIds()) {
      if (await b.isDone(companyId)) continue;
      if (await getTimer(companyId, b.kind, ref)) continue;
      await scheduleTimer(companyId, b.kind, ref, now);
      scheduled.push(companyId);
    }
    return scheduled;
  };
}
