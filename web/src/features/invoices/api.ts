/**
 * Invoices data (docs/product/invoices.md):
 * - `useInvoicePages()`: GET /api/invoices/all?pageNumber → pages of `{invoices, count, hasMore}` (infinite scroll);
 * - `useCompanyPlan(companyId)`: GET /api/companies/listPlan/{companyId} → the company (billing email, due date) and its plan;
 * - `payInvoice(form)`: POST /api/subscription → the Pix charge `{qrcode: {qrcode}, valor: {original}}`;
 * - `paymentEvents`: the `company-{id}-payment` frames (CONCLUIDA) for the checkout waiting on its Pix screen.
 */
import { useQuery } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { pagedCache, useNumberedPages } from "../../ui/kit/crud.ts";
import type { FrameMap } from "@atende/shared/events/frame-map";

export type Invoice = ResponseOf<"GET /api/invoices/{id}">;
export type PixCharge = ResponseOf<"POST /api/subscription">;
export type CheckoutForm = BodyOf<"POST /api/subscription">;
export type PaymentFrame = FrameMap["payment"];

export const invoicesPages = pagedCache<Invoice, "invoices">({ root: "invoices", field: "invoices" });

export const useInvoicePages = () => useNumberedPages(invoicesPages, "", ({ pageNumber }) => call("GET /api/invoices/all", { query: { pageNumber } }));

export const useCompanyPlan = (companyId: number) =>
  useQuery({ queryKey: ["invoices", "company", companyId], queryFn: () => call("GET /api/companies/listPlan/{companyId}", { params: { companyId } }) });

export const payInvoice = (form: CheckoutForm): Promise<PixCharge> => call("POST /api/subscription", { body: form });

/** `Pago` / `Vencido` / `Em Aberto` (docs/product/invoices.md#who-sees-and-pays): overdue = unpaid with its due date before today. */
export function invoiceDisplayStatus(inv: Pick<Invoice, "status" | "dueDate">, now = new Date()): "paid" | "overdue" | "open" {
  if (inv.status === "paid") return "paid";
  const due = new Date(inv.dueDate);
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return due < today ? "overdue" : "open";
}

/** The `company-{id}-payment` frames, for the checkout's Pix screen (the realtime handler emits them here). */
export const paymentEvents = new EventTarget();
export const PAYMENT_EVENT = "payment";
