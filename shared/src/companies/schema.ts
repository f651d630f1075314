/**
 * Company entity and the minimal super-only payloads (create, show, update).
 */
import { z } from "zod";
import { zId } from "../common.ts";
import { DEFAULT_SCHEDULES, QueueSchedule } from "../queues/schema.ts";
import { DEFAULT_TIME_ZONE } from "../automation/variables.ts";

export const Recurrence = z.enum(["MENSAL", "BIMESTRAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"]);

export const CompanyItem = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().default(""),
  phone: z.string().default(""),
  planId: z.number().int(),
  status: z.boolean().default(true),
  /** ISO date-time; login is refused once it is past (docs/product/users.md#sessions). */
  dueDate: z.string().nullable(),
  recurrence: Recurrence.default("MENSAL"),
  /** IANA time zone of the company's business hours and message variables (docs/product/business-hours.md). */
  timezone: z.string().default(DEFAULT_TIME_ZONE),
  /** Company business hours (`scheduleType` = company), Monday to Sunday. */
  schedules: z.array(QueueSchedule).default(() => DEFAULT_SCHEDULES.map((s) => ({ ...s }))),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CompanyItem = z.infer<typeof CompanyItem>;

const dueDate = z
  .union([z.literal("").transform(() => null), z.string().datetime({ offset: true }), z.string().date()])
  .nullable();

/** POST /api/companies (super): also creates the first admin with this email and password, and default settings. */
export const CreateCompanyBody = z.object({
  name: z.string().trim().min(2, "Too Short!").max(100, "Too Long!"),
  email: z.string().trim().email("Invalid email").max(200),
  phone: z.string().trim().max(30).default(""),
  password: z.string().min(5, "Too Short!").max(50, "Too Long!"),
  planId: zId,
  dueDate: dueDate.optional(),
  recurrence: Recurrence.default("MENSAL"),
  status: z.boolean().default(true),
});
export type CreateCompanyBody = z.infer<typeof CreateCompanyBody>;

/** PUT /api/companies/{id} (super): every field optional, absent = unchanged (no defaults applied). */
export const UpdateCompanyBody = z.object({
  name: z.string().trim().min(2, "Too Short!").max(100, "Too Long!").optional(),
  email: z.string().trim().email("Invalid email").max(200).optional(),
  phone: z.string().trim().max(30).optional(),
  planId: zId.optional(),
  dueDate: dueDate.optional(),
  recurrence: Recurrence.optional(),
  status: z.boolean().optional(),
});
export type UpdateCompanyBody = z.infer<typeof UpdateCompanyBody>;

/** True when `tz` is an IANA time zone name this runtime knows (e.g. America/Sao_Paulo). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return tz.includes("/") || tz === "UTC";
  } catch {
    return false;
  }
}

/**
 * PUT /api/companies/{id}/schedules: the company's weekly hours, one entry per
 * weekday (Monday to Sunday, `weekdayEn` unique), and optionally its IANA time zone. `id`, when given, must match the path.
 */
export const UpdateSchedulesBody = z.object({
  id: zId.optional(),
  schedules: z
    .array(QueueSchedule)
    .length(7, "Seven days required")
    .refine((xs) => new Set(xs.map((x) => x.weekdayEn.toLowerCase())).size === 7, "One entry per weekday"),
  timezone: z.string().trim().max(64).refine(isTimeZone, "Invalid time zone").optional(),
});
export type UpdateSchedulesBody = z.infer<typeof UpdateSchedulesBody>;
