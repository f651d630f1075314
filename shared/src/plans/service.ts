/**
 * Plans. Plans are global items `PLANS` / `PLAN#<id>`; money is stored in
 * BRL cents (`valueCents`) and the API also returns `value` in reais (e.g. 3000 → 30).
 */
import { AppError } from "../errors.ts";
import { nextId } from "../db/counters.ts";
import { deletePlanItem, getPlan, listPlans, planInUse, putNewPlan, replacePlan } from "./repository.ts";
import { PLAN_FLAGS, type CreatePlanBody, type PlanItem, type UpdatePlanBody } from "./schema.ts";

export { getPlan, listPlans };

/** A plan as the API returns it: the stored fields plus `value` in reais. */
export type PublicPlan = PlanItem & { value: number };

/** Adds `value` (reais) to a stored plan. */
export const toPublicPlan = (p: PlanItem): PublicPlan => ({ ...p, value: p.valueCents / 100 });

/** The plan's feature flags only (`useCampaigns`, `useKanban`, ...). */
export const planFlags = (p: PlanItem) => Object.fromEntries(PLAN_FLAGS.map((f) => [f, p[f]])) as Record<(typeof PLAN_FLAGS)[number], boolean>;

/** Reads one plan or throws 404 `ERR_NO_PLAN_FOUND`. */
export async function requirePlan(planId: number): Promise<PlanItem> {
  const p = await getPlan(planId);
  if (!p) throw new AppError("ERR_NO_PLAN_FOUND");
  return p;
}

/** `GET /api/plans/list` (public: the sign-up page reads it): every plan with `value` in reais. */
export async function listPublicPlans(): Promise<PublicPlan[]> {
  return (await listPlans()).map(toPublicPlan);
}

export { type PlanLimit, planSlot, planSlotRelease, withPlanSlot } from "./limits.ts";

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase("pt-BR") === b.trim().toLocaleLowerCase("pt-BR");

/** Refuses a name another plan has (case-insensitive): 409 `ERR_PLAN_NAME_ALREADY_EXISTS`. */
async function requireFreeName(name: string, exceptId?: number): Promise<void> {
  if ((await listPlans()).some((p) => p.id !== exceptId && sameName(p.name, name))) throw new AppError("ERR_PLAN_NAME_ALREADY_EXISTS");
}

/** The stored fields of a plan body: `value` (reais) becomes `valueCents`. */
function storedFields(body: UpdatePlanBody): Partial<PlanItem> {
  const { value, ...rest } = body;
  return { ...rest, ...(value !== undefined ? { valueCents: Math.round(value * 100) } : {}) };
}

/** `POST /api/plans` (super): a new plan; a taken name → 409 `ERR_PLAN_NAME_ALREADY_EXISTS` (nothing written). */
export async function createPlan(body: CreatePlanBody): Promise<PublicPlan> {
  await requireFreeName(body.name);
  const now = new Date().toISOString();
  const plan: PlanItem = { ...(storedFields(body) as Omit<PlanItem, "id" | "createdAt" | "updatedAt">), id: await nextId("GLOBAL", "plan"), createdAt: now, updatedAt: now };
  await putNewPlan(plan);
  return toPublicPlan(plan);
}

/** `PUT /api/plans/{id}` (super): changes the given fields; 404 `ERR_NO_PLAN_FOUND`, 409 on a taken name. */
export async function updatePlan(planId: number, body: UpdatePlanBody): Promise<PublicPlan> {
  const before = await requirePlan(planId);
  if (body.name !== undefined && !sameName(body.name, before.name)) await requireFreeName(body.name, planId);
  const after: PlanItem = { ...before, ...storedFields(body), id: planId, updatedAt: new Date().toISOString() };
  await replacePlan(before, after);
  return toPublicPlan(after);
}

/**
 * `DELETE /api/plans/{id}` (super): removes a plan no company is on; one in use → 409 `ERR_PLAN_IN_USE` (move its
 * companies first); unknown → 404 `ERR_NO_PLAN_FOUND`.
 */
export async function deletePlan(planId: number): Promise<{ message: string }> {
  await requirePlan(planId);
  if (await planInUse(planId)) throw new AppError("ERR_PLAN_IN_USE");
  if (!(await deletePlanItem(planId))) throw new AppError("ERR_NO_PLAN_FOUND");
  return { message: "Plan deleted" };
}
