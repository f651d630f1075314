/**
 * Dashboard operations (docs/product/dashboard.md): admins (`dashboard:view`) of the caller's own company; super
 * users also get the platform cards. Another company's data is never reachable: every read is keyed by the token's
 * company (a `companyId` naming another company is 403 `ERR_NO_PERMISSION`).
 */
import { defineRoutes } from "../contract.ts";
import { DashboardChartQuery, DashboardQuery, DashboardResponse, TicketsDayResponse, TicketsUsersResponse } from "./schema.ts";

export const dashboardRoutes = defineRoutes("dashboard", {
  "GET /api/dashboard": { auth: "admin", permission: "dashboard:view", query: DashboardQuery, response: DashboardResponse },
  "GET /api/dashboard/ticketsUsers": { auth: "admin", permission: "dashboard:view", query: DashboardChartQuery, response: TicketsUsersResponse },
  "GET /api/dashboard/ticketsDay": { auth: "admin", permission: "dashboard:view", query: DashboardChartQuery, response: TicketsDayResponse },
});
