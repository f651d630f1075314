/**
 * Users area through the real Lambda handler: admin CRUD, self-edit limits, global email uniqueness,
 * validation messages, tenant isolation and realtime events.
 */
import { describe, expect, it } from "vitest";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { api, makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { registerSocket } from "@atende/shared/users/realtime-capture.testkit";

const w = companyWorld();

const rawUser = async (cid: number, uid: number) =>
  (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.user(cid, uid), ConsistentRead: true }))).Item;
const emailMarker = async (email: string) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }))).Item;

const SECRET_FIELDS = ["passwordHash", "tokenVersion", "refreshJti"];
const expectNoSecrets = (u: Record<string, unknown>) => {
  for (const f of SECRET_FIELDS) expect(u).not.toHaveProperty(f);
};

async function tenantPair() {
  const a = await w.fresh({ name: "Alfa" });
  const b = await w.fresh({ name: "Beta" });
  return { a, b };
}

describe("GET /api/users", () => {
  it("pages the company's users 20 at a time with count and hasMore, without secrets", async () => {
    const { cid: companyId, admin } = await w.fresh();
    for (let i = 0; i < 21; i++) await makeUser(companyId, { name: `Agente ${i}` });
    const p1 = await api("GET", "/api/users?pageNumber=1", { token: admin.token });
    expect(p1.status).toBe(200);
    expect(p1.body.users).toHaveLength(20);
    expect(p1.body.count).toBe(22);
    expect(p1.body.hasMore).toBe(true);
    p1.body.users.forEach(expectNoSecrets);
    const p2 = await api("GET", "/api/users?pageNumber=2", { token: admin.token });
    expect(p2.body.users).toHaveLength(2);
    expect(p2.body.hasMore).toBe(false);
  });

  it("searches name and email from 3 characters, ignoring case and accents", async () => {
    const { cid: companyId, admin } = await w.fresh();
    await makeUser(companyId, { name: "José Antônio" });
    await makeUser(companyId, { name: "Maria", email: "maria.jose@firma.test" });
    await makeUser(companyId, { name: "Pedro" });
    const res = await api("GET", `/api/users?searchParam=${encodeURIComponent("JOSE")}`, { token: admin.token });
    expect(res.body.users.map((u: any) => u.name).sort()).toEqual(["José Antônio", "Maria"]);
    expect(res.body.count).toBe(2);
    const short = await api("GET", "/api/users?searchParam=jo", { token: admin.token });
    expect(short.body.count).toBe(4);
  });

  it("never lists users of another company and refuses non-admins", async () => {
    const { a, b } = await tenantPair();
    const res = await api("GET", "/api/users", { token: b.admin.token });
    expect(res.body.users.map((u: any) => u.companyId)).toEqual([b.cid]);
    expect(res.body.users.some((u: any) => u.id === a.admin.id && u.email === a.admin.email)).toBe(false);
    const agent = await makeUser(a.cid);
    expect((await api("GET", "/api/users", { token: agent.token })).status).toBe(403);
  });
});

describe("GET /api/users/list and /api/users/{id}", () => {
  it("lists every user of the caller's company for any profile", async () => {
    const { a, b } = await tenantPair();
    const agent = await makeUser(a.cid);
    const res = await api("GET", "/api/users/list", { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => u.id).sort()).toEqual([a.admin.id, agent.id].sort());
    expect(res.body.every((u: any) => u.companyId === a.cid)).toBe(true);
    res.body.forEach(expectNoSecrets);
    const resB = await api("GET", "/api/users/list", { token: b.admin.token });
    expect(resB.body.every((u: any) => u.companyId === b.cid)).toBe(true);
  });

  it("lets admins read any user of their company and users only themselves", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId);
    const other = await makeUser(companyId);
    const byAdmin = await api("GET", `/api/users/${agent.id}`, { token: admin.token });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ id: agent.id, email: agent.email, queues: [] });
    expectNoSecrets(byAdmin.body);
    expect((await api("GET", `/api/users/${agent.id}`, { token: agent.token })).status).toBe(200);
    expect((await api("GET", `/api/users/${other.id}`, { token: agent.token })).status).toBe(403);
  });

  it("answers 404 to an admin of another company", async () => {
    const { a, b } = await tenantPair();
    const res = await api("GET", `/api/users/${a.admin.id}`, { token: b.admin.token });
    // Same numeric id may exist in company B (ids are per company): it must be B's own user, never A's.
    if (res.status === 200) expect(res.body.companyId).toBe(b.cid);
    const agentA = await makeUser(a.cid);
    const cross = await api("GET", `/api/users/${agentA.id}`, { token: b.admin.token });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ error: "ERR_NO_USER_FOUND" });
  });
});

describe("POST /api/users", () => {
  it("takes no id for refused users: after refusals the next user gets the next number", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId, {});
    const body = (email: string, extra: Record<string, unknown> = {}) => ({ name: "Pessoa", email, password: "segredo1", profile: "user", queueIds: [], ...extra });
    const first = await api("POST", "/api/users", { token: admin.token, body: body(`primeira-${companyId}@firma.test`) });
    expect(first.status).toBe(200);
    const refused = [
      await api("POST", "/api/users", { token: admin.token, body: body(`PRIMEIRA-${companyId}@firma.test`) }),
      await api("POST", "/api/users", { token: admin.token, body: body(`primeira-${companyId}@firma.test`) }),
      await api("POST", "/api/users", { token: agent.token, body: body(`agente-${companyId}@firma.test`) }),
      await api("POST", "/api/users", { token: admin.token, body: body(`fila-${companyId}@firma.test`, { queueIds: [999999] }) }),
      await api("POST", "/api/users", { token: admin.token, body: body("sem-arroba") }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 409, 403, 404, 400]);
    expect(refused[0].body).toEqual({ error: "ERR_EMAIL_ALREADY_EXISTS" });
    const next = await api("POST", "/api/users", { token: admin.token, body: body(`segunda-${companyId}@firma.test`) });
    expect(next.body.id).toBe(first.body.id + 1);
  });

  it("creates a user in the caller's company, with queues, and announces it to that company only", async () => {
    const { a, b } = await tenantPair();
    const q = await api("POST", "/api/queue", { token: a.admin.token, body: { name: "Vendas", color: "#ff0000" } });
    const sockA = await registerSocket(a.cid, { id: a.admin.id, profile: "admin" });
    const sockB = await registerSocket(b.cid, { id: b.admin.id, profile: "admin" });
    w.capture.clear();
    const res = await api("POST", "/api/users", {
      token: a.admin.token,
      body: { name: "Nova Pessoa", email: "Nova@Firma.test", password: "segredo1", profile: "user", queueIds: [q.body.id], allTicket: "enabled" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Nova Pessoa",
      companyId: a.cid,
      profile: "user",
      allTicket: "enabled",
      queueIds: [q.body.id],
      queues: [{ id: q.body.id, name: "Vendas", color: "#ff0000" }],
      super: false,
    });
    expectNoSecrets(res.body);
    const frames = w.capture.frames.filter((f) => f.event.endsWith("-user"));
    expect(frames.map((f) => [f.connectionId, f.event, f.data.action])).toEqual([[sockA, `company-${a.cid}-user`, "create"]]);
    expect(frames.some((f) => f.connectionId === sockB)).toBe(false);
    expect(frames[0].data.user).toMatchObject({ id: res.body.id });
    expectNoSecrets(frames[0].data.user);
    // The new user can log in with that password.
    const login = await api("POST", "/api/auth/login", { body: { email: "nova@firma.test", password: "segredo1" }, ip: "10.9.0.1" });
    expect(login.status).toBe(200);
  });

  it("refuses an email used in any company with 409 and writes nothing", async () => {
    const { a, b } = await tenantPair();
    const before = (await api("GET", "/api/users", { token: b.admin.token })).body.count;
    const res = await api("POST", "/api/users", { token: b.admin.token, body: { name: "Copia", email: a.admin.email.toUpperCase(), password: "segredo1" } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "ERR_EMAIL_ALREADY_EXISTS" });
    expect((await api("GET", "/api/users", { token: b.admin.token })).body.count).toBe(before);
    expect((await emailMarker(a.admin.email))!.companyId).toBe(a.cid);
  });

  it("validates with the product's messages and writes nothing", async () => {
    const { admin } = await w.fresh();
    const cases: [unknown, string, string][] = [
      [{ name: "A", email: "a@b.test", password: "12345" }, "name", "Too Short!"],
      [{ name: "x".repeat(51), email: "a@b.test", password: "12345" }, "name", "Too Long!"],
      [{ email: "a@b.test", password: "12345" }, "name", "Required"],
      [{ name: "Ana", email: "not-an-email", password: "12345" }, "email", "Invalid email"],
      [{ name: "Ana", password: "12345" }, "email", "Required"],
      [{ name: "Ana", email: "a@b.test", password: "1234" }, "password", "Too Short!"],
      [{ name: "Ana", email: "a@b.test", password: "x".repeat(51) }, "password", "Too Long!"],
      [{ name: "Ana", email: "a@b.test", password: "12345", profile: "owner" }, "profile", ""],
      [{ name: "Ana", email: "a@b.test", password: "12345", queueIds: ["abc"] }, "queueIds.0", ""],
    ];
    for (const [body, path, message] of cases) {
      const res = await api("POST", "/api/users", { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      const field = res.body.fields.find((f: any) => f.path === path);
      expect(field).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    expect((await api("GET", "/api/users", { token: admin.token })).body.count).toBe(1);
    expect(await emailMarker("a@b.test")).toBeUndefined();
  });

  it("creates the user in the caller's company even when the body names another company", async () => {
    const { a, b } = await tenantPair();
    const res = await api("POST", "/api/users", { token: b.admin.token, body: { name: "Ana", email: "ana@alvo.test", password: "12345", companyId: a.cid } });
    expect(res.status).toBe(200);
    expect(res.body.companyId).toBe(b.cid);
    expect(await emailMarker("ana@alvo.test")).toMatchObject({ companyId: b.cid });
    expect((await api("GET", "/api/users", { token: a.admin.token })).body.count).toBe(1);
  });

  it("refuses a queue of another company and non-admin callers", async () => {
    const { a, b } = await tenantPair();
    const qA = await api("POST", "/api/queue", { token: a.admin.token, body: { name: "Suporte", color: "#00ff00" } });
    const res = await api("POST", "/api/users", { token: b.admin.token, body: { name: "Ana", email: "ana@b.test", password: "12345", queueIds: [qA.body.id + 100] } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
    const agent = await makeUser(a.cid);
    const byAgent = await api("POST", "/api/users", { token: agent.token, body: { name: "Ana", email: "ana@b.test", password: "12345" } });
    expect(byAgent.status).toBe(403);
    expect(await emailMarker("ana@b.test")).toBeUndefined();
  });
});

describe("PUT /api/users/{id}", () => {
  it("lets an admin change profile, queues, connection flag and email; the old email becomes free", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId);
    const q = await api("POST", "/api/queue", { token: admin.token, body: { name: "Financeiro", color: "#123456" } });
    const res = await api("PUT", `/api/users/${agent.id}`, {
      token: admin.token,
      body: { name: "Renomeado", email: "novo@email.test", profile: "admin", queueIds: [q.body.id], allTicket: "enabled", password: "" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Renomeado", email: "novo@email.test", profile: "admin", queueIds: [q.body.id], allTicket: "enabled" });
    expectNoSecrets(res.body);
    expect(await emailMarker(agent.email)).toBeUndefined();
    expect(await emailMarker("novo@email.test")).toMatchObject({ companyId, userId: agent.id });
    // The password was left unchanged by the empty string.
    expect((await api("POST", "/api/auth/login", { body: { email: "novo@email.test", password: agent.password }, ip: "10.9.1.1" })).status).toBe(200);
    // Someone else may now take the old address.
    const reuse = await api("POST", "/api/users", { token: admin.token, body: { name: "Outro", email: agent.email, password: "12345" } });
    expect(reuse.status).toBe(200);
  });

  it("does not let an admin without the super flag edit or delete a super user", async () => {
    const { cid: companyId } = await w.fresh({ adminSuper: true });
    const root = (await api("GET", "/api/users/list", { token: (await makeUser(companyId, { profile: "admin" })).token })).body.find((u: any) => u.super);
    const plainAdmin = await makeUser(companyId, { profile: "admin" });
    expect((await api("PUT", `/api/users/${root.id}`, { token: plainAdmin.token, body: { name: "Tomado" } })).status).toBe(403);
    expect((await api("DELETE", `/api/users/${root.id}`, { token: plainAdmin.token })).status).toBe(403);
    expect((await rawUser(companyId, root.id))!.name).toBe("Admin");
  });

  it("refuses an email that another user holds with 409 and changes nothing", async () => {
    const { a, b } = await tenantPair();
    const agent = await makeUser(b.cid, { name: "Sem Mudar" });
    const res = await api("PUT", `/api/users/${agent.id}`, { token: b.admin.token, body: { name: "Mudou", email: a.admin.email } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "ERR_EMAIL_ALREADY_EXISTS" });
    const raw = await rawUser(b.cid, agent.id);
    expect(raw).toMatchObject({ name: "Sem Mudar", email: agent.email });
    expect(await emailMarker(agent.email)).toMatchObject({ userId: agent.id });
  });

  it("lets a user change their own name and password and nothing else", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId, { name: "Antes" });
    const ok = await api("PUT", `/api/users/${agent.id}`, {
      token: agent.token,
      // A full form: unchanged fields are sent with their current values.
      body: { name: "Depois", password: "nova-senha", oldPassword: agent.password, email: agent.email, profile: "user", queueIds: [], allTicket: "desabled", whatsappId: null },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe("Depois");
    const relogin = await api("POST", "/api/auth/login", { body: { email: agent.email, password: "nova-senha" }, ip: "10.9.2.1" });
    expect(relogin.status).toBe(200);
    const token = relogin.body.token; // single login revoked agent.token

    const before = await rawUser(companyId, agent.id);
    for (const body of [{ profile: "admin" }, { email: "x@y.test" }, { allTicket: "enabled" }, { queueIds: [1] }]) {
      const res = await api("PUT", `/api/users/${agent.id}`, { token, body: { name: "Hacker", ...body } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
    }
    expect(await rawUser(companyId, agent.id)).toEqual(before);
    const other = await api("PUT", `/api/users/${admin.id}`, { token, body: { name: "Hacker" } });
    expect(other.status).toBe(403);
    expect((await rawUser(companyId, admin.id))!.name).toBe("Admin");
  });

  it("needs the current password to change one's own, and then revokes every other session of that user", async () => {
    const { cid: companyId } = await w.fresh();
    const agent = await makeUser(companyId, { name: "Cuidadosa" });
    const login = await api("POST", "/api/auth/login", { body: { email: agent.email, password: agent.password }, ip: "10.9.3.1" });
    const stolen = login.body.token;
    const stolenCookie = login.cookies.find((c: string) => c.startsWith("jrt="))!.split(";")[0];
    const hashBefore = (await rawUser(companyId, agent.id))!.passwordHash;
    const missing = await api("PUT", `/api/users/${agent.id}`, { token: stolen, body: { password: "tomada-1" } });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([{ path: "oldPassword", message: "Required" }]);
    const wrong = await api("PUT", `/api/users/${agent.id}`, { token: stolen, body: { password: "tomada-1", oldPassword: "chute" } });
    expect(wrong.status).toBe(400);
    expect((await rawUser(companyId, agent.id))!.passwordHash).toBe(hashBefore);

    const ok = await api("PUT", `/api/users/${agent.id}`, { token: stolen, body: { password: "nova-senha-1", oldPassword: agent.password } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: agent.id, token: expect.any(String) });
    expect(ok.body).not.toHaveProperty("session");
    // This session goes on with the new tokens; the copies made before (access and refresh) are dead.
    expect((await api("GET", "/api/auth/me", { token: ok.body.token })).status).toBe(200);
    expect((await api("GET", "/api/auth/me", { token: stolen })).status).toBe(401);
    expect((await api("POST", "/api/auth/refresh_token", { cookies: [stolenCookie] })).status).toBe(401);
    const newCookie = ok.cookies.find((c: string) => c.startsWith("jrt="))!.split(";")[0];
    expect((await api("POST", "/api/auth/refresh_token", { cookies: [newCookie] })).status).toBe(200);
  });

  it("revokes a user's tokens when an admin changes their password, profile or queues", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await api("POST", "/api/queue", { token: admin.token, body: { name: "Fila TV", color: "#123456" } });
    for (const body of [{ password: "trocada-1" }, { profile: "admin" }, { queueIds: [q.body.id] }, { allTicket: "enabled" }]) {
      const agent = await makeUser(companyId);
      expect((await api("GET", "/api/auth/me", { token: agent.token })).status).toBe(200);
      const res = await api("PUT", `/api/users/${agent.id}`, { token: admin.token, body });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty("token");
      expect((await api("GET", "/api/auth/me", { token: agent.token })).status).toBe(401);
    }
    // A name change alone keeps the session.
    const agent = await makeUser(companyId);
    expect((await api("PUT", `/api/users/${agent.id}`, { token: admin.token, body: { name: "Só o Nome" } })).status).toBe(200);
    expect((await api("GET", "/api/auth/me", { token: agent.token })).status).toBe(200);
  });

  it("answers 404 to an admin of another company and 400 to malformed bodies, changing nothing", async () => {
    const { a, b } = await tenantPair();
    const agentA = await makeUser(a.cid); // id 2 in A; company B has only its admin (id 1)
    const before = await rawUser(a.cid, agentA.id);
    const cross = await api("PUT", `/api/users/${agentA.id}`, { token: b.admin.token, body: { name: "Invasor" } });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ error: "ERR_NO_USER_FOUND" });
    expect(await rawUser(a.cid, agentA.id)).toEqual(before);

    const bad = await api("PUT", `/api/users/${agentA.id}`, { token: a.admin.token, body: { name: "A", email: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
    expect(bad.body.fields.map((f: any) => f.message).sort()).toEqual(["Invalid email", "Too Short!"]);
    expect(await rawUser(a.cid, agentA.id)).toEqual(before);
    const badId = await api("PUT", "/api/users/abc", { token: a.admin.token, body: { name: "Valido" } });
    expect(badId.status).toBe(400);
  });
});

describe("DELETE /api/users/{id}", () => {
  it("deletes the user, frees the email, ends their session and announces it", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId);
    const sock = await registerSocket(companyId, { id: admin.id, profile: "admin" });
    w.capture.clear();
    const res = await api("DELETE", `/api/users/${agent.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(await rawUser(companyId, agent.id)).toBeUndefined();
    expect(await emailMarker(agent.email)).toBeUndefined();
    expect((await api("GET", "/api/auth/me", { token: agent.token })).status).toBe(401);
    expect(w.capture.frames).toContainEqual({ connectionId: sock, event: `company-${companyId}-user`, data: { action: "delete", userId: agent.id } });
  });

  it("refuses deleting yourself, non-admin callers, and users of another company", async () => {
    const { a, b } = await tenantPair();
    expect((await api("DELETE", `/api/users/${a.admin.id}`, { token: a.admin.token })).status).toBe(403);
    const agentA = await makeUser(a.cid);
    const agentA2 = await makeUser(a.cid);
    expect((await api("DELETE", `/api/users/${agentA2.id}`, { token: agentA.token })).status).toBe(403);
    // Company B has only its admin (id 1): A's user ids 2 and 3 do not exist there.
    const cross = await api("DELETE", `/api/users/${agentA.id}`, { token: b.admin.token });
    expect(cross.status).toBe(404);
    expect(await rawUser(a.cid, a.admin.id)).toBeDefined();
    expect(await rawUser(a.cid, agentA.id)).toBeDefined();
    expect(await rawUser(a.cid, agentA2.id)).toBeDefined();
  });
});
