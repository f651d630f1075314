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

const count = z.number().int("Deve ser um número inteiro").min(0, "Não pode ser negativo").max(100_000);
const flag = z.boolean();

/** A plan's writable fields as the API takes them (`value` in reais, stored in cents). */
const PlanFields = z.object({
  name: z.string().trim().min(1, "Obrigatório").max(100),
  users: count,
  connections: count,
  queues: count,
  value: z.number().min(0, "Não pode ser negativo").max(1_000_000),
  useCampaigns: flag,
  useKanban: flag,
  useOpenAi: flag,
  useIntegrations: flag,
  useSchedules: flag,
  useInternalChat: flag,
  useExternalApi: flag,
  useInternal: flag,
});

/**
 * `POST /api/plans`: a plan's name (required, unique), its counts of users, connections and queues (0 unless given),
 * `value` in reais and its flags (off unless given; `useInternal` on).
 */
export const CreatePlanBody = PlanFields.extend({
  users: count.default(0),
  connections: count.default(0),
  queues: count.default(0),
  value: PlanFields.shape.value.default(0),
  useCampaigns: flag.default(false),
  useKanban: flag.default(false),
  useOpenAi: flag.default(false),
  useIntegrations: flag.default(false),
  useSchedules: flag.default(false),
  useInternalChat: flag.default(false),
  useExternalApi: flag.default(false),
  useInternal: flag.default(true),
});
export type CreatePlanBody = z.infer<typeof CreatePlanBody>;

/** `PUT /api/plans/{id}`: any of the plan's fields; those left out keep their value. */
export const UpdatePlanBody = PlanFields.partial();
export type UpdatePlanBody = z.infer<typeof UpdatePlanBody>;
