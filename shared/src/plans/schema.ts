/**
 * Plan entity. Money in BRL cents (`valueCents`); the API also returns `value` in reais.
 */
import { z } from "zod";

export const PLAN_FLAGS = ["useCampaigns", "useKanban", "useOpenAi", "useIntegrations", "useSchedules", "useInternalChat", "useExternalApi"] as const;
/** One of a plan's feature flags. */
export type PlanFlag = (typeof PLAN_FLAGS)[number];

export const PlanItem = z.object({
  id: z.number().int(),
  name: z.string(),
  users: z.number().int(),
  connections: z.number().int(),
  queues: z.number().int(),
  valueCents: z.number().int(),
  useCampaigns: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
  useSchedules: z.boolean(),
  useInternalChat: z.boolean(),
  useExternalApi: z.boolean(),
  useInternal: z.boolean().default(true),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlanItem = z.infer<typeof PlanItem>;
