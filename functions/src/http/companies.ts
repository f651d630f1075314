/**
 * Companies area: listPlan for any user of the company (any company
 * for super users); create, show, update for super users only (the manifest answers 403 to others).
 * Contract: `shared/src/companies/contract.ts`.
 */
import { createCompany, listPlanOfCompany, showCompany, updateCompany } from "@atende/shared/companies/service";
import { updateCompanySchedules } from "@atende/shared/companies/schedules";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("companies", {
  "GET /api/companies/listPlan/{companyId}": async (ctx) => listPlanOfCompany(ctx.auth, ctx.params.companyId),
  "POST /api/companies": async (ctx) => (await createCompany(ctx.auth, ctx.body)).company,
  "GET /api/companies/{id}": async (ctx) => showCompany(ctx.auth, ctx.params.id),
  "PUT /api/companies/{id}": async (ctx) => updateCompany(ctx.auth, ctx.params.id, ctx.body),
  "PUT /api/companies/{id}/schedules": async (ctx) => updateCompanySchedules(ctx.auth, ctx.params.id, ctx.body),
});
