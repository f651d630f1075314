/**
 * The invoice-timer backfill (docs/product/invoices.md#when-an-invoice-is-made): companies stored before every write
 * of a due date carried its `invoiceDue` timer get theirs, so their next invoice is made without waiting for their
 * due date to change. The search backfill's pattern (`search/backfill-job.ts`): a timer carried by the minute tick.
 *
 * - {@link startInvoiceTimerBackfill} runs once per deploy (the `Custom::AtendeSearchBackfill` resource,
 *   `infra/lib/seed-handler.ts`) and at every start of the one-machine stack: unless the walk is done or already
 *   scheduled, it puts ONE platform timer ({@link INVOICE_TIMER_BACKFILL_KIND}, company 0), due now.
 * - Each tick the timer fires: pages of the `COMPANIES` index ({@link BACKFILL_PAGE} companies each, for at most
 *   {@link BACKFILL_MS_PER_TICK}); a company with a due date gets its timer with one Put conditioned on no timer
 *   being there, so a company already carrying one (a due-date write, an earlier run) is never touched. The timer's
 *   data keeps the index key to resume from; the next tick continues there. A crash repeats at most one tick's pages
 *   (harmless: the Put is conditional). The last page marks the walk done and removes the timer.
 */
import { companyDueDatePages, invoiceTimerBackfillDone, markInvoiceTimerBackfillDone, putInvoiceTimerIfAbsent } from "../companies/repository.ts";
import { getTimer, registerTimerKind, scheduleTimer } from "../timers/index.ts";

/** The timer kind (`keys.timer(0, "invoiceTimerBackfill", "companies")`: the platform's, company 0). */
export const INVOICE_TIMER_BACKFILL_KIND = "invoiceTimerBackfill";
const PLATFORM = 0;
const REF = "companies";
/** Companies read per page of the `COMPANIES` index. */
export const BACKFILL_PAGE = 100;
/** Time one tick spends on the walk before handing over to the next tick, in ms. */
export const BACKFILL_MS_PER_TICK = 10_000;

/**
 * Schedules the walk (due `now`) unless it is done or already scheduled. One-shot (deploy, local start); idempotent.
 * Returns true when it scheduled it.
 */
export async function startInvoiceTimerBackfill(now: Date = new Date()): Promise<boolean> {
  if (await invoiceTimerBackfillDone()) return false;
  if (await getTimer(PLATFORM, INVOICE_TIMER_BACKFILL_KIND, REF)) return false;
  await scheduleTimer(PLATFORM, INVOICE_TIMER_BACKFILL_KIND, REF, now, { written: 0 });
  return true;
}

/**
 * Walks the `COMPANIES` index from `start` for at most `budgetMs`, writing the invoice timer of each company that has
 * a due date and no timer, `pageSize` companies a page. Returns how many it wrote and where to resume (undefined when the walk reached the end).
 */
export async function backfillInvoiceTimers(
  start: Record<string, unknown> | undefined,
  budgetMs = BACKFILL_MS_PER_TICK,
  pageSize = BACKFILL_PAGE,
): Promise<{ written: number; resumeKey?: Record<string, unknown>; done: boolean }> {
  const started = Date.now();
  let written = 0;
  let resumeKey = start;
  let done = false;
  let first = true;
  const more = () => first || Date.now() - started < budgetMs;
  for await (const page of companyDueDatePages(start, pageSize, more)) {
    first = false;
    for (const c of page.companies) if (c.dueDate && (await putInvoiceTimerIfAbsent(c.id, c.dueDate))) written++;
    resumeKey = page.lastKey;
    done = !page.lastKey;
  }
  return { written, resumeKey, done };
}

registerTimerKind(INVOICE_TIMER_BACKFILL_KIND, async (timer, now) => {
  const start = timer.data.resumeKey && typeof timer.data.resumeKey === "object" ? (timer.data.resumeKey as Record<string, unknown>) : undefined;
  const run = await backfillInvoiceTimers(start);
  const written = (typeof timer.data.written === "number" ? timer.data.written : 0) + run.written;
  if (run.done) {
    await markInvoiceTimerBackfillDone(written);
    return undefined;
  }
  return { rescheduleAt: now, data: { resumeKey: run.resumeKey, written } };
});
