/**
 * Wiring of the search backfill (data stored before the word index existed becomes findable). The
 * bounded, resumable `backfillSearchIndex` runs as a timer (`shared/src/timers`) of kind {@link SEARCH_BACKFILL_KIND},
 * one per company, so the minute tick (EventBridge in the cloud, in-process locally) drives it through the timers' due
 * index, never a scan:
 *
 * - {@link startSearchBackfill} runs once per deploy (the `Custom::AtendeSearchBackfill` custom resource,
 *   `infra/lib/seed-handler.ts`) and at every start of the one-machine stack (`infra/local/src/stack.ts`): it lists the
 *   companies (the `COMPANIES` index, once) and schedules the timer, due now, for each company whose backfill is not
 *   done and has no timer yet.
 * - Each tick the timer fires: runs of `backfillSearchIndex` (each at most `BACKFILL_BUDGET` contacts + messages, its
 *   cursor in `keys.searchBackfill(cid)`) until the company is done (the timer is removed) or
 *   {@link BACKFILL_MS_PER_TICK} has passed (the timer is due again at once: the next tick continues from the cursor).
 *   A crash mid-run leaves the claim to expire; the retry continues from the last stored cursor (a repeated part is
 *   harmless: the backfill is idempotent).
 * - Companies created after the index existed need none: their writes index themselves; a done company is skipped.
 */
import { listCompanyIds } from "../companies/repository.ts";
import { getTimer, registerTimerKind, scheduleTimer } from "../timers/index.ts";
import { backfillSearchIndex, readProgress } from "./backfill.ts";

/** The timer kind (`keys.timer(cid, "searchBackfill", "index")`). */
export const SEARCH_BACKFILL_KIND = "searchBackfill";
const REF = "index";
/** Time one tick spends on one company's backfill before handing over to the next tick, in ms. */
export const BACKFILL_MS_PER_TICK = 10_000;

/**
 * Schedules the backfill timer (due `now`) for every company not yet backfilled and not already scheduled. One-shot
 * (deploy, local start); idempotent. Returns the company ids it scheduled.
 */
export async function startSearchBackfill(now: Date = new Date()): Promise<number[]> {
  const scheduled: number[] = [];
  for (const companyId of await listCompanyIds()) {
    if ((await readProgress(companyId)).done) continue;
    if (await getTimer(companyId, SEARCH_BACKFILL_KIND, REF)) continue;
    await scheduleTimer(companyId, SEARCH_BACKFILL_KIND, REF, now);
    scheduled.push(companyId);
  }
  return scheduled;
}

registerTimerKind(SEARCH_BACKFILL_KIND, async (timer, now) => {
  const started = Date.now();
  for (;;) {
    const run = await backfillSearchIndex(timer.companyId);
    if (run.done) return undefined;
    if (Date.now() - started >= BACKFILL_MS_PER_TICK) return { rescheduleAt: now };
  }
});
