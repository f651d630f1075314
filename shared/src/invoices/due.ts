/**
 * The `invoiceDue` timer kind (docs/product/invoices.md#when-an-invoice-is-made): every write of a company's due
 * date puts the company's one timer 20 days before it (`companies/repository.ts` `invoiceTimerItem`); when the minute
 * tick fires it, the invoice of that due date is made, once. A timer of a due date the company no longer has is
 * dropped (the newer date's timer replaced it); one that fires early (clock skew) waits until its time.
 */
import { INVOICE_DUE } from "../timers/kinds.ts";
import { registerTimerKind } from "../timers/index.ts";
import { INVOICE_LEAD_DAYS } from "./schema.ts";
import { createDueInvoice } from "./service.ts";

registerTimerKind(INVOICE_DUE, async (timer, now) => {
  const dueDate = typeof timer.data.dueDate === "string" ? timer.data.dueDate : null;
  if (!dueDate) return undefined;
  const at = Date.parse(dueDate) - INVOICE_LEAD_DAYS * 86_400_000;
  if (at > now.getTime()) return { rescheduleAt: at, data: timer.data };
  await createDueInvoice(timer.companyId, dueDate);
  return undefined;
});
