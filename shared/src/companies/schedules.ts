/**
 * Company business hours (the Settings page's "Horários", `PUT /companies/{id}/schedules`; docs/product/business-hours.md):
 * the weekly schedules used when setting `scheduleType` is `company`, and the company's IANA time zone in which
 * hours are evaluated.
 */
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { AppError } from "../errors.ts";
import { forgetCompanyGate } from "./gate.ts";
import { updateCompanyFields } from "./repository.ts";
import type { CompanyItem, UpdateSchedulesBody } from "./schema.ts";

const DAY_ORDER = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** The seven weekly entries Monday first, `weekdayEn` lower case. */
export function sortedWeek<T extends { weekdayEn: string }>(schedules: T[]): T[] {
  return schedules.map((s) => ({ ...s, weekdayEn: s.weekdayEn.toLowerCase() })).sort((a, b) => DAY_ORDER.indexOf(a.weekdayEn) - DAY_ORDER.indexOf(b.weekdayEn));
}

/**
 * `PUT /api/companies/{id}/schedules`: stores the seven weekly entries (Monday first) and, when given, the time zone.
 * An admin may change only their own company (another id → 403 `ERR_NO_PERMISSION`, nothing written); a super user
 * any company. `id` in the body differing from the path → 400 `ERR_VALIDATION`. Unknown company → 404.
 * Returns `{id, schedules, timezone}`.
 */
export async function updateCompanySchedules(
  auth: AuthContext,
  companyId: number,
  body: UpdateSchedulesBody,
): Promise<Pick<CompanyItem, "id" | "schedules" | "timezone">> {
  if (body.id !== undefined && body.id !== companyId) {
    throw new AppError("ERR_VALIDATION", { fields: [{ path: "id", message: "id differs from the path" }] });
  }
  if (!can(auth, "companies:anyCompany") && (!can(auth, "company-schedules:edit") || auth.companyId !== companyId)) throw new AppError("ERR_NO_PERMISSION");
  const schedules = sortedWeek(body.schedules);
  const set: Record<string, unknown> = { schedules, updatedAt: new Date().toISOString() };
  if (body.timezone) set.timezone = body.timezone;
  const c = await updateCompanyFields(companyId, set);
  forgetCompanyGate(companyId); // the time zone the dashboard and reports read in
  return { id: c.id, schedules: c.schedules, timezone: c.timezone };
}
