/**
 * The dashboard through the real Lambda handlers, after a scripted day of one company (a message delivered three
 * times, two agents accepting at once, a transfer, a close, a reopen, a rated close, the listener runs re-driven):
 * every count exact, from counter items only. Another company sees none of it; a non-admin gets 403; the platform
 * cards only for super users; a ticket at 23:30 in São Paulo counts on that local day (with its hour).
 */
import { PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { api, makeUser, withErrorLogs } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { finishRating } from "../../../shared/src/automation/rating.ts";
import { CreateCompanyBody } from "../../../shared/src/companies/schema.ts";
import { createCompany } from "../../../shared/src/companies/service.ts";
import { ddb, tableName } from "../../../shared/src/db/client.ts";
import { redriveDurable } from "../../../shared/src/events/durable.ts";
import { dispatch, settleDeferred } from "../../../shared/src/events/index.ts";
import { applyOutbox, counterFacts, OUTBOX_GRACE_MS, outboxPut, redriveOutbox } from "../../../shared/src/events/outbox.ts";
import { handleBaileysEvent } from "../../../shared/src/ingest/index.ts";
import { cycleAfter } from "../../../shared/src/tickets/cycles.ts";
import { getTicketItem } from "../../../shared/src/tickets/repository.ts";
import { makeContact, makeTicket, setSetting } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { queryAll } from "../../../shared/src/db/query.ts";
import { keys } from "../../../shared/src/db/keys.ts";
import { getWhatsappItem } from "../../../shared/src/whatsapp/repository.ts";
import "../../../shared/src/whatsapp/events.ts";

const w = companyWorld({ queues: ["Suporte"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Beto" }], other: true });
const ana = () => w.agents[0];
const beto = () => w.agents[1];

const dashboard = (token: string, query = "?days=1") => api("GET", `/api/dashboard${query}`, { token });
const text = (jid: string, id: string, body: string) => ({ key: { fromMe: false, remoteJid: jid, id }, message: { conversation: body }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: "Maria" });
/** The company's local today (its zone is São Paulo's). */
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
const settle = async () => {
  await settleDeferred();
  // The minute tick, twice, a minute on: re-driving what the listeners already applied changes nothing.
  await redriveOutbox(Date.now() + OUTBOX_GRACE_MS + 1000);
  await redriveOutbox(Date.now() + OUTBOX_GRACE_MS + 2000);
  await redriveDurable(Date.now() + 5 * 60_000);
};

describe("a scripted day", { timeout: 240_000 }, () => {
  let t1 = 0;
  let winner = ana();
  let other = beto();

  beforeAll(async () => {
    // A new customer's first message, delivered three times at once.
    const m = text("5511977770001@s.whatsapp.net", "3EB0DASH000000000001", "oi");
    const ctx = { companyId: w.cid, whatsappId: w.wa };
    await Promise.all([1, 2, 3].map(() => handleBaileysEvent(ctx, "messages.upsert", { messages: [m], type: "notify" })));
    await settleDeferred();
    const listed = await api("GET", "/api/tickets?status=pending&showAll=true", { token: w.admin.token });
    t1 = listed.body.tickets[0].id;
    expect((await api("PUT", `/api/tickets/${t1}`, { token: w.admin.token, body: { queueId: w.queues[0] } })).status).toBe(200); // into the agents' queue
    // Two agents accept it at once: one wins.
    const both = await Promise.all([ana(), beto()].map((a) => api("PUT", `/api/tickets/${t1}`, { token: a.token, body: { status: "open", userId: a.id } })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    winner = both[0].status === 200 ? ana() : beto();
    other = winner === ana() ? beto() : ana();
    // Transferred to the other agent, who closes it, reopens it, and resolves it; the customer rates 3.
    expect((await api("PUT", `/api/tickets/${t1}`, { token: w.admin.token, body: { userId: other.id } })).status).toBe(200);
    expect((await api("PUT", `/api/tickets/${t1}`, { token: other.token, body: { status: "closed", justClose: true } })).body.status).toBe("closed");
    expect((await api("PUT", `/api/tickets/${t1}`, { token: other.token, body: { status: "open", userId: other.id } })).body.status).toBe("open");
    await setSetting(w.cid, "userRating", "enabled");
    const resolved = await api("PUT", `/api/tickets/${t1}`, { token: other.token, body: { status: "closed" } });
    expect(resolved.body.ratingAt).toEqual(expect.any(String));
    expect(await finishRating(w.cid, t1, resolved.body.ratingAt, 3)).toBe(true);
    await setSetting(w.cid, "userRating", "disabled");
    // One ticket left waiting, one in conversation with Ana (written without their listeners: the tick counts them).
    await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], contact: await makeContact(w.cid, "Paula") });
    await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: ana().id, contact: await makeContact(w.cid, "Rui") });
    await settle();
  });

  it("shows exact cards and the attendants' table", async () => {
    const res = await dashboard(w.admin.token);
    expect(res.status).toBe(200);
    // The customer's one message, delivered three times, counts once; the one sent is the automatic rating prompt.
    expect(res.body.counters).toEqual({ supportHappening: 1, supportPending: 1, supportFinished: 2, newContacts: 3, avgSupportTime: expect.any(Number), avgWaitTime: expect.any(Number), messagesIn: 1, messagesOut: 1 });
    const byId = new Map(res.body.attendants.map((a: any) => [a.id, a]));
    expect(byId.get(other.id)).toMatchObject({ name: other === ana() ? "Ana" : "Beto", rating: 3, tickets: other === ana() ? 2 : 1, online: false });
    expect(byId.get(winner.id)).toMatchObject({ rating: 0, tickets: winner === ana() ? 2 : 1 });
    // Same answer by dates (the company's local today).
    expect((await dashboard(w.admin.token, `?date_from=${today()}&date_to=${today()}`)).body.counters).toEqual(res.body.counters);
  });

  it("stores each finished service cycle on its ticket, the rated one with its rate", async () => {
    const cycles: any[] = await queryAll({ KeyConditionExpression: "PK = :pk AND begins_with(SK, :c)", ExpressionAttributeValues: { ":pk": keys.ticket(w.cid, t1).PK, ":c": keys.ticketCyclePrefix } });
    expect(cycles).toHaveLength(2);
    expect(cycles[0]).toMatchObject({ acceptedBy: winner.id, userId: other.id, rate: null });
    expect(cycles[1]).toMatchObject({ acceptedBy: other.id, userId: other.id, rate: 3, ratedAt: expect.any(String) });
    expect(cycles[1].queuedAt >= cycles[0].finishedAt).toBe(true); // the reopen started a new cycle
  });

  it("counts tickets per attendant and per hour of the day, with the total", async () => {
    const users = await api("GET", `/api/dashboard/ticketsUsers?initialDate=${today()}&finalDate=${today()}`, { token: w.admin.token });
    expect(users.status).toBe(200);
    expect(users.body.count).toBe(3);
    expect(users.body.data.find((r: any) => r.userId === ana().id).total).toBe(2);
    const day = await api("GET", `/api/dashboard/ticketsDay?initialDate=${today()}&finalDate=${today()}`, { token: w.admin.token });
    expect(day.body.count).toBe(3);
    expect(day.body.data).toHaveLength(24);
    const hour = Number(new Intl.DateTimeFormat("en-GB", { timeZone: "America/Sao_Paulo", hour: "2-digit", hourCycle: "h23" }).format(new Date()));
    expect(day.body.data.filter((r: any) => r.total > 0).map((r: any) => r.hour)).toContain(hour);
  });

  it("keeps the open and pending counts exact when a ticket is deleted", async () => {
    const pending = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], contact: await makeContact(w.cid, "Tina") });
    await settle();
    expect((await dashboard(w.admin.token)).body.counters.supportPending).toBe(2);
    expect((await api("DELETE", `/api/tickets/${pending.id}`, { token: w.admin.token })).status).toBe(200);
    await settle();
    expect((await dashboard(w.admin.token)).body.counters).toMatchObject({ supportPending: 1, supportHappening: 1 });
  });

  it("shows another company none of it, and refuses agents and another company's id", async () => {
    const theirs = await dashboard(w.other.admin.token);
    expect(theirs.status).toBe(200);
    expect(theirs.body.counters).toMatchObject({ supportHappening: 0, supportPending: 0, supportFinished: 0, newContacts: 0 });
    expect(theirs.body.attendants.map((a: any) => a.id)).toEqual([w.other.admin.id]);
    for (const path of ["/api/dashboard?days=7", `/api/dashboard/ticketsUsers?initialDate=${today()}&finalDate=${today()}`, `/api/dashboard/ticketsDay?initialDate=${today()}&finalDate=${today()}`]) {
      const res = await api("GET", path, { token: ana().token });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe("ERR_NO_PERMISSION");
    }
    const peek = await api("GET", `/api/dashboard/ticketsUsers?initialDate=${today()}&finalDate=${today()}&companyId=${w.cid}`, { token: w.other.admin.token });
    expect(peek.status).toBe(403);
    expect(peek.body.data).toBeUndefined();
  });

  it("refuses bad periods with 400", async () => {
    for (const q of ["?days=0", "?days=abc", "?date_from=2026-13-01", "?date_from=2026-03-10&date_to=2026-03-01", "?date_from=2020-01-01&date_to=2026-01-01"]) {
      const res = await dashboard(w.admin.token, q);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    expect((await api("GET", "/api/dashboard/ticketsDay?initialDate=2026-03-10", { token: w.admin.token })).status).toBe(400);
  });
});

describe("a stored day item failing its schema", () => {
  it("answers 500 ERR_INTERNAL and logs an error naming the item's key", async () => {
    const c = await w.fresh();
    const key = keys.stats(c.cid, "2026-03-10", c.admin.id);
    // Our bug, simulated: a counter stored as text.
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...key, ticketsAccepted: 2, handled: "2" } }));
    const { result: got, logs } = await withErrorLogs(() => dashboard(c.admin.token, "?date_from=2026-03-01&date_to=2026-03-31"));
    expect(got.status).toBe(500);
    expect(got.body).toEqual({ error: "ERR_INTERNAL" });
    const logged = logs.find((l) => l.msg === "stored item fails its schema");
    expect(logged).toMatchObject({ level: "error", PK: key.PK, SK: key.SK });
  });
});

describe("customers' messages", { timeout: 120_000 }, () => {
  it("shows today's at once, per company and per attendant, and another company none of them", async () => {
    const c = await w.fresh();
    const bia = await makeUser(c.cid, { name: "Bia" });
    const ctx = { companyId: c.cid, whatsappId: c.wa };
    const jid = "5511977770009@s.whatsapp.net";
    await handleBaileysEvent(ctx, "messages.upsert", { messages: [text(jid, "3EB0DASHIN0000000001", "oi")], type: "notify" });
    await settleDeferred();
    const listed = await api("GET", "/api/tickets?status=pending&showAll=true", { token: c.admin.token });
    const ticketId = listed.body.tickets[0].id;
    expect((await api("PUT", `/api/tickets/${ticketId}`, { token: c.admin.token, body: { status: "open", userId: bia.id } })).status).toBe(200);
    const second = text(jid, "3EB0DASHIN0000000002", "meu pedido não chegou");
    await Promise.all([1, 2].map(() => handleBaileysEvent(ctx, "messages.upsert", { messages: [second], type: "notify" })));
    await handleBaileysEvent(ctx, "messages.upsert", { messages: [text(jid, "3EB0DASHIN0000000003", "pedido 123")], type: "notify" });
    // A reply typed on the company's phone (not sent through Atende) counts on its ticket only (dashboard.md).
    await handleBaileysEvent(ctx, "messages.upsert", { messages: [{ ...text(jid, "3EB0DASHOUT000000001", "já verifico"), key: { fromMe: true, remoteJid: jid, id: "3EB0DASHOUT000000001" } }], type: "notify" });
    await settleDeferred(); // no tick: today's figure does not wait for the day's end
    expect(await getTicketItem(c.cid, ticketId, true)).toMatchObject({ messagesIn: 3, messagesOut: 1 });
    const res = await dashboard(c.admin.token);
    expect(res.body.counters).toMatchObject({ messagesIn: 3, messagesOut: 0 });
    expect(res.body.attendants.find((a: any) => a.id === bia.id)).toMatchObject({ messagesIn: 2, messagesOut: 0 });
    expect(res.body.attendants.find((a: any) => a.id === c.admin.id)).toMatchObject({ messagesIn: 0, messagesOut: 0 });
    expect((await dashboard(w.other.admin.token)).body.counters).toMatchObject({ messagesIn: 0, messagesOut: 0 });
    expect((await dashboard(bia.token)).status).toBe(403);
  });
});

describe("platform cards", { timeout: 120_000 }, () => {
  it("go to super users only, from the platform's counter item", async () => {
    const root = await makeUser(w.cid, { profile: "admin", super: true, name: "Root" });
    const before = (await dashboard(root.token)).body.counters;
    expect(before).toMatchObject({ totalCompanies: expect.any(Number), totalWhatsappSessions: expect.any(Number) });
    expect((await dashboard(w.admin.token)).body.counters).not.toHaveProperty("totalCompanies");
    expect((await dashboard(w.admin.token)).body.counters).not.toHaveProperty("totalWhatsappSessions");

    await createCompany("system", CreateCompanyBody.parse({ name: "Nova", email: `nova-${Date.now()}@test.com`, password: "secret1", planId: w.planId }));
    const wa = (await getWhatsappItem(w.cid, w.wa))!;
    const session = (status: string) => dispatch({ type: "whatsapp.session", companyId: w.cid, whatsapp: { ...wa, status } as never });
    await session("CONNECTED");
    await session("CONNECTED"); // told twice: one session
    const after = (await dashboard(root.token)).body.counters;
    expect(after.totalCompanies).toBe(before.totalCompanies + 1);
    expect(after.totalWhatsappSessions).toBe(before.totalWhatsappSessions + 1);
    await session("DISCONNECTED");
    expect((await dashboard(root.token)).body.counters.totalWhatsappSessions).toBe(before.totalWhatsappSessions);
  });
});

/**
 * Counts, through the outbox, ticket `id` of company `companyId` opened at 23:30 on 2026-03-10 in São Paulo, accepted
 * by `userId` 6 min later and closed after 20 min of handling; each fact applied twice (the second counts nothing).
 */
async function countCycle(companyId: number, userId: number, id = 1): Promise<void> {
  const base = { companyId, id, userId: null, version: 0, contactId: 1, queueId: null, whatsappId: 1, queuedAt: null, acceptedAt: null, acceptedBy: null, ratingAt: null };
  const opened = { ...base, status: "pending", createdAt: "2026-03-11T02:30:00.000Z", updatedAt: "2026-03-11T02:30:00.000Z" }; // 23:30 on the 10th in São Paulo
  Object.assign(opened, cycleAfter(null, opened));
  const accepted = { ...opened, status: "open", userId, version: 1, updatedAt: "2026-03-11T02:36:00.000Z" }; // waited 6 min
  Object.assign(accepted, cycleAfter(opened, accepted));
  const closed = { ...accepted, status: "closed", version: 2, updatedAt: "2026-03-11T02:56:00.000Z" }; // handled 20 min
  Object.assign(closed, cycleAfter(accepted, closed));
  for (const e of [counterFacts.ticket(null, opened)!, counterFacts.ticket(opened, accepted)!, counterFacts.ticket(accepted, closed)!]) {
    await ddb().send(new TransactWriteCommand({ TransactItems: outboxPut(e) }));
    expect(await applyOutbox(e)).toBe("applied");
    expect(await applyOutbox(e)).toBe("done"); // a re-driven apply counts nothing
  }
}

describe("time zone", { timeout: 120_000 }, () => {
  it("counts a ticket opened at 23:30 in São Paulo on that local day and hour, with its wait and handling", async () => {
    const c = await w.fresh();
    await countCycle(c.cid, c.admin.id);
    const on10 = await dashboard(c.admin.token, "?date_from=2026-03-10&date_to=2026-03-10");
    expect(on10.body.counters).toMatchObject({ supportFinished: 1, avgWaitTime: 6, avgSupportTime: 20 });
    expect(on10.body.attendants.find((a: any) => a.id === c.admin.id)).toMatchObject({ avgSupportTime: 20, tickets: 1 });
    expect((await dashboard(c.admin.token, "?date_from=2026-03-11&date_to=2026-03-11")).body.counters).toMatchObject({ supportFinished: 0, avgWaitTime: 0 });
    const hours = await api("GET", "/api/dashboard/ticketsDay?initialDate=2026-03-10&finalDate=2026-03-10", { token: c.admin.token });
    expect(hours.body.data[23]).toEqual({ hour: 23, total: 1 });
    expect(hours.body.count).toBe(1);
    const days = await api("GET", "/api/dashboard/ticketsDay?initialDate=2026-03-09&finalDate=2026-03-11", { token: c.admin.token });
    expect(days.body).toEqual({ data: [{ date: "2026-03-09", total: 0 }, { date: "2026-03-10", total: 1 }, { date: "2026-03-11", total: 0 }], count: 1 });
  });
});

describe("days counted before the attendants' counters moved into the company's day item", { timeout: 120_000 }, () => {
  it("sums the attendants' own day items of then with what is counted now, and counts now in one item per day", async () => {
    const c = await w.fresh();
    const bia = await makeUser(c.cid, { name: "Bia" });
    const put = (Item: Record<string, unknown>) => ddb().send(new PutCommand({ TableName: tableName(), Item }));
    // 2026-03-10 as the former layout left it: the company's day item and one item per attendant.
    await put({ ...keys.stats(c.cid, "2026-03-10"), ticketsAccepted: 3, waitSeconds: 1080, ticketsClosed: 3, handled: 3, handlingSeconds: 3600, ratings: 1, ratingSum: 3, messagesIn: 6 });
    await put({ ...keys.stats(c.cid, "2026-03-10", c.admin.id), ticketsAccepted: 2, handled: 2, handlingSeconds: 2400, ratings: 1, ratingSum: 3, messagesIn: 4 });
    await put({ ...keys.stats(c.cid, "2026-03-10", bia.id), ticketsAccepted: 1, handled: 1, handlingSeconds: 1200, messagesInLive: 2 });
    // Bia's 2 messages counted live then, handed over at the day's end now (3 in all, those 2 among them).
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.stats(c.cid, "2026-03-10"), UpdateExpression: "ADD #in :n", ExpressionAttributeNames: { "#in": `U#${bia.id}#messagesIn` }, ExpressionAttributeValues: { ":n": 3 } }));
    const caio = await makeUser(c.cid, { name: "Caio" });
    // The same day, counted now: one more cycle of the admin's and one of Caio's (20 min of handling each).
    await countCycle(c.cid, c.admin.id);
    await countCycle(c.cid, caio.id, 2);
    const res = await dashboard(c.admin.token, "?date_from=2026-03-01&date_to=2026-03-31");
    expect(res.status).toBe(200);
    expect(res.body.counters).toMatchObject({ supportFinished: 5, avgSupportTime: 20, avgWaitTime: 6, messagesIn: 6 });
    const byId = new Map(res.body.attendants.map((a: any) => [a.id, a]));
    expect(byId.get(c.admin.id)).toMatchObject({ tickets: 3, avgSupportTime: 20, rating: 3, messagesIn: 4 });
    expect(byId.get(bia.id)).toMatchObject({ tickets: 1, avgSupportTime: 20, rating: 0, messagesIn: 3 });
    expect(byId.get(caio.id)).toMatchObject({ tickets: 1, avgSupportTime: 20, rating: 0, messagesIn: 0 });
    const users = await api("GET", "/api/dashboard/ticketsUsers?initialDate=2026-03-10&finalDate=2026-03-10", { token: c.admin.token });
    expect(users.body).toEqual({ data: [{ userId: c.admin.id, name: expect.any(String), total: 3 }, { userId: bia.id, name: "Bia", total: 1 }, { userId: caio.id, name: "Caio", total: 1 }], count: 5 });
    const day = await api("GET", "/api/dashboard/ticketsDay?initialDate=2026-03-09&finalDate=2026-03-11", { token: c.admin.token });
    expect(day.body.count).toBe(2);
    // What is counted now adds no item per attendant (none for Caio): the day's items are the company's and the former two.
    const items: any[] = await queryAll({ KeyConditionExpression: "PK = :pk AND begins_with(SK, :d)", ExpressionAttributeValues: { ":pk": keys.statsPK(c.cid), ":d": "D#2026-03-10" } });
    expect(items.map((i) => i.SK).sort()).toEqual([keys.stats(c.cid, "2026-03-10").SK, keys.stats(c.cid, "2026-03-10", c.admin.id).SK, keys.stats(c.cid, "2026-03-10", bia.id).SK].sort());
  });
});
