/**
 * The reports' permission, declared from the feature's folder (composed into `access/permissions.ts`): who may read
 * the company's report of attendances and export it (docs/product/reports.md).
 */
import { definePermissions } from "../access/define.ts";

export const REPORT_PERMISSIONS = definePermissions({
  /** `GET /api/ticket/reports`, its export and the /reports page. */
  "reports:view": ["admin"],
});
