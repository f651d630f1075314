/**
 * Queues area through the real Lambda handler: CRUD, colour uniqueness per company, validation,
 * tenant isolation and realtime events.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { api, makeUser, withErrorLogs } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { registerSocket } from "@atende/shared/users/realtime-capture.testkit";
import { makeContact, makeWhatsapp } from "@atende/shared/tickets/fixtures.testkit";
import { findOrCreateTicket } from "@atende/shared/tickets/service";
import { getWhatsappItem } from "@atende/shared/whatsapp/repository";

const w = companyWorld();

const createQueue = (token: string, body: Record<string, unknown>) => api("POST", "/api/queue", { token, body });
const listQueues = async (token: string) => (await api("GET", "/api/queue", { token })).body as any[];

describe("POST /api/queue", () => {
  it("creates a queue and announces it to the company", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const sock = await registerSocket(companyId, { id: admin.id, profile: "admin" });
    w.capture.clear();
    const res = await createQueue(admin.token, { name: "Vendas", color: "#FF0000", greetingMessage: "Olá!", orderQueue: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.any(Number), companyId, name: "Vendas", color: "#FF0000", greetingMessage: "Olá!", orderQueue: 2, schedules: [] });
    expect(w.capture.frames).toEqual([{ connectionId: sock, event: `company-${companyId}-queue`, data: { action: "create", queue: res.body } }]);
  });

  it("refuses a colour already used in the company (any letter case) but allows it in another company", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    expect((await createQueue(a.admin.token, { name: "Vendas", color: "#abcdef" })).status).toBe(200);
    const dup = await createQueue(a.admin.token, { name: "Suporte", color: "#ABCDEF" });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" });
    expect((await listQueues(a.admin.token)).map((q) => q.name)).toEqual(["Vendas"]);
    expect((await createQueue(b.admin.token, { name: "Vendas", color: "#abcdef" })).status).toBe(200);
  });

  it("refuses a name already used in the company (any letter case) but allows it in another company", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    expect((await createQueue(a.admin.token, { name: "Vendas", color: "#a0a" })).status).toBe(200);
    const dup = await createQueue(a.admin.token, { name: " vendas ", color: "#b0b" });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "ERR_QUEUE_NAME_ALREADY_EXISTS" });
    expect((await listQueues(a.admin.token)).map((q) => q.name)).toEqual(["Vendas"]);
    // The refused queue reserved nothing: its colour is still free.
    expect((await createQueue(a.admin.token, { name: "Suporte", color: "#b0b" })).status).toBe(200);
    expect((await createQueue(b.admin.token, { name: "Vendas", color: "#a0a" })).status).toBe(200);
  });

  it("takes no id for refused queues: after refused saves the next queue gets the next number", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId, {});
    const first = await createQueue(admin.token, { name: "Vendas", color: "#a1a" });
    const refused = [
      await createQueue(admin.token, { name: "VENDAS", color: "#b2b" }),
      await createQueue(admin.token, { name: "Outra", color: "#A1A" }),
      await createQueue(admin.token, { name: "Azul", color: "azul" }),
      await createQueue(agent.token, { name: "Agente", color: "#c3c" }),
      await createQueue(admin.token, { name: "x", color: "#d4d" }),
    ];
    expect(refused.map((r) => [r.status, r.body.error])).toEqual([
      [409, "ERR_QUEUE_NAME_ALREADY_EXISTS"],
      [409, "ERR_QUEUE_COLOR_ALREADY_EXISTS"],
      [400, "ERR_QUEUE_INVALID_COLOR"],
      [403, "ERR_NO_PERMISSION"],
      [400, "ERR_VALIDATION"],
    ]);
    expect((await createQueue(admin.token, { name: "Suporte", color: "#e5e" })).body.id).toBe(first.body.id + 1);
  });

  it("refuses colours that are not CSS colours (\"azul\") with a code and the field, writing nothing", async () => {
    const { admin } = await w.fresh();
    for (const color of ["azul", "#12345", "#ggg"]) {
      const res = await createQueue(admin.token, { name: "Vendas", color });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "ERR_QUEUE_INVALID_COLOR", fields: [{ path: "color", message: "Invalid color" }] });
    }
    expect(await listQueues(admin.token)).toEqual([]);
    for (const [name, color] of [["Vermelha", "red"], ["Hex", "#1e88e5"]]) expect((await createQueue(admin.token, { name, color })).status).toBe(200);
  });

  it("stores greeting, out-of-hours message, order, schedules, prompt and integration", async () => {
    const { admin } = await w.fresh();
    const schedules = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "17:30" }];
    const res = await createQueue(admin.token, { name: "Vendas", color: "#0a0", greetingMessage: "Oi", outOfHoursMessage: "Fechado", orderQueue: 1, schedules, promptId: "", integrationId: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ outOfHoursMessage: "Fechado", schedules, promptId: null, integrationId: null, mediaPath: null, mediaName: null });
    const bad = await createQueue(admin.token, { name: "Outra", color: "#0b0", schedules: [{ weekday: "x", weekdayEn: "monday", startTime: "25:00", endTime: "" }] });
    expect(bad.status).toBe(400);
    expect((await listQueues(admin.token)).length).toBe(1);
  });

  it("validates name 2-50 and colour 3-9 with the product's messages and writes nothing", async () => {
    const { admin } = await w.fresh();
    const cases: [unknown, string, string][] = [
      [{ name: "V", color: "#fff" }, "name", "Too Short!"],
      [{ name: "V".repeat(51), color: "#fff" }, "name", "Too Long!"],
      [{ color: "#fff" }, "name", "Required"],
      [{ name: "Vendas", color: "#f" }, "color", "Too Short!"],
      [{ name: "Vendas", color: "#ffffffff00" }, "color", "Too Long!"],
      [{ name: "Vendas" }, "color", "Required"],
      [{ name: "Vendas", color: "#fff", orderQueue: "primeiro" }, "orderQueue", ""],
    ];
    for (const [body, path, message] of cases) {
      const res = await createQueue(admin.token, body as Record<string, unknown>);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      const field = res.body.fields.find((f: any) => f.path === path);
      expect(field).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    expect(await listQueues(admin.token)).toEqual([]);
    // The colour was not reserved by any failed attempt.
    expect((await createQueue(admin.token, { name: "Vendas", color: "#fff" })).status).toBe(200);
  });

  it("creates the queue in the caller's company even when the body names another company", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    const res = await createQueue(b.admin.token, { name: "Vendas", color: "#fff", companyId: a.cid });
    expect(res.status).toBe(200);
    expect(res.body.companyId).toBe(b.cid);
    expect(await listQueues(a.admin.token)).toEqual([]);
  });

  it("refuses non-admins", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId);
    const res = await createQueue(agent.token, { name: "Vendas", color: "#fff" });
    expect(res.status).toBe(403);
    expect(await listQueues(admin.token)).toEqual([]);
  });
});

describe("GET /api/queue", () => {
  it("lists the caller's company queues by orderQueue for any user, never another company's", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    await createQueue(a.admin.token, { name: "Terceira", color: "#333", orderQueue: 3 });
    await createQueue(a.admin.token, { name: "Sem ordem", color: "#444" });
    await createQueue(a.admin.token, { name: "Primeira", color: "#111", orderQueue: 1 });
    await createQueue(b.admin.token, { name: "Outra empresa", color: "#555" });
    const agent = await makeUser(a.cid);
    const res = await api("GET", `/api/queue?companyId=${b.cid}`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.map((q: any) => q.name)).toEqual(["Primeira", "Terceira", "Sem ordem"]);
  });

  it("shows one queue of the company and answers 404 to another company", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    await createQueue(a.admin.token, { name: "Um", color: "#101" });
    const q2 = await createQueue(a.admin.token, { name: "Dois", color: "#202" });
    const own = await api("GET", `/api/queue/${q2.body.id}`, { token: a.admin.token });
    expect(own.status).toBe(200);
    expect(own.body.name).toBe("Dois");
    const cross = await api("GET", `/api/queue/${q2.body.id}`, { token: b.admin.token });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
  });
});

describe("PUT /api/queue/{id}", () => {
  it("changes only the given fields, moves the colour and announces the update", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await createQueue(admin.token, { name: "Vendas", color: "#aaa", greetingMessage: "Bem-vindo", orderQueue: 1 });
    const sock = await registerSocket(companyId, { id: admin.id, profile: "admin" });
    w.capture.clear();
    const res = await api("PUT", `/api/queue/${q.body.id}`, { token: admin.token, body: { color: "#bbb" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Vendas", color: "#bbb", greetingMessage: "Bem-vindo", orderQueue: 1 });
    expect(w.capture.frames).toEqual([{ connectionId: sock, event: `company-${companyId}-queue`, data: { action: "update", queue: res.body } }]);
    // The old colour is free again, the new one is taken.
    expect((await createQueue(admin.token, { name: "Outra", color: "#aaa" })).status).toBe(200);
    expect((await createQueue(admin.token, { name: "Mais uma", color: "#BBB" })).status).toBe(409);
  });

  it("refuses another queue's name and an invalid colour on update, changing nothing; renaming frees the old name", async () => {
    const { admin } = await w.fresh();
    await createQueue(admin.token, { name: "Vendas", color: "#a1a" });
    const q2 = await createQueue(admin.token, { name: "Suporte", color: "#b1b" });
    const dup = await api("PUT", `/api/queue/${q2.body.id}`, { token: admin.token, body: { name: "VENDAS" } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "ERR_QUEUE_NAME_ALREADY_EXISTS" });
    const azul = await api("PUT", `/api/queue/${q2.body.id}`, { token: admin.token, body: { color: "azul" } });
    expect(azul.body.error).toBe("ERR_QUEUE_INVALID_COLOR");
    expect((await api("GET", `/api/queue/${q2.body.id}`, { token: admin.token })).body).toMatchObject({ name: "Suporte", color: "#b1b" });
    // Same name in another letter case is the same queue; a rename frees the old name.
    expect((await api("PUT", `/api/queue/${q2.body.id}`, { token: admin.token, body: { name: "suporte" } })).status).toBe(200);
    expect((await api("PUT", `/api/queue/${q2.body.id}`, { token: admin.token, body: { name: "Atendimento" } })).status).toBe(200);
    expect((await createQueue(admin.token, { name: "Suporte", color: "#c1c" })).status).toBe(200);
  });

  it("refuses a colour of another queue with 409 and changes nothing", async () => {
    const { admin } = await w.fresh();
    await createQueue(admin.token, { name: "Vendas", color: "#aaa" });
    const q2 = await createQueue(admin.token, { name: "Suporte", color: "#bbb" });
    const res = await api("PUT", `/api/queue/${q2.body.id}`, { token: admin.token, body: { name: "Mudou", color: "#aaa" } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" });
    expect((await api("GET", `/api/queue/${q2.body.id}`, { token: admin.token })).body).toMatchObject({ name: "Suporte", color: "#bbb" });
  });

  it("answers 404 to another company, 403 to non-admins and 400 to malformed bodies, changing nothing", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    const q = await createQueue(a.admin.token, { name: "Vendas", color: "#aaa" });
    const agent = await makeUser(a.cid);
    expect((await api("PUT", `/api/queue/${q.body.id}`, { token: b.admin.token, body: { name: "Invasor" } })).status).toBe(404);
    expect((await api("PUT", `/api/queue/${q.body.id}`, { token: agent.token, body: { name: "Invasor" } })).status).toBe(403);
    const bad = await api("PUT", `/api/queue/${q.body.id}`, { token: a.admin.token, body: { name: "x", color: 12 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
    expect((await api("GET", `/api/queue/${q.body.id}`, { token: a.admin.token })).body).toEqual(q.body);
  });
});

describe("DELETE /api/queue/{id}", () => {
  it("deletes the queue, frees its colour, removes it from users and announces both", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await createQueue(admin.token, { name: "Vendas", color: "#aaa" });
    const keep = await createQueue(admin.token, { name: "Suporte", color: "#bbb" });
    const agent = await makeUser(companyId, { queueIds: [q.body.id, keep.body.id] });
    const sock = await registerSocket(companyId, { id: admin.id, profile: "admin" });
    w.capture.clear();
    const res = await api("DELETE", `/api/queue/${q.body.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect((await api("GET", `/api/queue/${q.body.id}`, { token: admin.token })).status).toBe(404);
    const user = await api("GET", `/api/users/${agent.id}`, { token: admin.token });
    expect(user.body.queueIds).toEqual([keep.body.id]);
    expect(w.capture.frames).toContainEqual({ connectionId: sock, event: `company-${companyId}-queue`, data: { action: "delete", queueId: q.body.id } });
    expect(w.capture.frames.some((f) => f.event === `company-${companyId}-user` && f.data.user.id === agent.id)).toBe(true);
    expect((await createQueue(admin.token, { name: "Nova", color: "#aaa" })).status).toBe(200);
  });

  it("takes the queue off the connections that routed to it, and routes no new ticket into it", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await createQueue(admin.token, { name: "Vendas", color: "#a1a" });
    const keep = await createQueue(admin.token, { name: "Suporte", color: "#b1b" });
    const single = await makeWhatsapp(companyId, { queueIds: [q.body.id] });
    const both = await makeWhatsapp(companyId, { queueIds: [q.body.id, keep.body.id], isDefault: false });
    expect((await api("DELETE", `/api/queue/${q.body.id}`, { token: admin.token })).status).toBe(200);
    expect((await getWhatsappItem(companyId, single.id))?.queueIds).toEqual([]);
    expect((await getWhatsappItem(companyId, both.id))?.queueIds).toEqual([keep.body.id]);
    // A connection item that still names the deleted queue (a concurrent edit) routes nowhere.
    const contact = await makeContact(companyId, "Cliente Roteado");
    const { ticket } = await findOrCreateTicket(companyId, { contactId: contact.id, whatsappId: single.id, isGroup: false, resolveQueueId: async () => q.body.id });
    expect(ticket.queueId).toBeNull();
  });

  it("answers 404 to another company and 403 to non-admins, deleting nothing", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    const q = await createQueue(a.admin.token, { name: "Vendas", color: "#aaa" });
    const agent = await makeUser(a.cid);
    expect((await api("DELETE", `/api/queue/${q.body.id}`, { token: b.admin.token })).status).toBe(404);
    expect((await api("DELETE", `/api/queue/${q.body.id}`, { token: agent.token })).status).toBe(403);
    expect((await api("GET", `/api/queue/${q.body.id}`, { token: a.admin.token })).status).toBe(200);
  });
});

describe("a stored item failing its schema", () => {
  it("answers 500 ERR_INTERNAL without zod internals, and logs an error naming the item's key", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const res = await createQueue(admin.token, { name: "Vendas", color: "#00AA00" });
    const key = keys.queue(companyId, res.body.id);
    // Our bug, simulated: a stored queue whose name is no longer a string.
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: "SET #n = :n", ExpressionAttributeNames: { "#n": "name" }, ExpressionAttributeValues: { ":n": 42 } }));
    const { result: got, logs } = await withErrorLogs(() => api("GET", `/api/queue/${res.body.id}`, { token: admin.token }));
    expect(got.status).toBe(500);
    expect(got.body).toEqual({ error: "ERR_INTERNAL" });
    const logged = logs.find((l) => l.msg === "stored item fails its schema");
    expect(logged).toMatchObject({ level: "error", PK: key.PK, SK: key.SK });
  });
});
