/**
 * Company entity (administration.md §3 Company) and the minimal super-only payloads of issue 2 §4.
 */
import { z } from "zod";

export const Recurrence = z.enum(["MENSAL", "BIMESTRAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"]);

export const CompanyItem = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().default(""),
  phone: z.string().default(""),
  planId: z.number().int(),
  status: z.boolean().default(true),
  /** ISO date-time; login is refused once it is past (attendance.md §5). */
  dueDate: z.string().nullable(),
  recurrence: Recurrence.default("MENSAL"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CompanyItem = z.infer<typeof CompanyItem>;

/** POST /api/companies (super): also creates the first admin with this email and password, and default settings. */
export const CreateCompanyBody = z.object({
  name: z.string().trim().min(2).max(100),
  email: z.string().trim().email("Invalid email"),
  phone: z.string().trim().max(30).default(""),
  password: z.string().min(5).max(50),
  planId: z.coerce.number().int().positive(),
  dueDate: z.string().datetime({ offset: true }).or(z.string().date()).nullable().optional(),
  recurrence: Recurrence.default("MENSAL"),
  status: z.boolean().default(true),
});
export const UpdateCompanyBody = CreateCompanyBody.omit({ password: true }).partial();
