/**
 * Reports' operations (docs/product/reports.md). The report and its export: admins (`reports:view`) of the caller's
 * own company, every read keyed by the token's company. The Atendimentos tab: any user who may see the ticket.
 */
import { defineRoutes } from "../contract.ts";
import { JobStarted } from "../jobs/schema.ts";
import { ContactAttendances, ReportExportBody, ReportExportLink, ReportExportParams, ReportPage, ReportQuery, TicketIdParams } from "./schema.ts";

export const reportsRoutes = defineRoutes("reports", {
  "GET /api/ticket/reports": { auth: "admin", permission: "reports:view", query: ReportQuery, response: ReportPage },
  "POST /api/ticket/reports/export": { auth: "admin", permission: "reports:view", body: ReportExportBody, response: JobStarted },
  "GET /api/ticket/reports/export/{jobId}": { auth: "admin", permission: "reports:view", params: ReportExportParams, response: ReportExportLink },
  "GET /api/ticket/history/{ticketId}": { auth: "user", params: TicketIdParams, response: ContactAttendances },
});
