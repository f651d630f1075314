/**
 * Plans through the real Lambda handlers (docs/product/plans.md): the super user's CRUD with `value` in reais, the
 * public lists, names unique, a plan in use kept, and every write refused to admins and agents with nothing changed.
 */
import { describe, expect, it } from "vitest";
import { api, makeCompany, makeUser } from "../../../test/helpers.ts";

const body = (name: string, extra: Record<string, unknown> = {}) => ({ name, users: 5, connections: 2, queues: 3, value: 149.9, useKanban: true, ...extra });

describe("plans", () => {
  it("lets a super user create, read, change and delete a plan, shown publicly for sign-up", async () => {
    const root = await makeCompany({ adminSuper: true });
    const name = `Plano Ouro ${root.companyId}`;
    const created = await api("POST", "/api/plans", { token: root.admin.token, body: body(name) });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name, users: 5, connections: 2, queues: 3, value: 149.9, valueCents: 14990, useKanban: true, useCampaigns: false, useInternal: true });
    const id = created.body.id;
    for (const path of ["/api/plans/register", "/api/plans/list"]) {
      const pub = await api("GET", path);
      expect(pub.status).toBe(200);
      expect(pub.body.find((p: { id: number }) => p.id === id)).toMatchObject({ name, value: 149.9 });
    }
    expect((await api("GET", "/api/plans/all", { token: root.admin.token })).body.map((p: { id: number }) => p.id)).toContain(id);
    expect((await api("GET", `/api/plans/${id}`, { token: root.admin.token })).body).toMatchObject({ id, name });

    const changed = await api("PUT", `/api/plans/${id}`, { token: root.admin.token, body: { value: 199, useCampaigns: true } });
    expect(changed.body).toMatchObject({ id, name, value: 199, valueCents: 19900, useCampaigns: true, users: 5 });

    expect((await api("DELETE", `/api/plans/${id}`, { token: root.admin.token })).body).toEqual({ message: "Plan deleted" });
    expect((await api("GET", `/api/plans/${id}`, { token: root.admin.token })).status).toBe(404);
    expect((await api("DELETE", `/api/plans/${id}`, { token: root.admin.token })).status).toBe(404);
  });

  it("refuses a taken name, bad numbers and deleting a plan a company is on, changing nothing", async () => {
    const root = await makeCompany({ adminSuper: true });
    const name = `Plano Prata ${root.companyId}`;
    const first = await api("POST", "/api/plans", { token: root.admin.token, body: body(name) });
    const taken = await api("POST", "/api/plans", { token: root.admin.token, body: body(name.toUpperCase()) });
    expect(taken).toMatchObject({ status: 409, body: { error: "ERR_PLAN_NAME_ALREADY_EXISTS" } });
    const bad = await api("POST", "/api/plans", { token: root.admin.token, body: body("", { users: -1 }) });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { path: string; message: string }) => `${f.path}: ${f.message}`)).toEqual(["name: Obrigatório", "users: Não pode ser negativo"]);
    const other = await api("POST", "/api/plans", { token: root.admin.token, body: body(`${name} B`) });
    expect((await api("PUT", `/api/plans/${other.body.id}`, { token: root.admin.token, body: { name } })).status).toBe(409);

    // The super user's own company is on its own plan (test helper): that plan stays.
    const inUse = await api("DELETE", `/api/plans/${root.planId}`, { token: root.admin.token });
    expect(inUse).toMatchObject({ status: 409, body: { error: "ERR_PLAN_IN_USE" } });
    expect((await api("GET", `/api/plans/${root.planId}`, { token: root.admin.token })).status).toBe(200);
    expect((await api("GET", `/api/plans/${first.body.id}`, { token: root.admin.token })).body.name).toBe(name);
  });

  it("answers 403 to admins and agents on every super route, even for their own company's plan, and changes nothing", async () => {
    const root = await makeCompany({ adminSuper: true });
    const { companyId, planId, admin } = await makeCompany();
    const agent = await makeUser(companyId);
    for (const token of [admin.token, agent.token]) {
      expect((await api("GET", "/api/plans/all", { token })).status).toBe(403);
      expect((await api("GET", `/api/plans/${planId}`, { token })).status).toBe(403);
      expect((await api("POST", "/api/plans", { token, body: body(`Intruso ${companyId}`) })).status).toBe(403);
      expect((await api("PUT", `/api/plans/${planId}`, { token, body: { users: 999 } })).status).toBe(403);
      expect((await api("DELETE", `/api/plans/${planId}`, { token })).status).toBe(403);
    }
    expect((await api("GET", `/api/plans/${planId}`, { token: root.admin.token })).body.users).toBe(10);
    expect((await api("GET", "/api/plans/all", { token: root.admin.token })).body.map((p: { name: string }) => p.name)).not.toContain(`Intruso ${companyId}`);
  });
});
