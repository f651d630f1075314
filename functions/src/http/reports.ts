/**
 * Reports area (docs/product/reports.md): the report of attendances, its export (a background job and the file's
 * link) and the Atendimentos tab of a ticket. Thin: the rules are in `shared/src/reports/`. Contract:
 * `shared/src/reports/contract.ts`.
 */
import { reportExportLink, startReportExport } from "@atende/shared/reports/export";
import { contactAttendances, listReport } from "@atende/shared/reports/service";
import { areaHandler, started } from "./core/http.ts";

export const handler = areaHandler("reports", {
  "GET /api/ticket/reports": async (ctx) => listReport(ctx.auth, ctx.query),
  "POST /api/ticket/reports/export": async (ctx) => started("Export started", await startReportExport(ctx.auth, ctx.body)),
  "GET /api/ticket/reports/export/{jobId}": async (ctx) => reportExportLink(ctx.auth, ctx.params.jobId),
  "GET /api/ticket/history/{ticketId}": async (ctx) => contactAttendances(ctx.auth, ctx.params.ticketId),
});
