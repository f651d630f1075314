/**
 * The local first-start seed: plan, company, super admin and default settings, exactly once.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { api } from "../../../test/helpers.ts";
import { getCompany } from "../companies/service.ts";
import { listPlans } from "../plans/service.ts";
import { getEmailOwner, getUser, listUsers } from "../users/repository.ts";
import { seedLocal } from "./seed.ts";

describe("seedLocal", () => {
  it("creates Plano 1, Empresa 1 and the super admin once; a second call changes nothing", async () => {
    const first = await seedLocal();
    expect(first).toEqual({ companyId: expect.any(Number), adminEmail: "admin@admin.com", created: true });

    const plans = await listPlans();
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ name: "Plano 1", users: 10, connections: 10, queues: 10, valueCents: 3000, useCampaigns: true, useKanban: true, useOpenAi: true, useIntegrations: true, useSchedules: true, useInternalChat: true, useExternalApi: true });

    const company = (await getCompany(first.companyId))!;
    expect(company).toMatchObject({ name: "Empresa 1", planId: plans[0].id, status: true });
    const daysAhead = (new Date(company.dueDate!).getTime() - Date.now()) / 86400000;
    expect(daysAhead).toBeGreaterThan(360);

    const owner = (await getEmailOwner("admin@admin.com"))!;
    expect(await getUser(owner.companyId, owner.userId)).toMatchObject({ name: "Admin", profile: "admin", super: true, companyId: first.companyId });

    const login = await api("POST", "/api/auth/login", { body: { email: "admin@admin.com", password: "123456" } });
    expect(login.status).toBe(200);
    const settings = Object.fromEntries(login.body.user.company.settings.map((s: any) => [s.key, s.value]));
    expect(settings).toMatchObject({ CheckMsgIsGroup: "enabled", chatBotType: "text", sendGreetingAccepted: "disabled", userRating: "disabled", call: "disabled" });

    // The seeded company keeps the old system's year-ahead due date, and its super admin is exempt from the
    // due-date refusal, so once that date passes the super admin still logs in (and can extend it).
    await ddb().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.company(first.companyId), UpdateExpression: "SET dueDate = :d", ExpressionAttributeValues: { ":d": new Date(Date.now() - 86400000).toISOString() } }),
    );
    const afterDue = await api("POST", "/api/auth/login", { body: { email: "admin@admin.com", password: "123456" } });
    expect(afterDue.status).toBe(200);
    expect(afterDue.body.user.super).toBe(true);

    const second = await seedLocal({ adminPassword: "another" });
    expect(second).toEqual({ companyId: first.companyId, adminEmail: "admin@admin.com", created: false });
    expect(await listPlans()).toHaveLength(1);
    expect(await listUsers(first.companyId)).toHaveLength(1);
    expect(await getCompany(first.companyId + 1)).toBeUndefined();
  });
});
