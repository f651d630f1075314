/**
 * Company entity and the minimal super-only payloads (create, show, update).
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";
import { DEFAULT_SCHEDULES, QueueSchedule } from "../queues/schema.ts";
import { DEFAULT_TIME_ZONE } from "../automation/variables.ts";
import { RECURRENCE_MONTHS, type RecurrenceName } from "./recurrence.ts";

/** A company's billing period (its months: `recurrence.ts`). */
export const Recurrence = z.enum(Object.keys(RECURRENCE_MONTHS) as [RecurrenceName, ...RecurrenceName[]]);

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
  /** Billing details shown on invoices (docs/product/companies.md). */
  billingName: z.string().default(""),
  addressZipCode: z.string().default(""),
  addressStreet: z.string().default(""),
  addressState: z.string().default(""),
  addressCity: z.string().default(""),
  addressDistrict: z.string().default(""),
  /** Set while the company's data is being removed (docs/product/companies.md#deleting-a-company): refused everywhere. */
  deleting: z.boolean().optional(),
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

const billing = {
  billingName: z.string().trim().max(100).optional(),
  addressZipCode: z.string().trim().max(20).optional(),
  addressStreet: z.string().trim().max(200).optional(),
  addressState: z.string().trim().max(50).optional(),
  addressCity: z.string().trim().max(100).optional(),
  addressDistrict: z.string().trim().max(100).optional(),
};
/** The company's weekly hours as the company form sends them (seven entries, one per weekday). */
const schedulesField = z
  .array(QueueSchedule)
  .length(7, "Seven days required")
  .refine((xs) => new Set(xs.map((x) => x.weekdayEn.toLowerCase())).size === 7, "One entry per weekday");

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
  /** Kept as the company's setting `campaignsEnabled` ("true"/"false"). */
  campaignsEnabled: z.boolean().default(false),
  schedules: schedulesField.optional(),
  ...billing,
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
  campaignsEnabled: z.boolean().optional(),
  schedules: schedulesField.optional(),
  ...billing,
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
  schedules: schedulesField,
  timezone: z.string().trim().max(64).refine(isTimeZone, "Invalid time zone").optional(),
});
export type UpdateSchedulesBody = z.infer<typeof UpdateSchedulesBody>;

/** `GET /api/companies` (super): `searchParam` (name, email or phone, any part, case and accents ignored) and the 1-based page. */
export const ListCompaniesQuery = z.object({ searchParam: z.string().trim().max(100).optional(), pageNumber: zPageNumber });
export type ListCompaniesQuery = z.infer<typeof ListCompaniesQuery>;

/** A phone as the sign-up form sends it: the mask `(99) 99999-9999` or digits, at most 11 digits once unmasked. */
const signupPhone = z
  .string()
  .trim()
  .transform((s) => s.replace(/\D+/g, ""))
  .refine((d) => d.length <= 11, "Phone too long");

/**
 * `POST /api/companies/cadastro` (public sign-up): the company and its first admin. `recurrence`, `status`,
 * `dueDate` and `campaignsEnabled` may be sent (the page sends them) but are ignored: a sign-up always gets
 * MENSAL, active, campaigns on and the trial period (docs/product/companies.md#sign-up).
 */
export const SignupBody = z.object({
  name: z.string().trim().min(2, "Too Short!").max(50, "Too Long!"),
  email: z.string().trim().email("Invalid email").max(200),
  phone: signupPhone.default(""),
  password: z.string().min(5, "Too Short!").max(50, "Too Long!"),
  planId: zId,
  recurrence: z.unknown().optional(),
  dueDate: z.unknown().optional(),
  status: z.unknown().optional(),
  campaignsEnabled: z.unknown().optional(),
  companyId: z.unknown().optional(),
});
export type SignupBody = z.infer<typeof SignupBody>;
