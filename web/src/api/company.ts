/**
 * Company-level data the shell needs: plan flags (`GET /api/companies/listPlan/{companyId}`) and the product
 * version (`GET /api/version`).
 */
import { useQuery } from "@tanstack/react-query";
import type { PlanFlag } from "../features/types.ts";
import { call } from "./operations.ts";

export type PlanFlags = Partial<Record<PlanFlag, boolean>>;

export function usePlanFlags(companyId: number | undefined) {
  return useQuery({
    queryKey: ["plan", companyId],
    queryFn: () => call("GET /api/companies/listPlan/{companyId}", { params: { companyId: companyId! } }),
    enabled: companyId !== undefined,
    staleTime: 5 * 60_000,
    select: (d): PlanFlags => d.plan ?? {},
  });
}

export function useVersion() {
  return useQuery({
    queryKey: ["version"],
    queryFn: () => call("GET /api/version"),
    staleTime: Infinity,
  });
}
