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
import { listPlans, requirePlan, toPublicPlan, type PublicPlan } from "../plans/service.ts";
import { DEFAULT_TIME_ZONE } from "../automation/variables.ts";
import { DEFAULT_SCHEDULES } from "../queues/schema.ts";
import { getCompanySettings, getSetting, visibleSettings, type SettingsMap } from "../settings/service.ts";
import { putSetting } from "../settings/repository.ts";
import type { SettingKey } from "../settings/schema.ts";
import { hashPassword } from "../users/service.ts";
import type { UserItem } from "../users/schema.ts";
import { getEmailOwner } from "../users/repository.ts";
import { getCompany, listCompanyItems, putNewCompany, updateCompanyFields } from "./repository.ts";
import { startJob } from "../jobs/service.ts";
import type { JobView } from "../jobs/schema.ts";
import { listWhatsappItems } from "../whatsapp/repository.ts";
import { sendSessionCommand } from "../whatsapp/commands.ts";
import "./purge.ts";
import { sortedWeek } from "./schedules.ts";
import { forgetCompanyGate } from "./gate.ts";

export { companyGate, companyTimeZone, type CompanyGate } from "./gate.ts";
import type { CompanyItem, CreateCompanyBody, ListCompaniesQuery, UpdateCompanyBody } from "./schema.ts";
import "./errors.ts";

export { getCompany };

/** A company as the API returns it, with its plan (`value` in reais) and its `campaignsEnabled` setting. */
export type PublicCompany = CompanyItem & { plan: PublicPlan | null; campaignsEnabled: boolean };

/** Reads one company or throws 404 `ERR_NO_COMPANY_FOUND`. */
export async function requireCompany(companyId: number): Promise<CompanyItem> {
  const c = await getCompany(companyId);
  if (!c) throw new AppError("ERR_NO_COMPANY_FOUND");
  return c;
}

async function toPublicCompany(c: CompanyItem, plans?: Map<number, PublicPlan | null>): Promise<PublicCompany> {
  const plan = plans?.has(c.planId) ? plans.get(c.planId)! : await requirePlan(c.planId).then(toPublicPlan, () => null);
  return { ...c, plan, campaignsEnabled: (await getSetting(c.id, "campaignsEnabled")) === "true" };
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
  body: Omit<CreateCompanyBody, "campaignsEnabled"> & { campaignsEnabled?: boolean },
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
    ...billingOf(body),
    timezone: DEFAULT_TIME_ZONE,
    schedules: body.schedules ? sortedWeek(body.schedules) : DEFAULT_SCHEDULES.map((d) => ({ ...d })),
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
  await putNewCompany(company, admin, { campaignsEnabled: body.campaignsEnabled ? "true" : "false", ...opts.settingOverrides });
  return { company: await toPublicCompany(company), adminUserId: admin.id };
}

/** `PUT /api/companies/{id}` (super): changes the given fields (dueDate included). Unknown plan → 404 `ERR_NO_PLAN_FOUND`. */
export async function updateCompany(auth: AuthContext, companyId: number, body: UpdateCompanyBody): Promise<PublicCompany> {
  if (!can(auth, "companies:manage")) throw new AppError("ERR_NO_PERMISSION");
  await requireCompany(companyId);
  if (body.planId !== undefined) await requirePlan(body.planId);
  const { campaignsEnabled, ...fields } = body;
  const set: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (body.dueDate !== undefined) set.dueDate = normalizeDueDate(body.dueDate);
  if (body.schedules) set.schedules = sortedWeek(body.schedules);
  set.updatedAt = new Date().toISOString();
  const updated = await updateCompanyFields(companyId, set);
  if (campaignsEnabled !== undefined) await putSetting({ key: "campaignsEnabled", value: String(campaignsEnabled), companyId, updatedAt: set.updatedAt as string });
  forgetCompanyGate(companyId);
  return toPublicCompany(updated);
}


/** The billing fields of a body, empty strings for those not given. */
function billingOf(b: Partial<Pick<CompanyItem, "billingName" | "addressZipCode" | "addressStreet" | "addressState" | "addressCity" | "addressDistrict">>) {
  return {
    billingName: b.billingName ?? "",
    addressZipCode: b.addressZipCode ?? "",
    addressStreet: b.addressStreet ?? "",
    addressState: b.addressState ?? "",
    addressCity: b.addressCity ?? "",
    addressDistrict: b.addressDistrict ?? "",
  };
}

/** Number of companies per page of `GET /api/companies`. */
export const COMPANIES_PAGE_SIZE = 20;

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Every company with its plan, by id (plans read once). */
async function allPublicCompanies(): Promise<PublicCompany[]> {
  const [companies, plans] = await Promise.all([listCompanyItems(), listPlans()]);
  const byId = new Map<number, PublicPlan | null>(plans.map((p) => [p.id, toPublicPlan(p)]));
  return Promise.all(companies.map((c) => toPublicCompany(c, byId)));
}

/**
 * `GET /api/companies` (super): one page of {@link COMPANIES_PAGE_SIZE} companies by id whose name, email or phone
 * contains `searchParam` (case and accents ignored) → `{companies, count, hasMore}`.
 */
export async function pageCompanies(auth: AuthContext, q: ListCompaniesQuery): Promise<{ companies: PublicCompany[]; count: number; hasMore: boolean }> {
  if (!can(auth, "companies:manage")) throw new AppError("ERR_NO_PERMISSION");
  const term = fold(q.searchParam ?? "");
  const all = (await listCompanyItems()).filter((c) => !term || [c.name, c.email, c.phone].some((f) => fold(f).includes(term)));
  const from = (q.pageNumber - 1) * COMPANIES_PAGE_SIZE;
  const slice = all.slice(from, from + COMPANIES_PAGE_SIZE);
  const plans = new Map<number, PublicPlan | null>((await listPlans()).map((p) => [p.id, toPublicPlan(p)]));
  return { companies: await Promise.all(slice.map((c) => toPublicCompany(c, plans))), count: all.length, hasMore: from + slice.length < all.length };
}

/** `GET /api/companies/list` (super): every company with its plan, by id. */
export async function listAllCompanies(auth: AuthContext): Promise<PublicCompany[]> {
  if (!can(auth, "companies:manage")) throw new AppError("ERR_NO_PERMISSION");
  return allPublicCompanies();
}

/**
 * `DELETE /api/companies/{id}` (super; docs/product/companies.md#deleting-a-company): refuses the caller's own company
 * (400 `ERR_CANNOT_DELETE_OWN_COMPANY`); marks the company `deleting` (its users are refused from now on), asks the
 * session runner to log each connection out, then starts the background `deleteCompany` job (see `purge.ts`).
 * Returns the job to follow. Unknown company → 404 `ERR_NO_COMPANY_FOUND`.
 */
export async function deleteCompany(auth: AuthContext, companyId: number): Promise<JobView> {
  if (!can(auth, "companies:manage")) throw new AppError("ERR_NO_PERMISSION");
  if (companyId === auth.companyId) throw new AppError("ERR_CANNOT_DELETE_OWN_COMPANY");
  await requireCompany(companyId);
  await updateCompanyFields(companyId, { deleting: true, status: false, updatedAt: new Date().toISOString() });
  forgetCompanyGate(companyId);
  for (const w of await listWhatsappItems(companyId)) await sendSessionCommand({ type: "disconnect", companyId, whatsappId: w.id });
  return startJob(auth.companyId, auth.userId, "deleteCompany", { companyId });
}
