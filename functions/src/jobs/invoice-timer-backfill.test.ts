/**
 * The invoice-timer backfill: a company stored before every due-date write carried its invoice timer gets exactly
 * one once the deploy / local start has scheduled the walk (`startInvoiceTimerBackfill`) and the minute tick
 * (`jobs/tick.ts`) has carried it; walking again writes nothing.
 */
import { describe, expect, it } from "vitest";
import { backfillInvoiceTimers, INVOICE_TIMER_BACKFILL_KIND, startInvoiceTimerBackfill } from "@atende/shared/invoices/timer-backfill";
import { INVOICE_DUE } from "@atende/shared/timers/kinds";
import { getTimer } from "@atende/shared/timers/index";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { handler as tick } from "./tick.ts";

const w = companyWorld({ root: true });

describe("invoice timers of companies stored without one", () => {
  it("gives each company with a due date exactly one timer, through the tick, and nothing on a second walk", async () => {
    const due = new Date(Date.now() + 90 * 86_400_000).toISOString();
    const older = await w.fresh({ dueDate: due }); // stored as before: no timer
    const noDue = await w.fresh({ dueDate: null });
    // A company whose due date was written through the product already has its own timer: left as it is.
    const moved = await w.fresh();
    const newDue = new Date(Date.now() + 40 * 86_400_000).toISOString();
    expect((await api("PUT", `/api/companies/${moved.cid}`, { token: w.root.token, body: { dueDate: newDue } })).status).toBe(200);
    const movedTimer = await getTimer(moved.cid, INVOICE_DUE, "due");
    expect(movedTimer?.data).toEqual({ dueDate: newDue });
    expect(await getTimer(older.cid, INVOICE_DUE, "due")).toBeNull();

    expect(await startInvoiceTimerBackfill()).toBe(true);
    expect(await startInvoiceTimerBackfill()).toBe(false); // already scheduled
    let t = Date.now();
    for (let i = 0; i < 5 && (await getTimer(0, INVOICE_TIMER_BACKFILL_KIND, "companies")); i++) {
      t += 60_000;
      await tick({ time: new Date(t).toISOString() });
    }
    expect(await getTimer(0, INVOICE_TIMER_BACKFILL_KIND, "companies")).toBeNull();

    const timer = await getTimer(older.cid, INVOICE_DUE, "due");
    expect(timer).toMatchObject({ data: { dueDate: due }, dueAt: new Date(Date.parse(due) - 20 * 86_400_000).toISOString() });
    expect(await getTimer(noDue.cid, INVOICE_DUE, "due")).toBeNull();
    expect(await getTimer(moved.cid, INVOICE_DUE, "due")).toEqual(movedTimer);

    // Walking again writes nothing new; and the next deploy does not start it again.
    expect(await backfillInvoiceTimers(undefined)).toMatchObject({ written: 0, done: true });
    expect(await getTimer(older.cid, INVOICE_DUE, "due")).toEqual(timer);
    expect(await startInvoiceTimerBackfill()).toBe(false);
  }, 60_000);

  it("resumes where a tick stopped: a walk cut after each page continues from its key, writing each timer once", async () => {
    const a = await w.fresh({ root: false });
    const b = await w.fresh({ root: false });
    let run = await backfillInvoiceTimers(undefined, 0, 1); // one company per page, no time left: one page a run
    let runs = 1;
    let written = run.written;
    while (!run.done) {
      run = await backfillInvoiceTimers(run.resumeKey, 0, 1);
      runs++;
      written += run.written;
    }
    expect(runs).toBeGreaterThan(2);
    expect(written).toBe(2);
    for (const c of [a, b]) expect(await getTimer(c.cid, INVOICE_DUE, "due")).toMatchObject({ companyId: c.cid });
  });
});
