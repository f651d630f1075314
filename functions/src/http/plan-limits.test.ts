/**
 * The plan's numbers enforced by the server (docs/product/users.md): a company at its plan's count of users,
 * connections or queues is refused one more with 403 and a code the web translates, and nothing is written; creations
 * racing for the last place: exactly one passes; a deletion gives its place back; companies made before the counts
 * are counted from what they have.
 */
import { describe, expect, it } from "vitest";
import { api, makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { useLocalAws } from "../../../test/world.ts";

const base = companyWorld();

useLocalAws({ sqs: true });

describe("plan limits", () => {
  it("refuses the user beyond the plan's count and creates nothing; another company's count is its own", async () => {
    const { cid: companyId, admin } = await base.fresh({ planLimits: { users: 2 } });
    const body = (email: string) => ({ name: "Pessoa", email, password: "segredo1", profile: "user", queueIds: [] });
    expect((await api("POST", "/api/users", { token: admin.token, body: body(`segunda-${companyId}@firma.test`) })).status).toBe(200);
    const refused = await api("POST", "/api/users", { token: admin.token, body: body(`terceira-${companyId}@firma.test`) });
    expect(refused).toMatchObject({ status: 403, body: { error: "ERR_USER_CREATION_COUNT", limit: 2 } });
    const users = await api("GET", "/api/users/list", { token: admin.token });
    expect(users.body.map((u: { email: string }) => u.email)).not.toContain(`terceira-${companyId}@firma.test`);
    expect((await api("POST", "/api/auth/login", { body: { email: `terceira-${companyId}@firma.test`, password: "segredo1" }, ip: "10.9.0.1" })).status).toBe(401);

    const other = await base.fresh({ planLimits: { users: 3 } });
    expect((await api("POST", "/api/users", { token: other.admin.token, body: body(`segunda-${other.cid}@firma.test`) })).status).toBe(200);
  });

  it("refuses the connection beyond the plan's count and creates nothing", async () => {
    const { admin } = await base.fresh({ planLimits: { connections: 1 } });
    expect((await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Primeira" } })).status).toBe(200);
    const refused = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Segunda" } });
    expect(refused).toMatchObject({ status: 403, body: { error: "ERR_CONNECTION_CREATION_COUNT", limit: 1 } });
    const list = await api("GET", "/api/whatsapp", { token: admin.token });
    expect(list.body.map((w: { name: string }) => w.name)).toEqual(["Primeira"]);
  });

  it("refuses the queue beyond the plan's count and creates nothing", async () => {
    const { cid: companyId, admin } = await base.fresh({ planLimits: { queues: 1 } });
    const agent = await makeUser(companyId);
    expect((await api("POST", "/api/queue", { token: admin.token, body: { name: "Vendas", color: "#112233" } })).status).toBe(200);
    const refused = await api("POST", "/api/queue", { token: admin.token, body: { name: "Suporte", color: "#445566" } });
    expect(refused).toMatchObject({ status: 403, body: { error: "ERR_QUEUE_CREATION_COUNT", limit: 1 } });
    const list = await api("GET", "/api/queue", { token: agent.token });
    expect(list.body.map((q: { name: string }) => q.name)).toEqual(["Vendas"]);
  });

  it("lets exactly one of several users created at once take the last place, the others refused with the plan's error", async () => {
    const { cid, admin } = await base.fresh({ planLimits: { users: 3 }, agents: [{ name: "Ana" }] }); // admin + Ana: one place left
    const tries = await Promise.all(
      [1, 2, 3, 4].map((n) => api("POST", "/api/users", { token: admin.token, body: { name: "Pessoa", email: `corrida-${n}-${cid}@firma.test`, password: "segredo1", profile: "user", queueIds: [] } })),
    );
    expect(tries.map((r) => r.status).sort()).toEqual([200, 403, 403, 403]);
    for (const r of tries.filter((t) => t.status === 403)) expect(r.body).toEqual({ error: "ERR_USER_CREATION_COUNT", limit: 3 });
    const users = (await api("GET", "/api/users/list", { token: admin.token })).body as { id: number; email: string }[];
    expect(users).toHaveLength(3);

    // A deletion gives its place back, once.
    const created = users.find((u) => u.email.startsWith("corrida-"))!;
    expect((await api("DELETE", `/api/users/${created.id}`, { token: admin.token })).status).toBe(200);
    const again = await Promise.all(
      [5, 6].map((n) => api("POST", "/api/users", { token: admin.token, body: { name: "Pessoa", email: `corrida-${n}-${cid}@firma.test`, password: "segredo1", profile: "user", queueIds: [] } })),
    );
    expect(again.map((r) => r.status).sort()).toEqual([200, 403]);
  });

  it("lets exactly one of two queues or two connections created at once take the last place", async () => {
    const { admin } = await base.fresh({ planLimits: { queues: 2, connections: 2 }, queues: ["Vendas"], whatsapp: true });
    const queues = await Promise.all([
      api("POST", "/api/queue", { token: admin.token, body: { name: "Suporte", color: "#445566" } }),
      api("POST", "/api/queue", { token: admin.token, body: { name: "Financeiro", color: "#778899" } }),
    ]);
    expect(queues.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(queues.find((r) => r.status === 403)!.body).toEqual({ error: "ERR_QUEUE_CREATION_COUNT", limit: 2 });
    expect((await api("GET", "/api/queue", { token: admin.token })).body).toHaveLength(2);

    const connections = await Promise.all([
      api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Segunda" } }),
      api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Terceira" } }),
    ]);
    expect(connections.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(connections.find((r) => r.status === 403)!.body).toEqual({ error: "ERR_CONNECTION_CREATION_COUNT", limit: 2 });
    expect((await api("GET", "/api/whatsapp", { token: admin.token })).body).toHaveLength(2);
  });
});
