/**
 * The company's request gate: what every authenticated request of a company is checked against,
 * kept briefly per process.
 */
import { getPlan, planFlags } from "../plans/service.ts";
import { PLAN_FLAGS, type PlanFlag } from "../plans/schema.ts";
import { getCompany } from "./repository.ts";

const GATE_CACHE_MS = 5_000;
const gateCache = new Map<number, { at: number; gate: CompanyGate | null }>();

/**
 * What every authenticated request of a company is checked against: its status, due date and plan flags; and its time
 * zone (IANA name), which the dashboard and the reports read their days in.
 */
export interface CompanyGate {
  status: boolean;
  dueDate: string | null;
  flags: Record<PlanFlag, boolean>;
  timezone: string;
}

/**
 * The company's {@link CompanyGate}, or null when the company is gone. Read once per {@link GATE_CACHE_MS} per
 * process, so a status, due-date, plan or time-zone change reaches every Lambda within 5 s (this process: at once).
 */
export async function companyGate(companyId: number): Promise<CompanyGate | null> {
  const now = Date.now();
  const hit = gateCache.get(companyId);
  if (hit && now - hit.at < GATE_CACHE_MS) return hit.gate;
  const company = await getCompany(companyId);
  const plan = company ? await getPlan(company.planId) : undefined;
  const flags = plan ? planFlags(plan) : (Object.fromEntries(PLAN_FLAGS.map((f) => [f, false])) as Record<PlanFlag, boolean>);
  // A company being deleted is refused like one switched off.
  const gate = company ? { status: company.status && !company.deleting, dueDate: company.dueDate, flags, timezone: company.timezone || "UTC" } : null;
  if (gateCache.size >= 10_000) gateCache.delete(gateCache.keys().next().value!);
  gateCache.set(companyId, { at: now, gate });
  return gate;
}

/** Drops this process's copy of the company's gate (after a write of the company: the next request reads it again). */
export function forgetCompanyGate(companyId: number): void {
  gateCache.delete(companyId);
}

/** The company's time zone (IANA name; UTC when it has none or is gone), as its gate holds it ({@link companyGate}: read at most every 5 s). */
export async function companyTimeZone(companyId: number): Promise<string> {
  return (await companyGate(companyId))?.timezone || "UTC";
}
