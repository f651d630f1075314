/**
 * Company business hours (administration.md §2 Settings "Horários", §7 `PUT /companies/{id}/schedules`; issue 9 §2):
 * the weekly schedules used when setting `scheduleType` is `company`, and the company's IANA time zone in which
 * hours are evaluated.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { AuthContext } from "../auth/tokens.ts";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { CompanyItem, type UpdateSchedulesBody } from "./schema.ts";

const DAY_ORDER = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

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
  if (!auth.super && (auth.profile !== "admin" || auth.companyId !== companyId)) throw new AppError("ERR_NO_PERMISSION", 403);
  const schedules = [...body.schedules]
    .map((s) => ({ ...s, weekdayEn: s.weekdayEn.toLowerCase() }))
    .sort((a, b) => DAY_ORDER.indexOf(a.weekdayEn) - DAY_ORDER.indexOf(b.weekdayEn));
  const set: Record<string, unknown> = { schedules, updatedAt: new Date().toISOString() };
  if (body.timezone) set.timezone = body.timezone;
  const entries = Object.entries(set);
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.company(companyId),
        UpdateExpression: `SET ${entries.map(([k]) => `#${k} = :${k}`).join(", ")}`,
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k]) => [`#${k}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([k, v]) => [`:${k}`, v])),
        ReturnValues: "ALL_NEW",
      }),
    );
    const c = CompanyItem.parse(out.Attributes);
    return { id: c.id, schedules: c.schedules, timezone: c.timezone };
  } catch (err) {
    if (isConditionFailed(err)) throw new AppError("ERR_NO_COMPANY_FOUND", 404);
    throw err;
  }
}
