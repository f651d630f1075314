/**
 * Plans operations, `value` in reais: the public lists (`list`, and `register` for the sign-up page), and the super
 * user's CRUD (docs/product/plans.md).
 */
import { z } from "zod";
import { defineRoutes, IdParams, MessageReply } from "../contract.ts";
import { CreatePlanBody, PlanItem, UpdatePlanBody } from "./schema.ts";

/** A plan as the API shows it: the item plus `value` in reais. */
export const PublicPlan = PlanItem.extend({ value: z.number() });

export const plansRoutes = defineRoutes("plans", {
  "GET /api/plans/list": { auth: "public", response: z.array(PublicPlan) },
  "GET /api/plans/register": { auth: "public", response: z.array(PublicPlan) },
  "GET /api/plans/all": { auth: "super", response: z.array(PublicPlan) },
  "GET /api/plans/{id}": { auth: "super", params: IdParams, response: PublicPlan },
  "POST /api/plans": { auth: "super", body: CreatePlanBody, response: PublicPlan },
  "PUT /api/plans/{id}": { auth: "super", params: IdParams, body: UpdatePlanBody, response: PublicPlan },
  "DELETE /api/plans/{id}": { auth: "super", params: IdParams, response: MessageReply },
});
