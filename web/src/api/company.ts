/**
 * Company-level data the shell needs: plan flags (`GET /api/companies/listPlan/{companyId}`) and the product
 * version (`GET /api/version`).
 */
import { useQuery } from "@tanstack/react-query";
import type { PlanFlag } from "../features/types.ts";
import { apiRequest } from "./client.ts";

export type PlanFlags = Partial<Record<PlanFlag, boolean>>;

export function usePlanFlags(companyId: number | undefined) {
  return useQuery({
    queryKey: ["plan", companyId],
    queryFn: () => apiRequest<PlanFlags & { plan?: PlanFlags }>("GET", `/companies/listPlan/${companyId}`),
    enabled: companyId !== undefined,
    staleTime: 5 * 60_000,
    select: (d) => (d && typeof d === "object" && d.plan && typeof d.plan === "object" ? d.plan : d) as PlanFlags,
  });
}

export function useVersion() {
  return useQuery({
    queryKey: ["version"],
    queryFn: () => apiRequest<{ version: string }>("GET", "/version"),
    staleTime: Infinity,
  });
}
