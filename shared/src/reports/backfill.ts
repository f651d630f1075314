/**
 * Backfill of the report entries (docs/product/reports.md#keys) for cycles stored before the entries existed. Walks
 * by keys only: the company's finished cycles month by month on GSI1 (from the month the company was created to
 * now), writing each cycle's entries (Puts of the same items: a repeated part changes nothing). Bounded and
 * resumable: a run handles at most {@link REPORT_BACKFILL_BUDGET} cycles and stores where it stopped in the company's
 * progress item (`keys.reportBackfill`).
 *
 * Driven like the search backfill: {@link startReportBackfill} (deploy and local start) schedules a timer of kind
 * {@link REPORT_BACKFILL_KIND}, due now, for each company not done; each minute tick runs it for at most
 * {@link REPORT_BACKFILL_MS_PER_TICK}, then it is due again at once, until the company is done.
 */
import { nowIso } from "../common.ts";
import { defineCompanyBackfill } from "../companies/backfill.ts";
import { getCompany } from "../companies/repository.ts";
import { batchGetTickets } from "../tickets/repository.ts";
import { nextMonth } from "../db/counters.ts";
import { monthOf } from "./entries.ts";
import { getBackfill, putBackfill, putReportEntries, queryMonthCycles } from "./repository.ts";

/** Cycles one run handles at most. */
export const REPORT_BACKFILL_BUDGET = 500;
export const REPORT_BACKFILL_KIND = "reportBackfill";
const REF = "entries";
/** Time one tick spends on one company's backfill (ms). */
export const REPORT_BACKFILL_MS_PER_TICK = 10_000;

/**
 * One bounded run of company `companyId`'s backfill: at most `budget` cycles from where the last run stopped.
 * Returns whether the company is done and how many entries this run wrote.
 */
export async function backfillReportEntries(companyId: number, budget = REPORT_BACKFILL_BUDGET, now = nowIso()): Promise<{ done: boolean; entries: number }> {
  const progress = await getBackfill(companyId);
  if (progress?.done) return { done: true, entries: 0 };
  const company = await getCompany(companyId);
  let month = progress?.month ?? monthOf(company?.createdAt ?? now);
  let sk = progress?.sk ?? null;
  let left = budget;
  let written = 0;
  const last = monthOf(now);
  while (left > 0 && month <= last) {
    const page = await queryMonthCycles(companyId, month, Math.min(left, 100), sk);
    if (page.cycles.length) {
      const tickets = await batchGetTickets(companyId, [...new Set(page.cycles.map((c) => c.ticketId))]);
      written += await putReportEntries(page.cycles.map(({ sk: _sk, ...cycle }) => ({ cycle, tagIds: tickets.get(cycle.ticketId)?.tagIds ?? [] })));
      left -= page.cycles.length;
      sk = page.cycles[page.cycles.length - 1].sk;
    }
    if (!page.more) {
      month = nextMonth(month);
      sk = null;
    }
  }
  const done = month > last;
  await putBackfill({ companyId, month, sk, done, entries: (progress?.entries ?? 0) + written, updatedAt: nowIso() });
  return { done, entries: written };
}

/** Schedules the backfill timer (due now) for each company not yet done and not already scheduled; returns their ids. */
export const startReportBackfill = defineCompanyBackfill({
  kind: REPORT_BACKFILL_KIND,
  ref: REF,
  isDone: async (companyId) => (await getBackfill(companyId))?.done === true,
  run: (companyId) => backfillReportEntries(companyId),
  msPerTick: REPORT_BACKFILL_MS_PER_TICK,
});
