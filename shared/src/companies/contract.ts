/**
 * Companies operations: listPlan for any user of the company (any company for super users); the super user's list,
 * create, show, update and delete; the public sign-up (docs/product/companies.md).
 */
import { z } from "zod";
import { zId } from "../common.ts";
import { defineRoutes, IdParams, MessageReply } from "../contract.ts";
import { JobStarted } from "../jobs/schema.ts";
import { PublicPlan } from "../plans/contract.ts";
import { CompanyItem, CreateCompanyBody, ListCompaniesQuery, SignupBody, UpdateCompanyBody, UpdateSchedulesBody } from "./schema.ts";

/** A company as the API shows it, with its plan and its `campaignsEnabled` setting. */
export const PublicCompany = CompanyItem.extend({ plan: PublicPlan.nullable(), campaignsEnabled: z.boolean() });

/** `GET /api/companies`: one page of companies. */
export const CompaniesPage = z.object({ companies: z.array(PublicCompany), count: z.number().int(), hasMore: z.boolean() });

export const companiesRoutes = defineRoutes("companies", {
  "GET /api/companies/listPlan/{companyId}": { auth: "user", params: z.object({ companyId: zId }), response: PublicCompany },
  "GET /api/companies": { auth: "super", query: ListCompaniesQuery, response: CompaniesPage },
  "GET /api/companies/list": { auth: "super", response: z.array(PublicCompany) },
  "POST /api/companies": { auth: "super", body: CreateCompanyBody, response: PublicCompany },
  /** Public sign-up (docs/product/companies.md#sign-up): throttled, refused while registration is disabled. */
  "POST /api/companies/cadastro": { auth: "public", body: SignupBody, response: MessageReply },
  "GET /api/companies/{id}": { auth: "super", params: IdParams, response: PublicCompany },
  "PUT /api/companies/{id}": { auth: "super", params: IdParams, body: UpdateCompanyBody, response: PublicCompany },
  /** Starts removing the company and all its data in the background (202 with the job to follow). */
  "DELETE /api/companies/{id}": { auth: "super", params: IdParams, response: JobStarted },
  /** The company's weekly hours and time zone (docs/product/business-hours.md): an admin of that company, or a super user. */
  "PUT /api/companies/{id}/schedules": { auth: "admin", params: IdParams, body: UpdateSchedulesBody, response: CompanyItem.pick({ id: true, schedules: true, timezone: true }) },
});
