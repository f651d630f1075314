/**
 * The plan's numbers enforced by the server (docs/product/users.md): a company at its plan's count of users,
 * connections or queues is refused one more with 403 and a code the web translates, and nothing is written.
 */
import { describe, expect, it } from "vitest";
import { api, makeCompany, makeUser } from "../../../test/helpers.ts";
import { useLocalAws } from "../../../test/world.ts";

useLocalAws({ sqs: true });

describe("plan limits", () => {
  it("refuses the user beyond the plan's count and creates nothing; another company's count is its own", async () => {
    const { companyId, admin } = await makeCompany({ planLimits: { users: 2 } });
    const body = (email: string) => ({ name: "Pessoa", email, password: "segredo1", profile: "user", queueIds: [] });
    expect((await api("POST", "/api/users", { token: admin.token, body: body(`segunda-${companyId}@firma.test`) })).status).toBe(200);
    const refused = await api("POST", "/api/users", { token: admin.token, body: body(`terceira-${companyId}@firma.test`) });
    expect(refused).toMatchObject({ status: 403, body: { error: "ERR_USER_CREATION_COUNT", limit: 2 } });
    const users = await api("GET", "/api/users/list", { token: admin.token });
    expect(users.body.map((u: { email: string }) => u.email)).not.toContain(`terceira-${companyId}@firma.test`);
    expect((await api("POST", "/api/auth/login", { body: { email: `terceira-${companyId}@firma.test`, password: "segredo1" }, ip: "10.9.0.1" })).status).toBe(401);

    const other = await makeCompany({ planLimits: { users: 3 } });
    expect((await api("POST", "/api/users", { token: other.admin.token, body: body(`segunda-${other.companyId}@firma.test`) })).status).toBe(200);
  });

  it("refuses the connection beyond the plan's count and creates nothing", async () => {
    const { admin } = await makeCompany({ planLimits: { connections: 1 } });
    expect((await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Primeira" } })).status).toBe(200);
    const refused = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Segunda" } });
    expect(refused).toMatchObject({ status: 403, body: { error: "ERR_CONNECTION_CREATION_COUNT", limit: 1 } });
    const list = await api("GET", "/api/whatsapp", { token: admin.token });
    expect(list.body.map((w: { name: string }) => w.name)).toEqual(["Primeira"]);
  });

  it("refuses the queue beyond the plan's count and creates nothing", async () => {
    const { companyId, admin } = await makeCompany({ planLimits: { queues: 1 } });
    const agent = await makeUser(companyId);
    expect((await api("POST", "/api/queue", { token: admin.token, body: { name: "Vendas", color: "#112233" } })).status).toBe(200);
    const refused = await api("POST", "/api/queue", { token: admin.token, body: { name: "Suporte", color: "#445566" } });
    expect(refused).toMatchObject({ status: 403, body: { error: "ERR_QUEUE_CREATION_COUNT", limit: 1 } });
    const list = await api("GET", "/api/queue", { token: agent.token });
    expect(list.body.map((q: { name: string }) => q.name)).toEqual(["Vendas"]);
  });
});
