/**
 * Invoices area: the invoices list and detail, the checkout's Pix charge, the super user's "paid by hand" and the Pix
 * provider's webhook. Thin: the invoices service decides. Contract: `shared/src/invoices/contract.ts`.
 */
import { checkout, confirmPixPayments, markPaidByHand, pageInvoices, showInvoice } from "@atende/shared/invoices/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("invoices", {
  "GET /api/invoices/all": async (ctx) => pageInvoices(ctx.auth, ctx.query),
  "GET /api/invoices/{id}": async (ctx) => showInvoice(ctx.auth, ctx.params.id),
  "POST /api/subscription": async (ctx) => checkout(ctx.auth, ctx.body),
  "POST /api/invoices/{id}/paid": async (ctx) => markPaidByHand(ctx.auth, ctx.params.id),
  "POST /api/pix/webhook": async (ctx) => confirmPixPayments(ctx.query.hmac, ctx.body),
});
