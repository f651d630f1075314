/**
 * Plans area (administration.md §3 Plan, §7; issue 2 §4): the public plan list (sign-up reads it), `value` in reais.
 * Contract: `shared/src/plans/contract.ts`.
 */
import { listPublicPlans } from "@atende/shared/plans/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("plans", {
  "GET /api/plans/list": async () => listPublicPlans(),
});
