/**
 * Invoices operations (docs/product/invoices.md). An admin reads and pays their own company's invoices (another
 * company's invoice is 404, nothing seen); a super user reads any company's and marks one paid by hand. The Pix
 * webhook is public and checked against its secret.
 */
import { defineRoutes } from "../contract.ts";
import {
  Invoice,
  InvoiceIdParams,
  InvoicesPage,
  PageInvoicesQuery,
  PixCharge,
  PixWebhookBody,
  PixWebhookQuery,
  PixWebhookResult,
  SubscriptionBody,
} from "./schema.ts";

export const invoicesRoutes = defineRoutes("invoices", {
  "GET /api/invoices/all": { auth: "admin", query: PageInvoicesQuery, response: InvoicesPage },
  "GET /api/invoices/{id}": { auth: "admin", params: InvoiceIdParams, response: Invoice },
  /** The checkout's PAGAR: the invoice's Pix charge (made once, shown again on the next calls). */
  "POST /api/subscription": { auth: "admin", body: SubscriptionBody, response: PixCharge },
  /** Super only: the invoice paid by hand (the company's due date moves by its recurrence). */
  "POST /api/invoices/{id}/paid": { auth: "super", params: InvoiceIdParams, response: Invoice },
  /** The Pix provider's confirmation (Banco Central Pix API body); `?hmac=` must be the webhook's secret. */
  "POST /api/pix/webhook": { auth: "public", query: PixWebhookQuery, body: PixWebhookBody, response: PixWebhookResult },
});
