/**
 * Invoices and their Pix payment (docs/product/invoices.md).
 *
 * - The minute tick makes a company's invoice through its `invoiceDue` timer (`./due.ts`), once per due date.
 * - `GET /api/invoices/all` and `GET /api/invoices/{id}`: the caller's company only (a super user may read any).
 * - `POST /api/subscription` (PAGAR): the invoice's Pix charge from the payment-provider port (`./provider.ts`), made
 *   once with a unique txid and shown again afterwards.
 * - Paid (the provider's webhook, or a super user by hand): the invoice is marked paid and the company's due date
 *   moves by its recurrence in one transaction, then `invoice.paid` (`company-{id}-payment` CONCLUIDA).
 */
import { timingSafeEqual } from "node:crypto";
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { nextDueDate } from "../companies/recurrence.ts";
import { getCompany } from "../companies/repository.ts";
import { getConfig } from "../config.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { log } from "../log.ts";
import { getPlan } from "../plans/repository.ts";
import "./errors.ts";
import "./events.ts";
import { invoiceOfTxid, newTxid, pixValue } from "./pix.ts";
import { pixProvider } from "./provider.ts";
import { getInvoice, invoiceCompany, listInvoices, markInvoicePaid, putInvoiceOnce, setInvoiceCharge } from "./repository.ts";
import {
  type Invoice,
  type InvoiceItem,
  INVOICES_PAGE_SIZE,
  type InvoicesPage,
  type PageInvoicesQuery,
  type PixCharge,
  type PixWebhookBody,
  type SubscriptionBody,
} from "./schema.ts";


const toInvoice = (i: InvoiceItem): Invoice => ({
  id: i.id,
  detail: i.detail,
  value: i.valueCents / 100,
  valueCents: i.valueCents,
  dueDate: i.dueDate,
  status: i.status,
  paidAt: i.paidAt,
  createdAt: i.createdAt,
});

/** `GET /api/invoices/all`: the caller's company's invoices, newest first, {@link INVOICES_PAGE_SIZE} a page; `searchParam` filters the detail. */
export async function pageInvoices(auth: AuthContext, q: PageInvoicesQuery): Promise<InvoicesPage> {
  const term = (q.searchParam ?? "").trim().toLowerCase();
  const all = (await listInvoices(auth.companyId)).filter((i) => !term || i.detail.toLowerCase().includes(term)).sort((a, b) => b.id - a.id);
  const from = (q.pageNumber - 1) * INVOICES_PAGE_SIZE;
  const page = all.slice(from, from + INVOICES_PAGE_SIZE);
  return { invoices: page.map(toInvoice), count: all.length, hasMore: from + page.length < all.length };
}

/** The invoice `id` as the caller may reach it: their company's, or any company's for a super user; else 404. */
async function reachInvoice(auth: AuthContext, id: number): Promise<InvoiceItem> {
  const companyId = can(auth, "invoices:anyCompany") ? await invoiceCompany(id) : auth.companyId;
  const inv = companyId === undefined ? undefined : await getInvoice(companyId, id);
  if (!inv) throw new AppError("ERR_NO_INVOICE_FOUND");
  return inv;
}

/** `GET /api/invoices/{id}`: one invoice; another company's (for anyone but a super user) is 404 `ERR_NO_INVOICE_FOUND`. */
export async function showInvoice(auth: AuthContext, id: number): Promise<Invoice> {
  return toInvoice(await reachInvoice(auth, id));
}

/**
 * Makes the invoice of company `companyId` for due date `dueDate` (detail = the plan's name, value = the plan's value
 * in cents) unless it has one already. Answers the new invoice, or null when it existed, the company or its plan is
 * gone, or the company's due date is no longer `dueDate`.
 */
export async function createDueInvoice(companyId: number, dueDate: string): Promise<InvoiceItem | null> {
  const company = await getCompany(companyId);
  if (!company || company.dueDate !== dueDate) return null;
  const plan = await getPlan(company.planId);
  if (!plan) {
    log("warn", "invoice not made: the company's plan is gone", { companyId, planId: company.planId });
    return null;
  }
  const now = new Date().toISOString();
  const item: InvoiceItem = {
    id: await nextId("GLOBAL", "invoice"),
    companyId,
    detail: plan.name,
    valueCents: plan.valueCents,
    dueDate,
    status: "open",
    txid: null,
    brCode: null,
    paidAt: null,
    createdAt: now,
    updatedAt: now,
  };
  return (await putInvoiceOnce(item)) ? item : null;
}

/**
 * `POST /api/subscription` (PAGAR): the Pix charge of the caller's open invoice `invoiceId`. The first call makes it
 * at the provider with a new txid; later calls answer the same code. Paid → 409 `ERR_INVOICE_ALREADY_PAID`; another
 * company's → 404; the provider failing → 502 `ERR_PIX_PROVIDER`.
 */
export async function checkout(auth: AuthContext, body: SubscriptionBody): Promise<PixCharge> {
  let inv = await reachInvoice(auth, body.invoiceId);
  if (inv.status === "paid") throw new AppError("ERR_INVOICE_ALREADY_PAID");
  if (!inv.txid || !inv.brCode) {
    const provider = pixProvider();
    const txid = newTxid(inv.companyId, inv.id, provider.txidLength);
    let brCode: string;
    try {
      ({ brCode } = await provider.createCharge({ txid, valueCents: inv.valueCents, description: `Fatura #${inv.id}` }));
    } catch (err) {
      log("error", "Pix charge failed", { companyId: inv.companyId, invoiceId: inv.id, err });
      throw new AppError("ERR_PIX_PROVIDER");
    }
    inv = (await setInvoiceCharge(inv.companyId, inv.id, { txid, brCode })) ?? inv;
  }
  return { invoiceId: inv.id, txid: inv.txid!, qrcode: { qrcode: inv.brCode! }, valor: { original: pixValue(inv.valueCents) } };
}

/**
 * Marks `inv` paid and moves its company's due date by the company's recurrence (from the current due date; from
 * now for a company without one). True when this call paid it, false when it was already paid.
 */
async function payInvoice(inv: InvoiceItem): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const company = await getCompany(inv.companyId);
    if (!company) throw new AppError("ERR_NO_COMPANY_FOUND");
    const from = company.dueDate;
    const to = nextDueDate(from, company.recurrence);
    const outcome = await markInvoicePaid(inv, from, to);
    if (outcome === "already") return false;
    if (outcome === "paid") {
      await dispatch({ type: "invoice.paid", companyId: inv.companyId, invoiceId: inv.id, dueDate: to });
      return true;
    }
  }
  throw new AppError("ERR_CONFLICT");
}

/** `POST /api/invoices/{id}/paid` (super): marks any company's open invoice paid by hand. Paid already → 409. */
export async function markPaidByHand(auth: AuthContext, id: number): Promise<Invoice> {
  if (!can(auth, "invoices:markPaid")) throw new AppError("ERR_NO_PERMISSION");
  const inv = await reachInvoice(auth, id);
  if (!(await payInvoice(inv))) throw new AppError("ERR_INVOICE_ALREADY_PAID");
  return toInvoice((await getInvoice(inv.companyId, id))!);
}

/** True when `given` is the configured webhook secret (constant time); always false without one. */
function webhookSecretMatches(given: string | undefined): boolean {
  const secret = getConfig().PIX_WEBHOOK_SECRET;
  if (!secret || !given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `POST /api/pix/webhook`: the provider's confirmations. Without the webhook's secret → 401 `ERR_PIX_WEBHOOK_SECRET`,
 * nothing applied. Each confirmed charge whose txid and value are those of an open invoice pays it (once: a repeated
 * confirmation changes nothing); any other is logged and skipped. Answers how many were applied now.
 */
export async function confirmPixPayments(secret: string | undefined, body: PixWebhookBody): Promise<{ applied: number }> {
  if (!webhookSecretMatches(secret)) throw new AppError("ERR_PIX_WEBHOOK_SECRET");
  let applied = 0;
  for (const pix of body.pix) {
    const ref = invoiceOfTxid(pix.txid);
    const inv = ref ? await getInvoice(ref.companyId, ref.invoiceId) : undefined;
    if (!inv || inv.txid !== pix.txid || pixValue(inv.valueCents) !== pix.valor) {
      log("warn", "Pix confirmation of no known charge", { txid: pix.txid, valor: pix.valor });
      continue;
    }
    if (await payInvoice(inv)) applied++;
  }
  return { applied };
}
