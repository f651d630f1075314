/**
 * Plans area (administration.md §3 Plan, §7; issue 2 §4): the public plan list (sign-up reads it), `value` in reais.
 */
import { listPublicPlans } from "@atende/shared/plans/service";
import { areaHandler, route } from "./core/http.ts";

export const handler = areaHandler("plans", {
  "GET /api/plans/list": route({
    handler: async () => listPublicPlans(),
  }),
});
