/**
 * Companies area (administration.md §3 Company, §7; issue 2 §4): listPlan for any user of the company (any company
 * for super users); create, show, update for super users only (the manifest answers 403 to others).
 */
import { z } from "zod";
import { zId } from "@atende/shared/common";
import { CreateCompanyBody, UpdateCompanyBody } from "@atende/shared/companies/schema";
import { createCompany, listPlanOfCompany, showCompany, updateCompany } from "@atende/shared/companies/service";
import { areaHandler, route } from "./core/http.ts";

export const handler = areaHandler("companies", {
  "GET /api/companies/listPlan/{companyId}": route({
    params: z.object({ companyId: zId }),
    handler: async (ctx) => listPlanOfCompany(ctx.auth, ctx.params.companyId),
  }),
  "POST /api/companies": route({
    body: CreateCompanyBody,
    handler: async (ctx) => (await createCompany(ctx.auth, ctx.body)).company,
  }),
  "GET /api/companies/{id}": route({
    params: z.object({ id: zId }),
    handler: async (ctx) => showCompany(ctx.auth, ctx.params.id),
  }),
  "PUT /api/companies/{id}": route({
    params: z.object({ id: zId }),
    body: UpdateCompanyBody,
    handler: async (ctx) => updateCompany(ctx.auth, ctx.params.id, ctx.body),
  }),
});
