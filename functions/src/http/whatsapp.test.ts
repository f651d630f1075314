/**
 * Connections API (docs/product/connections.md): fields and defaults, default-connection rules, session commands, realtime events,
 * and tenant isolation on every `/api/whatsapp*` route.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { api, makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { shardOf } from "@atende/shared/whatsapp/commands";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { findWhatsappByToken, updateSessionState } from "@atende/shared/whatsapp/service";
import { makeQueue, registerSocket } from "../../../session-runner/src/testing/harness.ts";
import { useQueuesAndRealtime } from "../../../session-runner/src/testing/one-machine.ts";

const base = companyWorld();

const world = useQueuesAndRealtime();
beforeEach(() => {
  world.rt.frames.length = 0;
});

async function drain(shard: number) {
  return world.queues.drain(shard);
}

describe("connections", () => {
  it("creates a connection with the product's defaults, makes the first one default and asks the runner to start it", async () => {
    const { cid: companyId, admin } = await base.fresh();
    const res = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Vendas" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Vendas",
      isDefault: true,
      status: "OPENING",
      greetingMessage: "",
      complationMessage: "",
      outOfHoursMessage: "",
      ratingMessage: "",
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      provider: "beta",
      expiresInactiveMessage: "",
      expiresTicket: 0,
      timeToTransfer: 0,
      timeUseBotQueues: 0,
      maxUseBotQueues: 3,
      transferQueueId: null,
      promptId: null,
      queueIds: [],
      qrcode: "",
      retries: 0,
      number: "",
    });
    const cmds = await drain(shardOf(res.body.id));
    expect(cmds).toEqual([expect.objectContaining({ type: "start", companyId, whatsappId: res.body.id })]);
  });

  it("takes no id for refused connections: after refusals the next connection gets the next number", async () => {
    const { cid: companyId, admin } = await base.fresh();
    const agent = await makeUser(companyId, {});
    await makeQueue(companyId, 1);
    await makeQueue(companyId, 2);
    const create = (token: string, body: Record<string, unknown>) => api("POST", "/api/whatsapp", { token, body });
    const first = await create(admin.token, { name: "Primeira" });
    expect(first.status).toBe(200);
    const refused = [
      await create(admin.token, { name: "Sem saudação", queueIds: [1, 2] }),
      await create(admin.token, { name: "Fila alheia", queueIds: [999999] }),
      await create(agent.token, { name: "Agente" }),
    ];
    expect(refused.map((r) => [r.status, r.body.error])).toEqual([
      [400, "ERR_WAPP_GREETING_REQUIRED"],
      [404, "ERR_NO_QUEUE_FOUND"],
      [403, "ERR_NO_PERMISSION"],
    ]);
    expect((await create(admin.token, { name: "Seguinte" })).body.id).toBe(first.body.id + 1);
  });

  it("moves the default flag when another connection is made default, and refuses to leave the company without one", async () => {
    const { admin } = await base.fresh();
    const a = (await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Linha A" } })).body;
    const b = (await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Linha B" } })).body;
    expect(b.isDefault).toBe(false);

    const unset = await api("PUT", `/api/whatsapp/${a.id}`, { token: admin.token, body: { isDefault: false } });
    expect(unset).toMatchObject({ status: 400, body: { error: "ERR_NO_OTHER_WHATSAPP" } });

    const moved = await api("PUT", `/api/whatsapp/${b.id}`, { token: admin.token, body: { isDefault: true } });
    expect(moved.body.isDefault).toBe(true);
    const list = (await api("GET", "/api/whatsapp?session=0", { token: admin.token })).body;
    expect(list.map((w: any) => [w.name, w.isDefault])).toEqual([["Linha A", false], ["Linha B", true]]);

    const delDefault = await api("DELETE", `/api/whatsapp/${b.id}`, { token: admin.token });
    expect(delDefault).toMatchObject({ status: 400, body: { error: "ERR_NO_OTHER_WHATSAPP" } });
    expect((await api("DELETE", `/api/whatsapp/${a.id}`, { token: admin.token })).status).toBe(200);
    expect((await api("DELETE", `/api/whatsapp/${b.id}`, { token: admin.token })).status).toBe(200);
    expect((await api("GET", "/api/whatsapp", { token: admin.token })).body).toEqual([]);
  });

  it("requires a greeting when more than one queue is linked and refuses queues of another company", async () => {
    const { cid: companyId, admin } = await base.fresh();
    const other = await base.fresh();
    await makeQueue(companyId, 1);
    await makeQueue(companyId, 2);
    await makeQueue(other.cid, 9);
    const noGreeting = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Suporte", queueIds: [1, 2] } });
    expect(noGreeting).toMatchObject({ status: 400, body: { error: "ERR_WAPP_GREETING_REQUIRED" } });
    const foreign = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Suporte", queueIds: [9] } });
    expect(foreign).toMatchObject({ status: 404, body: { error: "ERR_NO_QUEUE_FOUND" } });
    const ok = await api("POST", "/api/whatsapp", {
      token: admin.token,
      body: { name: "Suporte", queueIds: [1, 2], greetingMessage: "Olá! Escolha uma opção", transferQueueId: 2, maxUseBotQueues: 5 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.queues.map((q: any) => q.id)).toEqual([1, 2]);
    const cleared = await api("PUT", `/api/whatsapp/${ok.body.id}`, { token: admin.token, body: { greetingMessage: "" } });
    expect(cleared).toMatchObject({ status: 400, body: { error: "ERR_WAPP_GREETING_REQUIRED" } });
    const shown = await api("GET", `/api/whatsapp/${ok.body.id}`, { token: admin.token });
    expect(shown.body).toMatchObject({ greetingMessage: "Olá! Escolha uma opção", transferQueueId: 2, maxUseBotQueues: 5 });
  });

  it("answers 400 ERR_VALIDATION to bad automation fields and 404 to another company's transfer queue, writing nothing", async () => {
    const { cid: companyId, admin } = await base.fresh();
    const other = await base.fresh();
    await makeQueue(companyId, 1);
    await makeQueue(other.cid, 9);
    const created = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Loja", expiresTicket: 30, ratingWaitMinutes: 60 } });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const bad: Record<string, unknown>[] = [
      { expiresTicket: -1 },
      { timeToTransfer: "logo" },
      { timeUseBotQueues: 1.5 },
      { maxUseBotQueues: -2 },
      { ratingWaitMinutes: 0 },
      { transferQueueId: "fila" },
      { greetingMessage: 5 },
      { expiresInactiveMessage: "x".repeat(5001) },
    ];
    for (const body of bad) {
      const post = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Outra", ...body } });
      const put = await api("PUT", `/api/whatsapp/${id}`, { token: admin.token, body });
      for (const res of [post, put]) expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    const foreign = await api("PUT", `/api/whatsapp/${id}`, { token: admin.token, body: { timeToTransfer: 10, transferQueueId: 9 } });
    expect(foreign).toMatchObject({ status: 404, body: { error: "ERR_NO_QUEUE_FOUND" } });
    const foreignNew = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Outra", timeToTransfer: 10, transferQueueId: 9 } });
    expect(foreignNew).toMatchObject({ status: 404, body: { error: "ERR_NO_QUEUE_FOUND" } });
    const list = await api("GET", "/api/whatsapp", { token: admin.token });
    expect(list.body.map((w: any) => w.name)).toEqual(["Loja"]);
    expect(list.body[0]).toMatchObject({ expiresTicket: 30, timeToTransfer: 0, transferQueueId: null, ratingWaitMinutes: 60, maxUseBotQueues: 3, timeUseBotQueues: 0, greetingMessage: "" });
  });

  it("generates the API token on the server, shows it (and the QR code) to admins only, and never takes a client's", async () => {
    const a = await base.fresh();
    const b = await base.fresh();
    const created = await api("POST", "/api/whatsapp", { token: a.admin.token, body: { name: "API", token: "tok-chosen-1" } });
    expect(created.status).toBe(200);
    const token: string = created.body.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await updateSessionState(a.cid, created.body.id, { status: "qrcode", qrcode: "2@pairing-secret" });
    // Another company "choosing" the same token gets its own: no 409 telling it the value is someone's credential.
    const other = await api("POST", "/api/whatsapp", { token: b.admin.token, body: { name: "API", token: token } });
    expect(other.status).toBe(200);
    expect(other.body.token).not.toBe(token);
    const agent = await makeUser(a.cid, { profile: "user" });
    for (const path of ["/api/whatsapp", `/api/whatsapp/${created.body.id}`]) {
      const seen = await api("GET", path, { token: agent.token });
      expect(seen.status).toBe(200);
      expect(JSON.stringify(seen.body)).not.toContain(token);
      expect(JSON.stringify(seen.body)).not.toContain("pairing-secret");
    }
    const shown = await api("GET", "/api/whatsapp", { token: a.admin.token });
    expect(shown.body[0]).toMatchObject({ token, qrcode: "2@pairing-secret" });
    // Stored encrypted; the lookup item is keyed by the token's hash, so the public API still finds the connection.
    const raw = (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.whatsapp(a.cid, created.body.id) }))).Item!;
    expect(JSON.stringify(raw)).not.toContain(token);
    expect((await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.whatsappToken(token) }))).Item).toBeUndefined();
    expect((await findWhatsappByToken(token))?.id).toBe(created.body.id);
    expect(await findWhatsappByToken("tok-chosen-1")).toBeNull();
    const notAdmin = await api("POST", "/api/whatsapp", { token: agent.token, body: { name: "Nova" } });
    expect(notAdmin.status).toBe(403);
  });

  it("regenerates the token (admins of the company only): the old one stops working, the new one works", async () => {
    const a = await base.fresh();
    const b = await base.fresh();
    const w = (await api("POST", "/api/whatsapp", { token: a.admin.token, body: { name: "API" } })).body;
    const agent = await makeUser(a.cid, { profile: "user" });
    expect((await api("POST", `/api/whatsapp/${w.id}/token`, { token: agent.token })).status).toBe(403);
    expect((await api("POST", `/api/whatsapp/${w.id}/token`, { token: b.admin.token })).status).toBe(404);
    expect((await findWhatsappByToken(w.token))?.id).toBe(w.id);
    world.rt.frames.length = 0;
    const renewed = await api("POST", `/api/whatsapp/${w.id}/token`, { token: a.admin.token });
    expect(renewed.status).toBe(200);
    expect(renewed.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(renewed.body.token).not.toBe(w.token);
    expect(await findWhatsappByToken(w.token)).toBeNull();
    expect((await findWhatsappByToken(renewed.body.token))?.id).toBe(w.id);
    expect((await api("GET", `/api/whatsapp/${w.id}`, { token: a.admin.token })).body.token).toBe(renewed.body.token);
    // An edit keeps the token.
    await api("PUT", `/api/whatsapp/${w.id}`, { token: a.admin.token, body: { name: "API 2", token: "x" } });
    expect((await findWhatsappByToken(renewed.body.token))?.id).toBe(w.id);
    // Realtime frames never carry it.
    expect(JSON.stringify(world.rt.frames)).not.toContain(renewed.body.token);
  });

  it("sends start, new-QR, disconnect and restart commands to the connection's shard queue", async () => {
    const { admin } = await base.fresh();
    const w = (await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Fila" } })).body;
    const shard = shardOf(w.id);
    await drain(shard);
    expect((await api("POST", `/api/whatsappsession/${w.id}`, { token: admin.token })).status).toBe(200);
    expect((await api("PUT", `/api/whatsappsession/${w.id}`, { token: admin.token })).status).toBe(200);
    expect((await api("DELETE", `/api/whatsappsession/${w.id}`, { token: admin.token })).status).toBe(200);
    expect((await api("POST", `/api/whatsapp-restart`, { token: admin.token })).body).toEqual({ restarted: 1 });
    const types = (await drain(shard)).filter((c) => c.whatsappId === w.id).map((c) => c.type);
    expect(types).toEqual(["start", "newQr", "disconnect", "restart"]);
  });

  it("publishes session updates to the company's admins only", async () => {
    const a = await base.fresh();
    const b = await base.fresh();
    const agent = await makeUser(a.cid, { profile: "user" });
    const adminSock = await registerSocket(a.cid, a.admin.id, "admin");
    const agentSock = await registerSocket(a.cid, agent.id, "user");
    const otherSock = await registerSocket(b.cid, b.admin.id, "admin");
    const w = (await api("POST", "/api/whatsapp", { token: a.admin.token, body: { name: "Tempo real" } })).body;
    world.rt.frames.length = 0;
    await updateSessionState(a.cid, w.id, { status: "qrcode", qrcode: "2@abc", retries: 1 });
    const got = world.rt.frames.filter((f) => f.connectionId === adminSock);
    expect(got.map((f) => f.event)).toEqual([`company-${a.cid}-whatsappSession`, `company-${a.cid}-whatsapp`]);
    expect(got[0].data).toMatchObject({ action: "update", session: { id: w.id, status: "qrcode", qrcode: "2@abc", retries: 1 } });
    expect(world.rt.frames.some((f) => f.connectionId === agentSock || f.connectionId === otherSock)).toBe(false);
    // Nor does an agent read the pairing QR code through the API (it would pair a phone with the company's number).
    expect((await api("GET", `/api/whatsapp/${w.id}`, { token: agent.token })).body.qrcode).toBe("");
    expect((await api("GET", `/api/whatsapp/${w.id}`, { token: a.admin.token })).body.qrcode).toBe("2@abc");
  });
});

describe("tenant isolation", () => {
  it("answers 404 to a user of another company on every connection route, changing nothing and publishing nothing", async () => {
    const a = await base.fresh();
    const b = await base.fresh();
    const w = (await api("POST", "/api/whatsapp", { token: a.admin.token, body: { name: "Privada", token: "tok-private" } })).body;
    const shard = shardOf(w.id);
    await drain(shard);
    const sockA = await registerSocket(a.cid, a.admin.id, "admin");
    const before = (await api("GET", `/api/whatsapp/${w.id}`, { token: a.admin.token })).body;
    world.rt.frames.length = 0;

    const t = b.admin.token;
    expect((await api("GET", `/api/whatsapp/${w.id}`, { token: t })).status).toBe(404);
    expect((await api("GET", `/api/whatsapp/${w.id}?session=0`, { token: t })).status).toBe(404);
    expect((await api("PUT", `/api/whatsapp/${w.id}`, { token: t, body: { name: "Roubada" } })).status).toBe(404);
    expect((await api("DELETE", `/api/whatsapp/${w.id}`, { token: t })).status).toBe(404);
    expect((await api("POST", `/api/whatsappsession/${w.id}`, { token: t })).status).toBe(404);
    expect((await api("PUT", `/api/whatsappsession/${w.id}`, { token: t })).status).toBe(404);
    expect((await api("DELETE", `/api/whatsappsession/${w.id}`, { token: t })).status).toBe(404);
    expect((await api("POST", `/api/whatsapp/${w.id}/token`, { token: t })).status).toBe(404);
    const list = await api("GET", "/api/whatsapp", { token: t });
    expect(list.body).toEqual([]);
    expect((await api("POST", "/api/whatsapp-restart", { token: t })).body).toEqual({ restarted: 0 });

    const after = (await api("GET", `/api/whatsapp/${w.id}`, { token: a.admin.token })).body;
    expect(after).toEqual(before);
    expect(await drain(shard)).toEqual([]);
    expect(world.rt.frames.filter((f) => f.connectionId === sockA)).toEqual([]);
  });

  it("refuses every route without a valid token", async () => {
    expect((await api("GET", "/api/whatsapp")).status).toBe(401);
    expect((await api("POST", "/api/whatsapp-restart")).status).toBe(401);
  });
});
