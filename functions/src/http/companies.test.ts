/**
 * Companies and plans through the real Lambda handlers: listPlan scoping, super-only company
 * create/show/update (the first admin, default settings, due date), and the public plan list.
 */
import { describe, expect, it } from "vitest";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { api, makeCompany, makeUser } from "../../../test/helpers.ts";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";

const emailMarker = async (email: string) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }))).Item;
let ipSeq = 0;
const login = (email: string, password: string) => api("POST", "/api/auth/login", { body: { email, password }, ip: `10.7.0.${++ipSeq}` });

describe("GET /api/companies/listPlan/{companyId}", () => {
  it("returns the caller's company with its plan flags", async () => {
    const { companyId, planId } = await makeCompany();
    const agent = await makeUser(companyId);
    const res = await api("GET", `/api/companies/listPlan/${companyId}`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: companyId,
      planId,
      plan: { id: planId, value: 30, useCampaigns: true, useKanban: true, useOpenAi: true, useIntegrations: true, useSchedules: true, useInternalChat: true, useExternalApi: true },
    });
  });

  it("answers 403 for another company unless the caller is super", async () => {
    const a = await makeCompany();
    const b = await makeCompany();
    const res = await api("GET", `/api/companies/listPlan/${a.companyId}`, { token: b.admin.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
    const root = await makeCompany({ adminSuper: true });
    const bySuper = await api("GET", `/api/companies/listPlan/${a.companyId}`, { token: root.admin.token });
    expect(bySuper.status).toBe(200);
    expect(bySuper.body.id).toBe(a.companyId);
    expect((await api("GET", "/api/companies/listPlan/99999", { token: root.admin.token })).status).toBe(404);
    expect((await api("GET", "/api/companies/listPlan/abc", { token: root.admin.token })).status).toBe(400);
  });
});

describe("POST /api/companies", () => {
  it("lets a super user create a company with its first admin and default settings", async () => {
    const root = await makeCompany({ adminSuper: true });
    const due = new Date(Date.now() + 30 * 86400000).toISOString();
    const res = await api("POST", "/api/companies", {
      token: root.admin.token,
      body: { name: "Padaria Central", email: "dono@padaria.test", phone: "11999998888", password: "segredo1", planId: root.planId, dueDate: due, recurrence: "ANUAL", status: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.any(Number), name: "Padaria Central", email: "dono@padaria.test", planId: root.planId, dueDate: due, recurrence: "ANUAL", status: true });
    expect(res.body).not.toHaveProperty("password");

    const session = await login("dono@padaria.test", "segredo1");
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ profile: "admin", super: false, companyId: res.body.id, name: "Padaria Central" });
    expect(session.body.user.company).toMatchObject({ id: res.body.id, name: "Padaria Central", dueDate: due });
    const settings = Object.fromEntries(session.body.user.company.settings.map((s: any) => [s.key, s.value]));
    expect(settings).toMatchObject({ CheckMsgIsGroup: "enabled", viewclosed: "disabled", chatBotType: "text" });
    // The new admin manages only the new company.
    const users = await api("GET", "/api/users", { token: session.body.token });
    expect(users.body.users.map((u: any) => u.email)).toEqual(["dono@padaria.test"]);
  });

  it("takes no id for refused companies: after refusals the next company gets the next number", async () => {
    const root = await makeCompany({ adminSuper: true });
    const body = (email: string, extra: Record<string, unknown> = {}) => ({ name: "Loja", email, password: "segredo1", planId: root.planId, ...extra });
    const first = await api("POST", "/api/companies", { token: root.admin.token, body: body(`loja-${root.companyId}@x.test`) });
    expect(first.status).toBe(200);
    const refused = [
      await api("POST", "/api/companies", { token: root.admin.token, body: body(`LOJA-${root.companyId}@x.test`) }),
      await api("POST", "/api/companies", { token: root.admin.token, body: body(`plano-${root.companyId}@x.test`, { planId: 999999 }) }),
      await api("POST", "/api/companies", { token: root.admin.token, body: body("sem-arroba") }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 404, 400]);
    const next = await api("POST", "/api/companies", { token: root.admin.token, body: body(`outra-${root.companyId}@x.test`) });
    expect(next.body.id).toBe(first.body.id + 1);
  });

  it("answers 403 to a caller who is not super and creates nothing", async () => {
    const { admin, planId } = await makeCompany();
    const res = await api("POST", "/api/companies", { token: admin.token, body: { name: "Golpe", email: "golpe@x.test", password: "segredo1", planId } });
    expect(res.status).toBe(403);
    expect(await emailMarker("golpe@x.test")).toBeUndefined();
  });

  it("answers 400 to malformed bodies, 404 to an unknown plan, 409 to a used email, and creates nothing", async () => {
    const root = await makeCompany({ adminSuper: true });
    const base = { name: "Loja", email: "loja@x.test", password: "segredo1", planId: root.planId };
    for (const body of [{ ...base, email: "nope" }, { ...base, name: "L" }, { ...base, password: "1" }, { ...base, planId: "x" }, { ...base, dueDate: "amanhã" }, { ...base, recurrence: "DIARIA" }]) {
      const res = await api("POST", "/api/companies", { token: root.admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    const noPlan = await api("POST", "/api/companies", { token: root.admin.token, body: { ...base, planId: 99999 } });
    expect(noPlan.status).toBe(404);
    expect(noPlan.body).toEqual({ error: "ERR_NO_PLAN_FOUND" });
    expect(await emailMarker("loja@x.test")).toBeUndefined();
    const dup = await api("POST", "/api/companies", { token: root.admin.token, body: { ...base, email: root.admin.email } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "ERR_EMAIL_ALREADY_EXISTS" });
    expect(await emailMarker(root.admin.email)).toMatchObject({ companyId: root.companyId });
  });
});

describe("GET and PUT /api/companies/{id}", () => {
  it("lets a super user read and move the due date, which login then enforces", async () => {
    const root = await makeCompany({ adminSuper: true });
    const target = await makeCompany({ name: "Cliente" });
    const shown = await api("GET", `/api/companies/${target.companyId}`, { token: root.admin.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: target.companyId, name: "Cliente", plan: { id: target.planId } });

    const res = await api("PUT", `/api/companies/${target.companyId}`, { token: root.admin.token, body: { dueDate: "2020-01-31" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Cliente", dueDate: "2020-01-31T00:00:00.000Z", recurrence: "MENSAL", status: true });
    const refused = await login(target.admin.email, target.admin.password);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: "ERR_SUBSCRIPTION_EXPIRED", dueDate: "2020-01-31T00:00:00.000Z" });

    await api("PUT", `/api/companies/${target.companyId}`, { token: root.admin.token, body: { dueDate: null } });
    expect((await login(target.admin.email, target.admin.password)).status).toBe(200);
    expect((await api("PUT", "/api/companies/99999", { token: root.admin.token, body: { name: "Nada" } })).status).toBe(404);
  });

  it("answers 403 to non-super callers, even for their own company, and changes nothing", async () => {
    const a = await makeCompany({ name: "Original" });
    const b = await makeCompany();
    expect((await api("GET", `/api/companies/${a.companyId}`, { token: b.admin.token })).status).toBe(403);
    expect((await api("GET", `/api/companies/${a.companyId}`, { token: a.admin.token })).status).toBe(403);
    for (const token of [a.admin.token, b.admin.token]) {
      const res = await api("PUT", `/api/companies/${a.companyId}`, { token, body: { name: "Trocado", dueDate: "2099-01-01" } });
      expect(res.status).toBe(403);
    }
    const root = await makeCompany({ adminSuper: true });
    const after = await api("GET", `/api/companies/${a.companyId}`, { token: root.admin.token });
    expect(after.body.name).toBe("Original");
    const bad = await api("PUT", `/api/companies/${a.companyId}`, { token: root.admin.token, body: { name: "X", status: "sim" } });
    expect(bad.status).toBe(400);
    expect((await api("GET", `/api/companies/${a.companyId}`, { token: root.admin.token })).body.name).toBe("Original");
  });
});

describe("GET /api/plans/list", () => {
  it("lists plans publicly with value in reais", async () => {
    const { planId } = await makeCompany();
    const res = await api("GET", "/api/plans/list");
    expect(res.status).toBe(200);
    const plan = res.body.find((p: any) => p.id === planId);
    expect(plan).toMatchObject({ name: `Plano ${planId}`, users: 10, connections: 10, queues: 10, value: 30, valueCents: 3000, useCampaigns: true });
  });
});

describe("a company switched off or past its due date", () => {
  it("is refused on every authenticated request with a live token, not only at login; its super users are exempt", async () => {
    const root = await makeCompany({ adminSuper: true });
    const target = await makeCompany({ name: "Cliente" });
    const agent = await makeUser(target.companyId);
    const insider = await makeUser(target.companyId, { profile: "admin", super: true });
    const settings = (token: string) => api("GET", "/api/settings", { token });
    expect((await settings(agent.token)).status).toBe(200);

    await api("PUT", `/api/companies/${target.companyId}`, { token: root.admin.token, body: { dueDate: "2020-01-31" } });
    for (const token of [agent.token, target.admin.token]) {
      const res = await settings(token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "ERR_SUBSCRIPTION_EXPIRED", dueDate: "2020-01-31T00:00:00.000Z" });
    }
    expect((await settings(insider.token)).status).toBe(200);

    await api("PUT", `/api/companies/${target.companyId}`, { token: root.admin.token, body: { dueDate: null, status: false } });
    const off = await settings(agent.token);
    expect(off).toMatchObject({ status: 401, body: { error: "ERR_COMPANY_INACTIVE" } });
    expect((await login(agent.email, agent.password)).body).toEqual({ error: "ERR_COMPANY_INACTIVE" });
    expect((await settings(insider.token)).status).toBe(200);

    await api("PUT", `/api/companies/${target.companyId}`, { token: root.admin.token, body: { status: true } });
    expect((await login(agent.email, agent.password)).status).toBe(200);
  });
});
