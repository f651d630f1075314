/**
 * Dashboard area. Thin: call the dashboard service (`shared/src/dashboard/service.ts`); contract:
 * `shared/src/dashboard/contract.ts`.
 */
import { getDashboard, ticketsDay, ticketsUsers } from "@atende/shared/dashboard/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("dashboard", {
  "GET /api/dashboard": async (ctx) => getDashboard(ctx.auth, ctx.query),
  "GET /api/dashboard/ticketsUsers": async (ctx) => ticketsUsers(ctx.auth, ctx.query),
  "GET /api/dashboard/ticketsDay": async (ctx) => ticketsDay(ctx.auth, ctx.query),
});
