/**
 * Companies operations: listPlan for any user of the company (any
 * company for super users); create, show, update for super users only.
 */
import { z } from "zod";
import { zId } from "../common.ts";
import { defineRoutes, IdParams } from "../contract.ts";
import { PublicPlan } from "../plans/contract.ts";
import { CompanyItem, CreateCompanyBody, UpdateCompanyBody, UpdateSchedulesBody } from "./schema.ts";

/** A company as the API shows it, with its plan. */
export const PublicCompany = CompanyItem.extend({ plan: PublicPlan.nullable() });

export const companiesRoutes = defineRoutes("companies", {
  "GET /api/companies/listPlan/{companyId}": { auth: "user", params: z.object({ companyId: zId }), response: PublicCompany },
  "POST /api/companies": { auth: "super", body: CreateCompanyBody, response: PublicCompany },
  "GET /api/companies/{id}": { auth: "super", params: IdParams, response: PublicCompany },
  "PUT /api/companies/{id}": { auth: "super", params: IdParams, body: UpdateCompanyBody, response: PublicCompany },
  /** The company's weekly hours and time zone (docs/product/business-hours.md): an admin of that company, or a super user. */
  "PUT /api/companies/{id}/schedules": { auth: "admin", params: IdParams, body: UpdateSchedulesBody, response: CompanyItem.pick({ id: true, schedules: true, timezone: true }) },
});
