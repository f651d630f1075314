/**
 * Plans. Plans are global items `PLANS` / `PLAN#<id>`; money is stored in
 * BRL cents (`valueCents`) and the API also returns `value` in reais (e.g. 3000 → 30).
 */
import { AppError } from "../errors.ts";
import { getPlan, listPlans } from "./repository.ts";
import { PLAN_FLAGS, type PlanItem } from "./schema.ts";

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
  if (!p) throw new AppError("ERR_NO_PLAN_FOUND", 404);
  return p;
}

/** `GET /api/plans/list` (public: the sign-up page reads it): every plan with `value` in reais. */
export async function listPublicPlans(): Promise<PublicPlan[]> {
  return (await listPlans()).map(toPublicPlan);
}
