/**
 * Automatic messages and timers through the simulated network: what the customer's phone receives, in order, when agents accept,
 * transfer and resolve (HTTP handlers), when the customer rates, and when the minute tick fires the timers with a
 * controlled clock (`event.time` of the scheduled event) — including a tick that comes back long after the due time.
 */
import { describe, expect, it } from "vitest";
import { getWhatsappItem } from "@atende/shared/whatsapp/repository";
import { storedState } from "@atende/shared/ingest/testkit";
import { settleDeferred } from "@atende/shared/events/index";
import { readDailyCounters } from "@atende/shared/db/counters";
import { localDayHour } from "@atende/shared/events/outbox";
import { companyTimeZone } from "@atende/shared/companies/service";
import { getTicketItem } from "@atende/shared/tickets/repository";
import { setSetting, makeQueue } from "@atende/shared/tickets/fixtures.testkit";
import { getTimer } from "@atende/shared/timers/index";
import { RATING_PROMPT } from "@atende/shared/automation/rating";
import { api, makeUser, type TestUser } from "../../test/helpers.ts";
import { companyWorld } from "../../test/world.ts";
import { handler as tick } from "../../functions/src/jobs/tick.ts";
import { eventually, registerSocket } from "./testing/harness.ts";
import { useOneMachine } from "./testing/one-machine.ts";

const companies = companyWorld({ capture: false });

const world = useOneMachine();
const sim = world.sim;

const MIN = 60_000;

interface Setup {
  companyId: number;
  admin: TestUser;
  whatsappId: number;
}

/** A company with a connected connection configured with `fields`. */
async function connected(fields: Record<string, unknown>): Promise<Setup> {
  const { cid: companyId, admin } = await companies.fresh();
  const created = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Loja", ...fields } });
  expect(created.status).toBe(200);
  const whatsappId = created.body.id as number;
  await eventually(async () => (await getWhatsappItem(companyId, whatsappId))?.status === "qrcode");
  expect((await sim("POST", `/sim/whatsapp/${whatsappId}/scan`, {})).status).toBe(200);
  await eventually(async () => (await getWhatsappItem(companyId, whatsappId))?.status === "CONNECTED");
  return { companyId, admin, whatsappId };
}

/** The texts the phone of `number` received from the connection, oldest first. */
async function received(whatsappId: number, number: string): Promise<string[]> {
  const sent = (await sim("GET", `/sim/whatsapp/${whatsappId}/sent`)).body as { jid: string; content: { text?: string } }[];
  return sent.filter((s) => s.jid === `${number}@s.whatsapp.net`).map((s) => s.content.text ?? "");
}

/** Waits until the phone of `number` received exactly `n` texts and returns them. */
async function receivedN(whatsappId: number, number: string, n: number): Promise<string[]> {
  return eventually(async () => {
    const got = await received(whatsappId, number);
    return got.length >= n ? got : null;
  });
}

async function customerWrites(whatsappId: number, from: string, text: string, pushName = "Ana Souza") {
  const res = await sim("POST", `/sim/whatsapp/${whatsappId}/messages`, { from, pushName, text });
  expect(res.status).toBe(200);
  return res.body;
}

async function ticketOf(companyId: number, number: string) {
  const state = await storedState(companyId);
  const contact = state.contacts.find((c) => c.number === number)!;
  return state.tickets.filter((t) => t.contactId === contact.id).sort((a, b) => b.id - a.id)[0];
}

/** Today in the company's zone: the counters' day (not UTC's, which differs between 00:00 and 03:00 UTC for São Paulo). */
const localToday = async (companyId: number) => localDayHour(new Date().toISOString(), await companyTimeZone(companyId)).day;
const tickAt = (ms: number) => tick({ "detail-type": "Scheduled Event", time: new Date(ms).toISOString() });

describe("agent-side automation as the customer sees it", { timeout: 180_000 }, () => {
  it("accept greets once naming the agent, a transfer announces the queue and agent, resolve asks for a rating, a wrong answer re-prompts once, 3 is stored and the completion closes", async () => {
    const s = await connected({ complationMessage: "Atendimento encerrado, obrigado!", ratingMessage: "Como foi nosso atendimento?" });
    const q = await makeQueue(s.companyId, { name: "Financeiro" });
    const agent = await makeUser(s.companyId, { name: "Carla Lima", profile: "admin" });
    const other = await makeUser(s.companyId, { name: "Davi", queueIds: [q.id] });
    for (const key of ["sendGreetingAccepted", "sendMsgTransfTicket", "userRating"]) await setSetting(s.companyId, key, "enabled");
    const phone = "5511911110001";

    await customerWrites(s.whatsappId, phone, "Oi, preciso de ajuda");
    const t = await ticketOf(s.companyId, phone);
    const accepted = await api("PUT", `/api/tickets/${t.id}`, { token: agent.token, body: { status: "open", userId: agent.id } });
    expect(accepted.body).toMatchObject({ status: "open", userId: agent.id });
    // The same PUT again (a double click) and a second agent racing it greet no one again.
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: agent.token, body: { status: "open", userId: agent.id } })).status).toBe(200);
    const [greeting] = await receivedN(s.whatsappId, phone, 1);
    expect(greeting).toContain("meu nome é *Carla Lima*");
    expect(greeting).toContain("*Ana Souza*");

    const moved = await api("PUT", `/api/tickets/${t.id}`, { token: agent.token, body: { queueId: q.id, userId: other.id, status: "open" } });
    expect(moved.body).toMatchObject({ status: "open", queueId: q.id, userId: other.id });
    await receivedN(s.whatsappId, phone, 2);

    const resolved = await api("PUT", `/api/tickets/${t.id}`, { token: other.token, body: { status: "closed" } });
    expect(resolved.status).toBe(200);
    // Not closed yet: still listed, marked as awaiting the rating.
    expect(resolved.body).toMatchObject({ status: "open", ratingAt: expect.any(String), userId: other.id });
    expect((await api("GET", "/api/tickets?status=open", { token: other.token })).body.tickets.map((x: any) => x.id)).toContain(t.id);
    await receivedN(s.whatsappId, phone, 3);

    await customerWrites(s.whatsappId, phone, "foi ótimo");
    await receivedN(s.whatsappId, phone, 4);
    await customerWrites(s.whatsappId, phone, "3");
    const all = await receivedN(s.whatsappId, phone, 5);
    expect(all).toEqual([
      greeting,
      "*Mensagem automática*:\nVocê foi transferido para o departamento *Financeiro* e contará com a presença de *Davi*\naguarde, já vamos te atender!",
      `Como foi nosso atendimento?\n\n${RATING_PROMPT}`,
      RATING_PROMPT,
      "Atendimento encerrado, obrigado!",
    ]);
    const closed = await getTicketItem(s.companyId, t.id, true);
    expect(closed).toMatchObject({ status: "closed", ratingAt: null, userId: other.id });
    const state = await storedState(s.companyId);
    expect(state.messages.filter((m) => m.ticketId === t.id && m.fromMe).every((m) => m.isAutomatic && m.userId === null)).toBe(true);
    // The rating is the attendant's: counted on their day (and the company's), once.
    await settleDeferred();
    const day = await localToday(s.companyId);
    expect(await readDailyCounters(s.companyId, day, other.id)).toMatchObject({ ratings: 1, ratingSum: 3 });
    expect(await readDailyCounters(s.companyId, day)).toMatchObject({ ratings: 1, ratingSum: 3 });
    // Nothing more reaches the customer, and the rating wait is gone.
    expect(await getTimer(s.companyId, "ratingWait", t.id)).toBeNull();
    await tickAt(Date.now() + 2 * 1440 * MIN);
    expect(await received(s.whatsappId, phone)).toHaveLength(5);
  });

  it("a second wrong answer closes without a rating; an unanswered prompt closes at the connection's wait, once", async () => {
    const s = await connected({ complationMessage: "Tchau!", ratingWaitMinutes: 30 });
    const agent = await makeUser(s.companyId, { name: "Eva", profile: "admin" });
    await setSetting(s.companyId, "userRating", "enabled");

    const p1 = "5511911110002";
    await customerWrites(s.whatsappId, p1, "oi");
    const t1 = await ticketOf(s.companyId, p1);
    await api("PUT", `/api/tickets/${t1.id}`, { token: agent.token, body: { status: "open" } });
    await api("PUT", `/api/tickets/${t1.id}`, { token: agent.token, body: { status: "closed" } });
    await receivedN(s.whatsappId, p1, 1);
    await customerWrites(s.whatsappId, p1, "hã?");
    await receivedN(s.whatsappId, p1, 2);
    await customerWrites(s.whatsappId, p1, "5");
    expect(await receivedN(s.whatsappId, p1, 3)).toEqual([RATING_PROMPT, RATING_PROMPT, "Tchau!"]);
    expect(await getTicketItem(s.companyId, t1.id, true)).toMatchObject({ status: "closed", ratingAt: null });

    const p2 = "5511911110003";
    await customerWrites(s.whatsappId, p2, "olá");
    const t2 = await ticketOf(s.companyId, p2);
    await api("PUT", `/api/tickets/${t2.id}`, { token: agent.token, body: { status: "open" } });
    await api("PUT", `/api/tickets/${t2.id}`, { token: agent.token, body: { status: "closed" } });
    await receivedN(s.whatsappId, p2, 1);
    await tickAt(Date.now() + 20 * MIN); // not yet
    expect((await getTicketItem(s.companyId, t2.id, true))?.status).toBe("open");
    // The system was down past the due time: the first tick back closes it, a second tick changes nothing.
    await Promise.all([tickAt(Date.now() + 300 * MIN), tickAt(Date.now() + 300 * MIN)]);
    await tickAt(Date.now() + 301 * MIN);
    expect(await receivedN(s.whatsappId, p2, 2)).toEqual([RATING_PROMPT, "Tchau!"]);
    expect(await getTicketItem(s.companyId, t2.id, true)).toMatchObject({ status: "closed", ratingAt: null });
    await settleDeferred();
    expect(await readDailyCounters(s.companyId, await localToday(s.companyId), agent.id)).toMatchObject({ ratings: 0, ratingSum: 0 });
    expect(await received(s.whatsappId, p2)).toHaveLength(2);
  });

  it("a plain resolve sends the completion message; a transfer to a queue only names the queue", async () => {
    const s = await connected({ complationMessage: "Obrigado pelo contato!" });
    const q = await makeQueue(s.companyId, { name: "Vendas" });
    const agent = await makeUser(s.companyId, { name: "Fábio", profile: "admin" });
    await setSetting(s.companyId, "sendMsgTransfTicket", "enabled");
    const phone = "5511911110004";
    await customerWrites(s.whatsappId, phone, "bom dia");
    const t = await ticketOf(s.companyId, phone);
    await api("PUT", `/api/tickets/${t.id}`, { token: agent.token, body: { status: "open" } });
    await api("PUT", `/api/tickets/${t.id}`, { token: agent.token, body: { queueId: q.id, userId: null } });
    await api("PUT", `/api/tickets/${t.id}`, { token: agent.token, body: { status: "open" } });
    const done = await api("PUT", `/api/tickets/${t.id}`, { token: agent.token, body: { status: "closed" } });
    expect(done.body).toMatchObject({ status: "closed", ratingAt: null });
    expect(await receivedN(s.whatsappId, phone, 2)).toEqual([
      "*Mensagem automática*:\nVocê foi transferido para o departamento *Vendas*\naguarde, já vamos te atender!",
      "Obrigado pelo contato!",
    ]);
  });
});

describe("timers as the customer sees them", { timeout: 180_000 }, () => {
  it("expiresTicket closes an open ticket whose last message is the agent's after the idle time, with the inactivity message; activity moves it", async () => {
    const s = await connected({ expiresTicket: 10, expiresInactiveMessage: "Encerramos por inatividade." });
    const agent = await makeUser(s.companyId, { name: "Gil", profile: "admin" });
    const phone = "5511911110005";
    await customerWrites(s.whatsappId, phone, "oi");
    const t = await ticketOf(s.companyId, phone);
    await api("PUT", `/api/tickets/${t.id}`, { token: agent.token, body: { status: "open" } });
    expect(await getTimer(s.companyId, "expiresTicket", t.id)).not.toBeNull();

    // The customer spoke last: never closed, however long it waits.
    await tickAt(Date.now() + 15 * MIN);
    expect((await getTicketItem(s.companyId, t.id, true))?.status).toBe("open");

    const reply = await api("POST", `/api/messages/${t.id}`, { token: agent.token, body: { body: "Posso ajudar?", signMessage: false } });
    expect(reply.status).toBe(200);
    await receivedN(s.whatsappId, phone, 1);
    const repliedAt = Date.now();
    await tickAt(repliedAt + 5 * MIN); // 5 idle minutes: not yet
    expect((await getTicketItem(s.companyId, t.id, true))?.status).toBe("open");
    // Down for hours past the due time: the first tick back closes it once.
    await Promise.all([tickAt(repliedAt + 240 * MIN), tickAt(repliedAt + 240 * MIN)]);
    await tickAt(repliedAt + 241 * MIN);
    const closed = await getTicketItem(s.companyId, t.id, true);
    expect(closed?.status).toBe("closed");
    expect(await receivedN(s.whatsappId, phone, 2)).toEqual(["Posso ajudar?", "Encerramos por inatividade."]);
    expect(await getTimer(s.companyId, "expiresTicket", t.id)).toBeNull();
    await tickAt(repliedAt + 600 * MIN);
    expect(await received(s.whatsappId, phone)).toHaveLength(2);
  });

  it("timeToTransfer moves a pending ticket without a queue to the transfer queue, tells agents, and announces it when enabled", async () => {
    const { cid: companyId, admin } = await companies.fresh();
    const q = await makeQueue(companyId, { name: "Triagem" });
    const q2 = await makeQueue(companyId, { name: "Outra" });
    const created = await api("POST", "/api/whatsapp", {
      token: admin.token,
      body: { name: "Loja", queueIds: [q.id, q2.id], greetingMessage: "Escolha", timeToTransfer: 5, transferQueueId: q.id },
    });
    expect(created.status).toBe(200);
    const whatsappId = created.body.id as number;
    await eventually(async () => (await getWhatsappItem(companyId, whatsappId))?.status === "qrcode");
    await sim("POST", `/sim/whatsapp/${whatsappId}/scan`, {});
    await eventually(async () => (await getWhatsappItem(companyId, whatsappId))?.status === "CONNECTED");
    await setSetting(companyId, "sendMsgTransfTicket", "enabled");
    const queueAgent = await makeUser(companyId, { queueIds: [q.id] });
    const sock = await registerSocket(companyId, queueAgent.id, "user", [q.id]);

    const phone = "5511911110006";
    await customerWrites(whatsappId, phone, "oi");
    const t = await ticketOf(companyId, phone);
    expect(t).toMatchObject({ status: "pending", queueId: null });
    // Two queues: the bot's greeting and menu reach the phone first; count from there.
    await receivedN(whatsappId, phone, 1);
    const before = (await received(whatsappId, phone)).length;

    await tickAt(Date.now() + 3 * MIN);
    expect((await getTicketItem(companyId, t.id, true))?.queueId).toBeNull();
    await Promise.all([tickAt(Date.now() + 90 * MIN), tickAt(Date.now() + 90 * MIN)]);
    expect(await getTicketItem(companyId, t.id, true)).toMatchObject({ status: "pending", queueId: q.id, userId: null });
    expect((await api("GET", "/api/tickets?status=pending", { token: queueAgent.token })).body.tickets.map((x: any) => x.id)).toContain(t.id);
    // The queue's agents are told at once (realtime `ticket` update), once.
    const updates = world.rt.frames.filter(
      (f) => f.connectionId === sock && f.event === `company-${companyId}-ticket` && f.data.action === "update" && f.data.ticket?.id === t.id && f.data.ticket.queueId === q.id && !f.data.ticket.lastMessage.includes("transferido"),
    );
    expect(updates).toHaveLength(1);
    const got = await receivedN(whatsappId, phone, before + 1);
    expect(got.slice(before)).toEqual(["*Mensagem automática*:\nVocê foi transferido para o departamento *Triagem*\naguarde, já vamos te atender!"]);
    await tickAt(Date.now() + 200 * MIN);
    expect(await received(whatsappId, phone)).toHaveLength(before + 1);
  });
});
