/**
 * Plans area: the public plan lists (sign-up reads them) and the super user's CRUD, `value` in reais.
 * Contract: `shared/src/plans/contract.ts`.
 */
import { createPlan, deletePlan, listPublicPlans, requirePlan, toPublicPlan, updatePlan } from "@atende/shared/plans/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("plans", {
  "GET /api/plans/list": async () => listPublicPlans(),
  "GET /api/plans/register": async () => listPublicPlans(),
  "GET /api/plans/all": async () => listPublicPlans(),
  "GET /api/plans/{id}": async ({ params }) => toPublicPlan(await requirePlan(params.id)),
  "POST /api/plans": async ({ body }) => createPlan(body),
  "PUT /api/plans/{id}": async ({ params, body }) => updatePlan(params.id, body),
  "DELETE /api/plans/{id}": async ({ params }) => deletePlan(params.id),
});
