/**
 * Plans (administration.md §3 Plan; issue 2 §4). Plans are global items `PLANS` / `PLAN#<id>`; money is stored in
 * BRL cents (`valueCents`) and the API also returns `value` in reais (e.g. 3000 → 30).
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { PLAN_FLAGS, PlanItem } from "./schema.ts";

/** A plan as the API returns it: the stored fields plus `value` in reais. */
export type PublicPlan = PlanItem & { value: number };

/** Adds `value` (reais) to a stored plan. */
export const toPublicPlan = (p: PlanItem): PublicPlan => ({ ...p, value: p.valueCents / 100 });

/** The plan's feature flags only (`useCampaigns`, `useKanban`, ...). */
export const planFlags = (p: PlanItem) => Object.fromEntries(PLAN_FLAGS.map((f) => [f, p[f]])) as Record<(typeof PLAN_FLAGS)[number], boolean>;

/** Reads one plan, or `undefined`. */
export async function getPlan(planId: number): Promise<PlanItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.plan(planId) }));
  return out.Item ? PlanItem.parse(out.Item) : undefined;
}

/** Reads one plan or throws 404 `ERR_NO_PLAN_FOUND`. */
export async function requirePlan(planId: number): Promise<PlanItem> {
  const p = await getPlan(planId);
  if (!p) throw new AppError("ERR_NO_PLAN_FOUND", 404);
  return p;
}

/** Every plan in id order. */
export async function listPlans(): Promise<PlanItem[]> {
  const { PK, SKPrefix } = keys.plansPrefix();
  return (await queryAllByPrefix(PK, SKPrefix)).map((it) => PlanItem.parse(it));
}

/** `GET /api/plans/list` (public: the sign-up page reads it): every plan with `value` in reais. */
export async function listPublicPlans(): Promise<PublicPlan[]> {
  return (await listPlans()).map(toPublicPlan);
}
