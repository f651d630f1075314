/**
 * Companies (minimal, and super only except `listPlan`).
 *
 * - `createCompany` writes, in one transaction, the company (listed through GSI1 `COMPANIES`), its first admin
 *   (named after the company, with the given email and password) with the global email marker, and the default settings.
 * - `dueDate` is stored as an ISO-8601 UTC string (a date alone means midnight UTC) or null (never expires);
 *   login enforces it (see `auth/service.ts`).
 */
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { getPlan, planFlags, requirePlan, toPublicPlan, type PublicPlan } from "../plans/service.ts";
import { PLAN_FLAGS, type PlanFlag } from "../plans/schema.ts";
import { DEFAULT_TIME_ZONE } from "../automation/variables.ts";
import { DEFAULT_SCHEDULES } from "../queues/schema.ts";
import { getCompanySettings, visibleSettings, type SettingsMap } from "../settings/service.ts";
import type { SettingKey } from "../settings/schema.ts";
import { hashPassword } from "../users/service.ts";
import type { UserItem } from "../users/schema.ts";
import { getEmailOwner } from "../users/repository.ts";
import { getCompany, putNewCompany, updateCompanyFields } from "./repository.ts";
import type { CompanyItem, CreateCompanyBody, UpdateCompanyBody } from "./schema.ts";

export { getCompany };

/** A company as the API returns it, with its plan (`value` in reais). */
export type PublicCompany = CompanyItem & { plan: PublicPlan | null };

/** Reads one company or throws 404 `ERR_NO_COMPANY_FOUND`. */
export async function requireCompany(companyId: number): Promise<CompanyItem> {
  const c = await getCompany(companyId);
  if (!c) throw new AppError("ERR_NO_COMPANY_FOUND");
  return c;
}

async function toPublicCompany(c: CompanyItem): Promise<PublicCompany> {
  const plan = await requirePlan(c.planId).then(toPublicPlan, () => null);
  return { ...c, plan };
}

const GATE_CACHE_MS = 5_000;
const gateCache = new Map<number, { at: number; gate: CompanyGate | null }>();

/** What every authenticated request of a company is checked against: its status, due date and plan flags. */
export interface CompanyGate {
  status: boolean;
  dueDate: string | null;
  flags: Record<PlanFlag, boolean>;
}

/**
 * The company's {@link CompanyGate}, or null when the company is gone. Read once per {@link GATE_CACHE_MS} per
 * process, so a status, due-date or plan change reaches every Lambda within 5 s.
 */
export async function companyGate(companyId: number): Promise<CompanyGate | null> {
  const now = Date.now();
  const hit = gateCache.get(companyId);
  if (hit && now - hit.at < GATE_CACHE_MS) return hit.gate;
  const company = await getCompany(companyId);
  const plan = company ? await getPlan(company.planId) : undefined;
  const flags = plan ? planFlags(plan) : (Object.fromEntries(PLAN_FLAGS.map((f) => [f, false])) as Record<PlanFlag, boolean>);
  const gate = company ? { status: company.status, dueDate: company.dueDate, flags } : null;
  if (gateCache.size >= 10_000) gateCache.delete(gateCache.keys().next().value!);
  gateCache.set(companyId, { at: now, gate });
  return gate;
}

/** Normalizes an API due date (ISO date-time or `yyyy-mm-dd`) to an ISO-8601 UTC string; null/undefined kept. */
export function normalizeDueDate(d: string | null | undefined): string | null | undefined {
  if (d == null) return d;
  return new Date(d).toISOString();
}

/**
 * The company block of the logged-in user (login, refresh, me): `{id, name, dueDate, settings: [{key, value}]}`
 * (settings filtered for the caller as `GET /api/settings` does).
 */
export async function companySummary(
  companyId: number,
  caller: Pick<AuthContext, "profile" | "super">,
): Promise<{ id: number; name: string; dueDate: string | null; settings: { key: SettingKey; value: string }[] }> {
  const c = await requireCompany(companyId);
  return { id: c.id, name: c.name, dueDate: c.dueDate, settings: visibleSettings(await getCompanySettings(companyId), caller) };
}

/**
 * `GET /api/companies/listPlan/{companyId}`: the company with its plan and flags. A caller who is not super may read
 * only their own company (403 `ERR_NO_PERMISSION`). Missing company → 404 `ERR_NO_COMPANY_FOUND`.
 */
export async function listPlanOfCompany(auth: AuthContext, companyId: number): Promise<PublicCompany> {
  if (!can(auth, "companies:anyCompany") && companyId !== auth.companyId) throw new AppError("ERR_NO_PERMISSION");
  return toPublicCompany(await requireCompany(companyId));
}

/** `GET /api/companies/{id}` (super): one company with its plan. */
export async function showCompany(auth: AuthContext, companyId: number): Promise<PublicCompany> {
  if (!can(auth, "companies:manage")) throw new AppError("ERR_NO_PERMISSION");
  return toPublicCompany(await requireCompany(companyId));
}

/**
 * `POST /api/companies` (super): creates the company, its first admin (email and password from the body) and the
 * default settings in one transaction. Unknown plan → 404 `ERR_NO_PLAN_FOUND`; email taken → 409 `ERR_EMAIL_ALREADY_EXISTS`.
 * `settingOverrides` replaces default values (the local seed uses it).
 */
export async function createCompany(
  auth: Pick<AuthContext, "profile" | "super"> | "system",
  body: CreateCompanyBody,
  opts: { settingOverrides?: Partial<SettingsMap>; adminName?: string; adminSuper?: boolean; companyId?: number } = {},
): Promise<{ company: PublicCompany; adminUserId: number }> {
  if (auth !== "system" && !can(auth, "companies:manage")) throw new AppError("ERR_NO_PERMISSION");
  await requirePlan(body.planId);
  // Checked before the id counters (a refused company takes no id); the email marker still settles a race.
  if (await getEmailOwner(body.email)) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
  const now = new Date().toISOString();
  const companyId = opts.companyId ?? (await nextId("GLOBAL", "company"));
  const company: CompanyItem = {
    id: companyId,
    name: body.name,
    email: body.email,
    phone: body.phone,
    planId: body.planId,
    status: body.status,
    dueDate: normalizeDueDate(body.dueDate) ?? null,
    recurrence: body.recurrence,
    timezone: DEFAULT_TIME_ZONE,
    schedules: DEFAULT_SCHEDULES.map((d) => ({ ...d })),
    createdAt: now,
    updatedAt: now,
  };
  const admin: UserItem = {
    id: await nextId(companyId, "user"),
    companyId,
    name: opts.adminName ?? body.name.slice(0, 50),
    email: body.email,
    passwordHash: await hashPassword(body.password),
    profile: "admin",
    super: opts.adminSuper ?? false,
    online: false,
    allTicket: "desabled",
    whatsappId: null,
    queueIds: [],
    tokenVersion: 0,
    createdAt: now,
    updatedAt: now,
  };
  await putNewCompany(company, admin, opts.settingOverrides);
  return { company: await toPublicCompany(company), adminUserId: admin.id };
}

/** `PUT /api/companies/{id}` (super): changes the given fields (dueDate included). Unknown plan → 404 `ERR_NO_PLAN_FOUND`. */
export async function updateCompany(auth: AuthContext, companyId: number, body: UpdateCompanyBody): Promise<PublicCompany> {
  if (!can(auth, "companies:manage")) throw new AppError("ERR_NO_PERMISSION");
  await requireCompany(companyId);
  if (body.planId !== undefined) await requirePlan(body.planId);
  const set: Record<string, unknown> = { ...body };
  if (body.dueDate !== undefined) set.dueDate = normalizeDueDate(body.dueDate);
  const updated = await updateCompanyFields(companyId, set);
  gateCache.delete(companyId);
  return toPublicCompany(updated);
}
