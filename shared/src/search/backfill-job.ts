/**
 * Wiring of the search backfill (data stored before the word index existed becomes findable): the bounded,
 * resumable `backfillSearchIndex` runs as a per-company backfill of the minute tick (`companies/backfill.ts`), timer
 * kind {@link SEARCH_BACKFILL_KIND}, one per company, driven through the timers' due index, never a scan.
 *
 * - {@link startSearchBackfill} runs once per deploy (the `Custom::AtendeSearchBackfill` custom resource,
 *   `infra/lib/seed-handler.ts`) and at every start of the one-machine stack (`infra/local/src/stack.ts`) and schedules
 *   the timer of every company whose backfill is not done.
 * - Each tick: runs of `backfillSearchIndex` (each at most `BACKFILL_BUDGET` contacts + messages, its cursor in
 *   `keys.searchBackfill(cid)`) for up to `BACKFILL_MS_PER_TICK`; a repeated part is harmless (idempotent).
 * - Companies created after the index existed need none: their writes index themselves (born done).
 */
import { defineCompanyBackfill } from "../companies/backfill.ts";
import { backfillSearchIndex, readProgress } from "./backfill.ts";

/** The timer kind (`keys.timer(cid, "searchBackfill", "index")`). */
export const SEARCH_BACKFILL_KIND = "searchBackfill";

/**
 * Schedules the backfill timer (due `now`) for every company not yet backfilled and not already scheduled. One-shot
 * (deploy, local start); idempotent. Returns the company ids it scheduled.
 */
export const startSearchBackfill = defineCompanyBackfill({
  kind: SEARCH_BACKFILL_KIND,
  isDone: async (companyId) => (await readProgress(companyId)).done,
  run: (companyId) => backfillSearchIndex(companyId),
});
