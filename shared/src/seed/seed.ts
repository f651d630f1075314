/**
 * First-start seed of the one-machine stack (the old system's first-start data): plan "Plano 1"
 * (10 users, 10 connections, 10 queues, R$ 30, every flag on), company "Empresa 1" due a year ahead, the super admin
 * `admin@admin.com` (name "Admin", profile admin, super) and the default settings. Idempotent: once the admin's
 * email exists the call changes nothing and returns `created: false`.
 */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { createCompany } from "../companies/service.ts";
import { ddb, tableName } from "../db/client.ts";
import { nextId } from "../db/counters.ts";
import { isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { listPlans } from "../plans/service.ts";
import type { PlanItem } from "../plans/schema.ts";
import { getEmailOwner } from "../users/repository.ts";

export const SEED_ADMIN_EMAIL = "admin@admin.com";
export const SEED_ADMIN_PASSWORD = "123456";
export const SEED_PLAN_NAME = "Plano 1";
export const SEED_COMPANY_NAME = "Empresa 1";

async function ensurePlan(): Promise<number> {
  const existing = (await listPlans()).find((p) => p.name === SEED_PLAN_NAME);
  if (existing) return existing.id;
  const now = new Date().toISOString();
  const plan: PlanItem = {
    id: await nextId("GLOBAL", "plan"),
    name: SEED_PLAN_NAME,
    users: 10,
    connections: 10,
    queues: 10,
    valueCents: 3000,
    useCampaigns: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    useInternal: true,
    createdAt: now,
    updatedAt: now,
  };
  await ddb()
    .send(new PutCommand({ TableName: tableName(), Item: { ...keys.plan(plan.id), _type: "plan", ...plan }, ConditionExpression: "attribute_not_exists(PK)" }))
    .catch((err) => {
      if (!isConditionFailed(err)) throw err;
    });
  return plan.id;
}

/**
 * Seeds the local stack (see module doc). `adminPassword` replaces the default `123456`.
 * Returns the seeded company id, the admin email and whether anything was created.
 */
export async function seedLocal(opts: { adminPassword?: string } = {}): Promise<{ companyId: number; adminEmail: string; created: boolean }> {
  const owner = await getEmailOwner(SEED_ADMIN_EMAIL);
  if (owner) return { companyId: owner.companyId, adminEmail: SEED_ADMIN_EMAIL, created: false };
  const planId = await ensurePlan();
  try {
    const { company } = await createCompany(
      "system",
      {
        name: SEED_COMPANY_NAME,
        email: SEED_ADMIN_EMAIL,
        phone: "",
        password: opts.adminPassword ?? SEED_ADMIN_PASSWORD,
        planId,
        dueDate: new Date(Date.now() + 365 * 86_400_000).toISOString(),
        recurrence: "MENSAL",
        status: true,
      },
      { adminName: "Admin", adminSuper: true },
    );
    return { companyId: company.id, adminEmail: SEED_ADMIN_EMAIL, created: true };
  } catch (err) {
    // A concurrent first start seeded it meanwhile.
    if (err instanceof AppError && err.code === "ERR_EMAIL_ALREADY_EXISTS") {
      const winner = await getEmailOwner(SEED_ADMIN_EMAIL);
      if (winner) return { companyId: winner.companyId, adminEmail: SEED_ADMIN_EMAIL, created: false };
    }
    throw err;
  }
}
