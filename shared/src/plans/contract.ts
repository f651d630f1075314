/** Plans operations: the public list (sign-up reads it), `value` in reais. */
import { z } from "zod";
import { defineRoutes } from "../contract.ts";
import { PlanItem } from "./schema.ts";

/** A plan as the API shows it: the item plus `value` in reais. */
export const PublicPlan = PlanItem.extend({ value: z.number() });

export const plansRoutes = defineRoutes("plans", {
  "GET /api/plans/list": { auth: "public", response: z.array(PublicPlan) },
});
