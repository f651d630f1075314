/** Invoices' own error codes (docs/product/invoices.md); their pt/en/es texts live in the web's invoices bundle. */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_INVOICE_FOUND: true;
    ERR_INVOICE_ALREADY_PAID: true;
    ERR_PIX_WEBHOOK_SECRET: true;
    ERR_PIX_PROVIDER: true;
  }
}

export const INVOICE_ERRORS = defineErrors({
  ERR_NO_INVOICE_FOUND: { status: 404, meaning: "no such invoice in the caller's company" },
  ERR_INVOICE_ALREADY_PAID: { status: 409, meaning: "the invoice is paid: nothing to pay" },
  ERR_PIX_WEBHOOK_SECRET: { status: 401, meaning: "a Pix confirmation without the webhook's secret" },
  ERR_PIX_PROVIDER: { status: 502, meaning: "the Pix provider refused or could not be reached" },
});
