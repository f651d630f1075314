/**
 * Invoices' domain events: `invoice.paid` (an invoice of the company was paid and its due date moved). The realtime
 * frame is `company-{id}-payment` `{action: "CONCLUIDA", invoiceId, company: {id, dueDate}}` to the whole company
 * (the checkout waiting on its Pix screen shows the renewal and leaves).
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { PaymentFrame } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "invoice.paid": { type: "invoice.paid"; companyId: number; invoiceId: number; dueDate: string };
  }
}

defineEvents({
  "invoice.paid": baseEvent("invoice.paid").extend({ invoiceId: z.number().int(), dueDate: z.string() }),
});

defineFrames({ payment: PaymentFrame });

realtimeFrames("invoice.paid", (e) => [
  { name: "payment", data: { action: "CONCLUIDA", invoiceId: e.invoiceId, company: { id: e.companyId, dueDate: e.dueDate } }, audience: { kind: "company" } },
]);
