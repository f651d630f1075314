/**
 * Plans area: the public plan list (sign-up reads it), `value` in reais.
 * Contract: `shared/src/plans/contract.ts`.
 */
import { listPublicPlans } from "@atende/shared/plans/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("plans", {
  "GET /api/plans/list": async () => listPublicPlans(),
});
