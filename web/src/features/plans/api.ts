/**
 * Plans data (docs/product/plans.md), for the super user's Planos tab:
 * - `usePlanList()`: GET /api/plans/all → every plan, `value` in reais;
 * - `planCalls` (POST /api/plans, PUT /api/plans/{id}, DELETE /api/plans/{id}) run by `usePlanMutations()`.
 */
import { useQuery } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { arrayCache, useCrudMutations, type CrudCalls } from "../../ui/kit/crud.ts";

export type Plan = ResponseOf<"GET /api/plans/{id}">;
export type PlanForm = BodyOf<"POST /api/plans">;

export const plansCache = arrayCache<Plan>({ key: ["plans", "all"], sort: (a, b) => a.id - b.id });

export const usePlanList = () => useQuery({ queryKey: plansCache.key, queryFn: () => call("GET /api/plans/all") });

export const planCalls: CrudCalls<Plan, PlanForm> = {
  create: (form) => call("POST /api/plans", { body: form }),
  update: (id, form) => call("PUT /api/plans/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/plans/{id}", { params: { id } }),
};

export const usePlanMutations = () => useCrudMutations(planCalls, plansCache);
