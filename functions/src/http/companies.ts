/**
 * Companies area (docs/product/companies.md): listPlan for any user of the company (any company for super users);
 * list, create, show, update and delete for super users only (the manifest answers 403 to others); the public sign-up.
 * Contract: `shared/src/companies/contract.ts`.
 */
import { createCompany, deleteCompany, listAllCompanies, listPlanOfCompany, pageCompanies, showCompany, updateCompany } from "@atende/shared/companies/service";
import { updateCompanySchedules } from "@atende/shared/companies/schedules";
import { signup } from "@atende/shared/companies/signup";
import { clientIp } from "./auth.ts";
import { areaHandler, started } from "./core/http.ts";

export const handler = areaHandler("companies", {
  "GET /api/companies/listPlan/{companyId}": async (ctx) => listPlanOfCompany(ctx.auth, ctx.params.companyId),
  "GET /api/companies": async (ctx) => pageCompanies(ctx.auth, ctx.query),
  "GET /api/companies/list": async (ctx) => listAllCompanies(ctx.auth),
  "POST /api/companies": async (ctx) => (await createCompany(ctx.auth, ctx.body)).company,
  "POST /api/companies/cadastro": async (ctx) => signup(ctx.body, clientIp(ctx)),
  "GET /api/companies/{id}": async (ctx) => showCompany(ctx.auth, ctx.params.id),
  "PUT /api/companies/{id}": async (ctx) => updateCompany(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/companies/{id}": async (ctx) => started("Company deleted", await deleteCompany(ctx.auth, ctx.params.id)),
  "PUT /api/companies/{id}/schedules": async (ctx) => updateCompanySchedules(ctx.auth, ctx.params.id, ctx.body),
});
