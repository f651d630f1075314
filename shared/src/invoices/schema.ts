/**
 * Invoices (docs/product/invoices.md): one per company and due date, made by the minute tick when fewer than
 * {@link INVOICE_LEAD_DAYS} days remain; paid by Pix. Three blocks: the stored items, the requests, the answers and
 * the `company-{id}-payment` frame.
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";

/** An invoice is made when fewer than this many days remain until the company's due date. */
export const INVOICE_LEAD_DAYS = 20;
/** Invoices per page of `GET /api/invoices/all`. */
export const INVOICES_PAGE_SIZE = 20;

// ---------------------------------------------------------------------------------------------
// 1. Stored items

export const InvoiceStatus = z.enum(["open", "paid"]);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

/**
 * Invoice item `C#<cid>` / `INV#<id>` (`keys.invoice`): `detail` is the plan's name, `valueCents` the plan's value
 * in BRL cents, `dueDate` the company's due date it bills (ISO). `txid` and `brCode` are the Pix charge, made on the
 * first PAGAR and shown again on the next ones.
 */
export const InvoiceItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  detail: z.string(),
  valueCents: z.number().int().min(0),
  dueDate: z.string(),
  status: InvoiceStatus,
  txid: z.string().nullable().default(null),
  brCode: z.string().nullable().default(null),
  paidAt: z.string().nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type InvoiceItem = z.infer<typeof InvoiceItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

export const InvoiceIdParams = z.object({ id: zId });
export const PageInvoicesQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber: zPageNumber });
export type PageInvoicesQuery = z.infer<typeof PageInvoicesQuery>;

/**
 * `POST /api/subscription`: the checkout's payload. Only `invoiceId` is used; the address fields are checked as the
 * checkout's first step asks and not stored, and card fields are refused rather than received (a Pix checkout never
 * takes a card).
 */
export const SubscriptionBody = z
  .object({
    invoiceId: zId,
    firstName: z.string().trim().max(100).optional(),
    lastName: z.string().trim().max(100).optional(),
    address2: z.string().trim().max(200).optional(),
    city: z.string().trim().max(100).optional(),
    state: z.string().trim().max(100).optional(),
    zipcode: z.string().trim().max(20).optional(),
    country: z.string().trim().max(100).optional(),
    useAddressForPaymentDetails: z.boolean().optional(),
    plan: z.string().max(2000).optional(),
    price: z.number().optional(),
    users: z.number().int().optional(),
    connections: z.number().int().optional(),
  })
  .strict();
export type SubscriptionBody = z.infer<typeof SubscriptionBody>;

/**
 * The Pix provider's confirmation (`POST /api/pix/webhook`), as the Banco Central Pix API sends it: each paid charge's
 * `txid`, `valor` ("99.90") and `endToEndId`. Query: the shared secret `hmac` (and `ignorar`, the suffix Efí appends).
 */
export const PixWebhookBody = z.object({
  pix: z
    .array(
      z.object({
        txid: z.string().regex(/^[a-zA-Z0-9]{1,35}$/),
        valor: z.string().regex(/^\d{1,10}\.\d{2}$/),
        endToEndId: z.string().max(64).optional(),
        horario: z.string().max(40).optional(),
      }),
    )
    .min(1)
    .max(100),
});
export type PixWebhookBody = z.infer<typeof PixWebhookBody>;
export const PixWebhookQuery = z.object({ hmac: z.string().max(200).optional(), ignorar: z.string().max(50).optional() });

// ---------------------------------------------------------------------------------------------
// 3. Answers and frames

/** An invoice as the API shows it: `value` in reais. */
export const Invoice = z.object({
  id: z.number().int(),
  detail: z.string(),
  value: z.number(),
  valueCents: z.number().int(),
  dueDate: z.string(),
  status: InvoiceStatus,
  paidAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Invoice = z.infer<typeof Invoice>;

export const InvoicesPage = z.object({ invoices: z.array(Invoice), count: z.number().int(), hasMore: z.boolean() });
export type InvoicesPage = z.infer<typeof InvoicesPage>;

/** The checkout's Pix screen: the BR Code ("copia e cola", also drawn as the QR) and the value ("99.90"). */
export const PixCharge = z.object({
  invoiceId: z.number().int(),
  txid: z.string(),
  qrcode: z.object({ qrcode: z.string() }),
  valor: z.object({ original: z.string() }),
});
export type PixCharge = z.infer<typeof PixCharge>;

/** `company-{id}-payment`: an invoice of the company was paid (`CONCLUIDA`) and its due date moved to `company.dueDate`. */
export const PaymentFrame = z.object({
  action: z.literal("CONCLUIDA"),
  invoiceId: z.number().int(),
  company: z.object({ id: z.number().int(), dueDate: z.string().nullable() }),
});
export type PaymentFrame = z.infer<typeof PaymentFrame>;

/** `POST /api/pix/webhook`: how many charges it applied now (a repeated confirmation counts 0). */
export const PixWebhookResult = z.object({ applied: z.number().int() });

/** The sandbox's "pay this Pix" (`POST /sim/pix/pay`, one machine only): the BR Code to pay. */
export const SandboxPixPayBody = z.object({ code: z.string().trim().min(1).max(1000) });
