/** Invoices' permissions (composed into `access/permissions.ts`; docs/product/invoices.md). */
import { definePermissions } from "../access/define.ts";

export const INVOICE_PERMISSIONS = definePermissions({
  /** Marking any company's invoice paid by hand (no Pix provider confirms it): super users only. */
  "invoices:markPaid": [],
  /** Reading another company's invoices: super users only. */
  "invoices:anyCompany": [],
});
