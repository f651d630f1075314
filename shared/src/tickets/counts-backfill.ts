/**
 * The tab counts' backfill (docs/product/tickets.md#tab-counts): tickets stored before the count items existed carry
 * no `tally` (`tally.ts`), so they are in no count; this counts them once. Bounded and resumable like the search
 * backfill (`search/backfill-job.ts`): a timer of kind {@link COUNTS_BACKFILL_KIND} per company, driven by the minute
 * tick, walks the company's open then pending tickets on their status index (GSI1 `S#<status>`, never a scan), at most
 * {@link COUNTS_BACKFILL_BUDGET} a run, its cursor in `keys.ticketCountsBackfill(cid)`.
 *
 * Exact under races: each ticket is counted by one transaction that sets its `tally` with the counters' outbox item,
 * conditioned on the ticket's `version` and stored tally as read (`repository.ts` `tallyTicketItem`); a ticket written
 * since then was counted by that write, and a write that read the ticket before the backfill counted it fails its own
 * tally condition and re-reads (409 to an agent, at most once). Repeated runs change nothing. Closed tickets count
 * nowhere and are not walked. Companies created with the counts are born done (`bornCountedPut`).
 */
import { defineCompanyBackfill } from "../companies/backfill.ts";
import { nowIso } from "../common.ts";
import { keys } from "../db/keys.ts";
import { pagesFrom } from "../db/query.ts";
import { applyOutbox } from "../events/outbox.ts";
import { log } from "../log.ts";
import { type CountsBackfillCursor, queryTicketIndex, readCountsBackfill, tallyTicketItem, writeCountsBackfill } from "./repository.ts";
import { tallyOf } from "./tally.ts";

/** The timer kind (`keys.timer(cid, "ticketCounts", "backfill")`). */
export const COUNTS_BACKFILL_KIND = "ticketCounts";
const REF = "backfill";
/** Tickets examined per run. */
export const COUNTS_BACKFILL_BUDGET = 200;

/**
 * One bounded run of a company's backfill: examines at most `budget` open and pending tickets from the stored cursor,
 * counts each one not counted in its current state, stores where it stopped. Returns how many it counted and whether
 * the company is done. Errors (DynamoDB) propagate; the next run starts again from the last stored cursor.
 */
export async function backfillTicketCounts(companyId: number, budget = COUNTS_BACKFILL_BUDGET): Promise<{ counted: number; done: boolean }> {
  const progress = await readCountsBackfill(companyId);
  if (progress.done) return { counted: 0, done: true };
  let cursor: CountsBackfillCursor | null = progress.cursor ?? { p: "open" };
  let seen = 0;
  let counted = 0;
  while (cursor && seen < budget) {
    const at: CountsBackfillCursor = cursor;
    let resume = at.k;
    let finished = false;
    const pages = pagesFrom((startKey) => (seen < budget ? queryTicketIndex("GSI1", keys.ticketStatusPK(companyId, at.p), { limit: Math.min(100, budget - seen), startKey }) : null), at.k);
    for await (const page of pages) {
      for (const t of page.items) {
        seen++;
        if (t.tally === tallyOf(t)) continue;
        const entry = await tallyTicketItem(t, nowIso());
        if (!entry) continue;
        counted++;
        // Applied now; a failure leaves the outbox item to the minute tick (never lost, never twice).
        await applyOutbox(entry).catch((err: unknown) => log("warn", "ticket counts: backfill apply left for the tick", { companyId, ticketId: t.id, err }));
      }
      resume = page.lastKey;
      finished = !page.lastKey;
    }
    cursor = !finished ? { p: at.p, k: resume } : at.p === "open" ? { p: "pending" } : null;
  }
  await writeCountsBackfill(companyId, cursor, !cursor);
  return { counted, done: !cursor };
}

/**
 * Schedules the backfill timer (due `now`) of every company not yet done and not already scheduled (a deploy, a start
 * of the local stack); idempotent. Returns the company ids it scheduled.
 */
export const startTicketCountsBackfill = defineCompanyBackfill({
  kind: COUNTS_BACKFILL_KIND,
  ref: REF,
  isDone: async (companyId) => (await readCountsBackfill(companyId)).done,
  run: (companyId) => backfillTicketCounts(companyId),
});
