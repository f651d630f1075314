/**
 * Plans. Plans are global items `PLANS` / `PLAN#<id>`; money is stored in
 * BRL cents (`valueCents`) and the API also returns `value` in reais (e.g. 3000 → 30).
 */
import { getCompany } from "../companies/repository.ts";
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
  if (!p) throw new AppError("ERR_NO_PLAN_FOUND");
  return p;
}

/** `GET /api/plans/list` (public: the sign-up page reads it): every plan with `value` in reais. */
export async function listPublicPlans(): Promise<PublicPlan[]> {
  return (await listPlans()).map(toPublicPlan);
}

/** What a plan counts: its `users`, `connections` and `queues` numbers. */
export type PlanLimit = "users" | "connections" | "queues";

const LIMIT_ERRORS = {
  users: "ERR_USER_CREATION_COUNT",
  connections: "ERR_CONNECTION_CREATION_COUNT",
  queues: "ERR_QUEUE_CREATION_COUNT",
} as const;

/**
 * Refuses one more `kind` for a company that already has `current` of them when its plan allows no more: 403
 * `ERR_USER_CREATION_COUNT` / `ERR_CONNECTION_CREATION_COUNT` / `ERR_QUEUE_CREATION_COUNT` with `{limit}`. Called
 * before anything is written. Two creations racing at the limit may both pass (the count is read, not reserved).
 */
export async function assertPlanRoom(companyId: number, kind: PlanLimit, current: number): Promise<void> {
  const company = await getCompany(companyId);
  const plan = company ? await getPlan(company.planId) : undefined;
  if (plan && current >= plan[kind]) throw new AppError(LIMIT_ERRORS[kind], { limit: plan[kind] });
}
