/**
 * Scheduled messages through the real Lambda handlers: CRUD with the product's validation messages, each profile's
 * rights, cross-company isolation on every route, the plan flag, the picture through the media port, realtime frames;
 * and the send (minute tick → dispatch queue → consumer) with a controlled clock: at its time, exactly once under SQS
 * redelivery and concurrent deliveries, after an outage (late, and shown so), through the ticket's or the default
 * connection, into the contact's ticket like an agent's message, and ERRO with the reason when nothing is connected.
 */
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { beforeEach, describe, expect, it } from "vitest";
import { api, makeUser, multipartBody, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, useLocalAws } from "../../../test/world.ts";
import { getConfig } from "../../../shared/src/config.ts";
import { headMedia } from "../../../shared/src/storage/media.ts";
import { sqsClient } from "../../../shared/src/sqs/enqueue.ts";
import { makeContact, makeTicket, makeWhatsapp } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { getTicketItem } from "../../../shared/src/tickets/repository.ts";
import { listMessages } from "../../../shared/src/messages/repository.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { getSchedule } from "../../../shared/src/schedules/repository.ts";
import { Schedule, SchedulesPage } from "../../../shared/src/schedules/schema.ts";
import { sweepDueSchedules } from "../../../shared/src/schedules/send.ts";
import { dueShardsToRead } from "../../../shared/src/db/keys.ts";
import type { ContactItem } from "../../../shared/src/contacts/schema.ts";
import { handler as dispatchHandler } from "../jobs/dispatch.ts";
import { callsOf } from "../../../shared/src/ingest/calls.testkit.ts";
import { forgetSocketListing } from "../../../shared/src/realtime/publish.ts";

useLocalAws({ sqs: true, bucket: "atende-schedules-test" });
const w = companyWorld({ queues: ["Suporte"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Bruno" }, { queues: [0], name: "Sofia", profile: "supervisor" }], other: true });
const ana = () => w.agents[0];
const bruno = () => w.agents[1];
const sofia = () => w.agents[2];

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();
const create = (u: TestUser, body: Record<string, unknown>) => api("POST", "/api/schedules", { token: u.token, body });
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const upload = (u: TestUser, id: number, name = "foto.png", data = png, type = "image/png") =>
  api("POST", `/api/schedules/${id}/media-upload`, { token: u.token, ...multipartBody([{ field: "file", name, type, data }]) });

/** Receives what waits on the dispatch queue; `keep` leaves the messages there (a redelivery will bring them again). */
async function receiveDispatch(keep = false): Promise<{ messageId: string; body: string }[]> {
  const url = getConfig().DISPATCH_QUEUE_URL!;
  const out: { messageId: string; body: string }[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: keep ? 0 : 30 }));
    if (!res.Messages?.length) break;
    for (const m of res.Messages) {
      out.push({ messageId: m.MessageId!, body: m.Body! });
      if (!keep) await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    }
    if (keep) break;
  }
  return out;
}

/** The minute tick at `at` and then the dispatch consumer for what it queued (as Lambda runs them). */
async function tickAndSend(at: Date) {
  const swept = await sweepDueSchedules(at);
  const records = await receiveDispatch();
  const out = records.length ? await dispatchHandler({ Records: records }) : { batchItemFailures: [] };
  return { swept, records, failures: out.batchItemFailures };
}

/** The DynamoDB calls `fn` makes, each as `<command> <PK>|<SK>[,<PK>|<SK>...]` (the keys it names, sorted; a Query: its `:pk`). */
async function ddbCallsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const { calls } = await callsOf(fn);
  return calls.map(({ command, input }) => {
    type Requested = { Keys?: { PK: string; SK: string }[] } | { DeleteRequest?: { Key: { PK: string; SK: string } }; PutRequest?: { Item: { PK: string; SK: string } } }[];
    const keysOf = (r: Requested) => (Array.isArray(r) ? r.map((w) => w.DeleteRequest?.Key ?? w.PutRequest?.Item) : (r.Keys ?? []));
    const named = [input.Key, ...Object.values((input.RequestItems ?? {}) as Record<string, Requested>).flatMap(keysOf)].filter((k): k is { PK: string; SK: string } => !!k);
    const names = named.length ? named.map((k) => `${k.PK}|${k.SK}`).sort() : [`${String(input.ExpressionAttributeValues?.[":pk"] ?? "")}|`];
    return `${command.replace(/Command$/, "")} ${names.join(",")}`;
  });
}

async function fresh(): Promise<ContactItem> {
  return makeContact(w.cid, "Maria Souza");
}

beforeEach(async () => {
  await receiveDispatch();
  if (w.wa) await drainCommands(w.wa);
});

describe("POST /api/schedules", () => {
  it("creates a PENDENTE schedule by the caller in the caller's company, with its contact", async () => {
    const c = await fresh();
    const sendAt = inAnHour();
    const res = await create(ana(), { contactId: c.id, body: "  Olá, {{name}}! Lembrete da consulta.  ", sendAt, userId: w.admin.id, companyId: w.other.companyId, status: "ENVIADA" });
    expect(res.status).toBe(200);
    expect(Schedule.parse(res.body)).toMatchObject({
      companyId: w.cid,
      userId: ana().id,
      contactId: c.id,
      contact: { id: c.id, name: "Maria Souza", number: c.number },
      body: "Olá, {{name}}! Lembrete da consulta.",
      sendAt,
      status: "PENDENTE",
      sentAt: null,
      late: false,
      mediaPath: null,
    });
    expect(await getSchedule(w.other.companyId, res.body.id)).toBeUndefined();
  });

  it("answers the product's messages for a short text, a missing contact and a missing time, writing nothing", async () => {
    const c = await fresh();
    const count = async () => SchedulesPage.parse((await api("GET", "/api/schedules", { token: w.admin.token })).body).count;
    const before = await count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ contactId: c.id, body: "oi", sendAt: inAnHour() }, "body", "Mensagem muito curta"],
      [{ contactId: c.id, body: "    abc  ", sendAt: inAnHour() }, "body", "Mensagem muito curta"],
      [{ contactId: c.id, sendAt: inAnHour() }, "body", "Obrigatório"],
      [{ body: "Mensagem longa o bastante", sendAt: inAnHour() }, "contactId", "Obrigatório"],
      [{ contactId: c.id, body: "Mensagem longa o bastante" }, "sendAt", "Obrigatório"],
      [{ contactId: c.id, body: "Mensagem longa o bastante", sendAt: "" }, "sendAt", "Obrigatório"],
      [{ contactId: c.id, body: "Mensagem longa o bastante", sendAt: "amanhã às 10" }, "sendAt", ""],
      [{ contactId: "0x1", body: "Mensagem longa o bastante", sendAt: inAnHour() }, "contactId", ""],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(ana(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      const field = res.body.fields.find((f: any) => f.path === path);
      expect(field, JSON.stringify(body)).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    expect(await count()).toBe(before);
  });

  it("refuses another company's contact (404) and a conversation of another contact (400)", async () => {
    // Ids are per company: this company's contact, whose id the other company does not hold, is not theirs.
    await makeContact(w.other.companyId, "Deles");
    const c = await fresh();
    expect(c.id).toBeGreaterThan(1);
    expect((await create(w.other.admin, { contactId: c.id, body: "Mensagem longa o bastante", sendAt: inAnHour() })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const res = await create(ana(), { contactId: c.id, ticketId: t.id, body: "Mensagem longa o bastante", sendAt: inAnHour() });
    expect(res.status).toBe(400);
    expect(res.body.fields[0].path).toBe("ticketId");
  });
});

describe("who may do what", () => {
  it("everyone lists the company's schedules; a user edits and deletes only their own, supervisor and admin any", async () => {
    const c = await fresh();
    const anas = (await create(ana(), { contactId: c.id, body: "Agendada pela Ana", sendAt: inAnHour() })).body;
    const brunos = (await create(bruno(), { contactId: c.id, body: "Agendada pelo Bruno", sendAt: inAnHour() })).body;
    const seen = SchedulesPage.parse((await api("GET", `/api/schedules?contactId=${c.id}`, { token: bruno().token })).body);
    expect(seen.schedules.map((s) => s.id).sort()).toEqual([anas.id, brunos.id].sort());
    expect((await api("GET", `/api/schedules/${anas.id}`, { token: bruno().token })).status).toBe(200);

    expect((await api("PUT", `/api/schedules/${anas.id}`, { token: bruno().token, body: { body: "Mudada pelo Bruno" } })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api("DELETE", `/api/schedules/${anas.id}`, { token: bruno().token })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await upload(bruno(), anas.id)).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await getSchedule(w.cid, anas.id))?.body).toBe("Agendada pela Ana");

    const later = new Date(Date.now() + 2 * 3600_000).toISOString();
    expect((await api("PUT", `/api/schedules/${anas.id}`, { token: ana().token, body: { body: "Mudada pela Ana", sendAt: later } })).body).toMatchObject({ body: "Mudada pela Ana", sendAt: later });
    expect((await api("PUT", `/api/schedules/${anas.id}`, { token: sofia().token, body: { body: "Mudada pela Sofia" } })).body).toMatchObject({ body: "Mudada pela Sofia" });
    expect((await api("PUT", `/api/schedules/${anas.id}`, { token: ana().token, body: { body: "abc" } })).status).toBe(400);
    expect((await api("DELETE", `/api/schedules/${brunos.id}`, { token: w.admin.token })).body).toEqual({ message: "Schedule deleted" });
    expect((await api("DELETE", `/api/schedules/${anas.id}`, { token: ana().token })).status).toBe(200);
    expect(await getSchedule(w.cid, anas.id)).toBeUndefined();
    expect((await api("GET", `/api/schedules/${anas.id}`, { token: ana().token })).body).toEqual({ error: "ERR_NO_SCHEDULE_FOUND" });
  });

  it("pages the list, latest time first, with count and hasMore, and searches the text and the contact's name", async () => {
    const c = await makeContact(w.cid, "Joaquim Paginado");
    for (let i = 1; i <= 22; i++) await create(bruno(), { contactId: c.id, body: `Lembrete número ${i}`, sendAt: new Date(Date.now() + i * 60_000 + 3600_000).toISOString() });
    const p1 = SchedulesPage.parse((await api("GET", "/api/schedules?searchParam=joaquim paginado", { token: ana().token })).body);
    expect(p1).toMatchObject({ count: 22, hasMore: true });
    expect(p1.schedules).toHaveLength(20);
    expect(p1.schedules[0].body).toBe("Lembrete número 22");
    const p2 = SchedulesPage.parse((await api("GET", "/api/schedules?searchParam=joaquim paginado&pageNumber=2", { token: ana().token })).body);
    expect(p2.schedules.map((s) => s.body)).toEqual(["Lembrete número 2", "Lembrete número 1"]);
    expect(p2.hasMore).toBe(false);
    expect(SchedulesPage.parse((await api("GET", `/api/schedules?contactId=${c.id}&searchParam=NUMERO 13`, { token: ana().token })).body).count).toBe(1);
    expect((await api("GET", "/api/schedules?pageNumber=0", { token: ana().token })).status).toBe(400);
  });
});

describe("the picture", () => {
  it("takes one png, jpg or jpeg through the media port, replaces it, refuses other types, and removes it", async () => {
    const c = await fresh();
    const s = (await create(ana(), { contactId: c.id, body: "Com uma foto anexa", sendAt: inAnHour() })).body;
    const first = Schedule.parse((await upload(ana(), s.id, "minha foto.png")).body);
    expect(first.mediaPath).toMatch(new RegExp(`^media/${w.cid}/schedules/${s.id}/`));
    expect(first.mediaName).toBe("minha foto.png");
    const second = Schedule.parse((await upload(ana(), s.id, "outra.jpg", png, "image/jpeg")).body);
    expect(await headMedia(first.mediaPath!)).toBeNull();
    expect(await headMedia(second.mediaPath!)).not.toBeNull();
    const gif = await upload(ana(), s.id, "anim.gif", png, "image/gif");
    expect(gif.status).toBe(400);
    expect(gif.body.error).toBe("ERR_VALIDATION");
    expect((await getSchedule(w.cid, s.id))?.mediaPath).toBe(second.mediaPath);
    const removed = Schedule.parse((await api("DELETE", `/api/schedules/${s.id}/media-upload`, { token: ana().token })).body);
    expect(removed.mediaPath).toBeNull();
    expect(await headMedia(second.mediaPath!)).toBeNull();
  });
});

describe("another company and the plan", () => {
  it("another company gets 404 on every route for this company's schedule, sees none, changes nothing", async () => {
    const c = await fresh();
    const s = (await create(w.admin, { contactId: c.id, body: "Assunto interno", sendAt: inAnHour() })).body;
    await upload(w.admin, s.id);
    const stored = await getSchedule(w.cid, s.id);
    const them = w.other.admin.token;
    const calls = [
      api("GET", `/api/schedules/${s.id}`, { token: them }),
      api("PUT", `/api/schedules/${s.id}`, { token: them, body: { body: "Invasor aqui" } }),
      api("DELETE", `/api/schedules/${s.id}`, { token: them }),
      upload(w.other.admin, s.id),
      api("DELETE", `/api/schedules/${s.id}/media-upload`, { token: them }),
    ];
    for (const res of await Promise.all(calls)) expect(res.body).toEqual({ error: "ERR_NO_SCHEDULE_FOUND" });
    const theirList = SchedulesPage.parse((await api("GET", `/api/schedules?contactId=${c.id}`, { token: them })).body);
    expect(theirList).toEqual({ schedules: [], count: 0, hasMore: false });
    expect(await getSchedule(w.cid, s.id)).toEqual(stored);
    expect(await headMedia(stored!.mediaPath!)).not.toBeNull();
  });

  it("a company whose plan has useSchedules off gets 403 ERR_PLAN_FEATURE_DISABLED on every route, before anything is written", async () => {
    const off = await w.fresh({ planFlags: { useSchedules: false } });
    const agent = await makeUser(off.cid, { name: "Sem plano" });
    const c = await makeContact(off.cid, "Cliente sem plano");
    for (const u of [off.admin, agent]) {
      const calls = [
        api("GET", "/api/schedules", { token: u.token }),
        api("GET", "/api/schedules/1", { token: u.token }),
        api("POST", "/api/schedules", { token: u.token, body: { contactId: c.id, body: "Mensagem longa o bastante", sendAt: inAnHour() } }),
        api("PUT", "/api/schedules/1", { token: u.token, body: { body: "Mensagem longa o bastante" } }),
        api("DELETE", "/api/schedules/1", { token: u.token }),
        upload(u, 1),
        api("DELETE", "/api/schedules/1/media-upload", { token: u.token }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "ERR_PLAN_FEATURE_DISABLED" });
      }
    }
    expect(await getSchedule(off.cid, 1)).toBeUndefined();
  });
});

describe("sending at sendAt", () => {
  it("goes out at its minute, once under SQS redelivery and concurrent deliveries, into the open ticket like the agent's message", async () => {
    const c = await makeContact(w.cid, "Carla Dias");
    const ticket = await makeTicket(w.cid, { contact: c, whatsappId: w.wa, status: "open", userId: ana().id, queueId: w.queues[0] });
    const adminSock = await registerSocket(w.cid, { id: w.admin.id, profile: "admin" });
    const sendAt = new Date(Date.now() + 30_000);
    const s = (await create(ana(), { contactId: c.id, ticketId: ticket.id, body: "Oi {{firstName}}, sua consulta é amanhã.", sendAt: sendAt.toISOString() })).body;

    // The tick before its time claims nothing.
    expect((await tickAndSend(new Date(sendAt.getTime() - 1000))).records.filter((r) => r.body.includes(`"scheduleId":${s.id}`))).toHaveLength(0);
    expect((await getSchedule(w.cid, s.id))?.status).toBe("PENDENTE");

    // The tick of its minute: claimed (AGENDADA), queued once; the queue delivers the same message three times, two at once.
    w.capture.clear();
    const swept = await sweepDueSchedules(new Date(sendAt.getTime() + 20_000));
    expect(swept.claimed).toBeGreaterThanOrEqual(1);
    expect((await getSchedule(w.cid, s.id))?.status).toBe("AGENDADA");
    const [record] = (await receiveDispatch(true)).filter((r) => r.body.includes(`"scheduleId":${s.id}`));
    expect(record).toBeDefined();
    const outs = await Promise.all([dispatchHandler({ Records: [record] }), dispatchHandler({ Records: [record] })]);
    outs.push(await dispatchHandler({ Records: [record] }));
    for (const o of outs) expect(o.batchItemFailures).toEqual([]);
    // A second tick finds nothing left to claim for it.
    await sweepDueSchedules(new Date(sendAt.getTime() + 80_000));
    expect((await receiveDispatch()).filter((r) => r.body.includes(`"scheduleId":${s.id}`)).length).toBeLessThanOrEqual(1);

    const sent = await getSchedule(w.cid, s.id);
    expect(sent).toMatchObject({ status: "ENVIADA", ticketId: ticket.id, whatsappId: w.wa, error: null });
    expect(sent?.sentAt).not.toBeNull();
    const { messages } = await listMessages(w.cid, ticket.id, { limit: 50 });
    const mine = messages.filter((m) => m.id === sent?.messageId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ fromMe: true, userId: ana().id, body: "*Ana:*\nOi Carla, sua consulta é amanhã." });
    const sends = (await drainCommands(w.wa)).filter((cmd) => cmd.messageId === sent?.messageId);
    expect(sends).toHaveLength(1);

    const frames = w.capture.frames.filter((f) => f.connectionId === adminSock && f.event === `company-${w.cid}-schedule`).map((f) => (f.data as any).schedule);
    expect(frames.map((f) => f.status)).toEqual(["AGENDADA", "ENVIADA"]);
    // Screens keep the newest by `updatedAt`: the tick ran on its own (later) clock, yet the sent one is newer.
    expect(frames[1].updatedAt > frames[0].updatedAt).toBe(true);
    const shown = Schedule.parse((await api("GET", `/api/schedules/${s.id}`, { token: ana().token })).body);
    expect(shown).toMatchObject({ status: "ENVIADA", late: false });
    expect(shown).not.toHaveProperty("messageId");

    expect((await api("PUT", `/api/schedules/${s.id}`, { token: ana().token, body: { body: "Mudar depois de enviada" } })).body).toEqual({ error: "ERR_SCHEDULE_ALREADY_SENT" });
    expect((await upload(ana(), s.id)).body).toEqual({ error: "ERR_SCHEDULE_ALREADY_SENT" });
  });

  it("after an outage, the first tick back sends what came due meanwhile, once, and shows it went out late", async () => {
    const c = await makeContact(w.cid, "Diego Atrasado");
    // Its time was two hours ago and nothing ran since; then two ticks come back at once (two processes), and the
    // queue delivers the message twice.
    const sendAt = new Date(Date.now() - 2 * 3600_000);
    const s = (await create(bruno(), { contactId: c.id, body: "Mensagem que esperou a volta", sendAt: sendAt.toISOString() })).body;
    await upload(bruno(), s.id, "cartaz.png");
    const back = new Date();
    const [a, b] = await Promise.all([sweepDueSchedules(back), sweepDueSchedules(back)]);
    expect(a.claimed + b.claimed).toBeGreaterThanOrEqual(1);
    const records = (await receiveDispatch()).filter((r) => r.body.includes(`"scheduleId":${s.id}`));
    expect(records).toHaveLength(1);
    await dispatchHandler({ Records: records });
    await dispatchHandler({ Records: records });

    const sent = await getSchedule(w.cid, s.id);
    expect(sent?.status).toBe("ENVIADA");
    // No open ticket: one is opened for the scheduler (open, assigned to them) on the default connection.
    const ticket = await getTicketItem(w.cid, sent!.ticketId!);
    expect(ticket).toMatchObject({ status: "open", userId: bruno().id, contactId: c.id, whatsappId: w.wa });
    const { messages } = await listMessages(w.cid, ticket!.id, { limit: 50 });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ mediaType: "image", body: "*Bruno:*\nMensagem que esperou a volta" });
    expect(messages[0].mediaKey).not.toBe(sent?.mediaPath);
    const view = Schedule.parse((await api("GET", `/api/schedules/${s.id}`, { token: bruno().token })).body);
    expect(view.late).toBe(true);
    expect(view.lateSeconds).toBeGreaterThanOrEqual(2 * 3600);
    expect((await drainCommands(w.wa)).filter((cmd) => cmd.messageId === sent?.messageId)).toHaveLength(1);
  });

  it("ends as ERRO with ERR_NO_DEF_WAPP_FOUND when the company has no connected connection", async () => {
    const x = await w.fresh({ whatsapp: false });
    await makeWhatsapp(x.cid, { status: "DISCONNECTED" });
    const c = await makeContact(x.cid, "Sem conexão");
    const sendAt = new Date(Date.now() + 5_000);
    const s = (await create(x.admin, { contactId: c.id, body: "Não vai conseguir sair", sendAt: sendAt.toISOString() })).body;
    const run = await tickAndSend(new Date(sendAt.getTime() + 10_000));
    expect(run.failures).toEqual([]);
    const shown = Schedule.parse((await api("GET", `/api/schedules/${s.id}`, { token: x.admin.token })).body);
    expect(shown).toMatchObject({ status: "ERRO", error: "ERR_NO_DEF_WAPP_FOUND", sentAt: null });
    // Fixing it: the edit makes it PENDENTE again and the next tick sends it.
    await makeWhatsapp(x.cid, { status: "CONNECTED" });
    const again = await api("PUT", `/api/schedules/${s.id}`, { token: x.admin.token, body: { sendAt: sendAt.toISOString() } });
    expect(again.body).toMatchObject({ status: "PENDENTE", error: null });
    await tickAndSend(new Date(sendAt.getTime() + 20_000));
    expect((await getSchedule(x.cid, s.id))?.status).toBe("ENVIADA");
  });

  it("behind a long dispatch backlog, ticks queue an unsent schedule again only after 5, 10, 20... minutes, and it still goes out once", async () => {
    const c = await fresh();
    const sendAt = new Date(Date.now() + 5_000);
    const s = (await create(ana(), { contactId: c.id, body: "Na fila por muito tempo", sendAt: sendAt.toISOString() })).body;
    const s2 = (await create(ana(), { contactId: c.id, body: "Será adiada depois", sendAt: sendAt.toISOString() })).body;
    const adminSock = await registerSocket(w.cid, { id: w.admin.id, profile: "admin" });
    w.capture.clear();
    const tickAt = async (at: Date, id: number) => {
      await sweepDueSchedules(at);
      return (await receiveDispatch()).filter((r) => r.body.includes(`"scheduleId":${id}`));
    };
    // A tick every minute for 40 minutes while the queue's consumers never reach it (its records stay queued).
    const queuedAt: number[] = [];
    const records: { messageId: string; body: string }[] = [];
    for (let minute = 0; minute <= 40; minute++) {
      await sweepDueSchedules(new Date(sendAt.getTime() + 1_000 + minute * 60_000));
      const mine = (await receiveDispatch()).filter((r) => r.body.includes(`"scheduleId":${s.id}`));
      for (const _ of mine) queuedAt.push(minute);
      records.push(...mine);
    }
    expect(queuedAt).toEqual([0, 5, 15, 35]);
    // The calendar was told AGENDADA once; the claims again change nothing it shows.
    expect(w.capture.frames.filter((f) => f.connectionId === adminSock && f.event === `company-${w.cid}-schedule` && (f.data as any).schedule.id === s.id)).toHaveLength(1);
    // The consumers reach the backlog: the first record sends it, the others find it sent.
    await dispatchHandler({ Records: records });
    const sent = await getSchedule(w.cid, s.id);
    expect(sent?.status).toBe("ENVIADA");
    expect((await listMessages(w.cid, sent!.ticketId!, { limit: 10 })).messages.filter((m) => m.id === sent!.messageId)).toHaveLength(1);
    expect((await drainCommands(w.wa)).filter((cmd) => cmd.messageId === sent?.messageId)).toHaveLength(1);
    expect((await api("GET", `/api/schedules/${s.id}`, { token: ana().token })).body).not.toHaveProperty("claims");

    // Edited to a later time while still unsent, it is due afresh: its first claim there holds 5 minutes again.
    const later = new Date(sendAt.getTime() + 50 * 60_000);
    expect((await api("PUT", `/api/schedules/${s2.id}`, { token: ana().token, body: { sendAt: later.toISOString() } })).body.status).toBe("PENDENTE");
    expect(await tickAt(new Date(later.getTime() + 1_000), s2.id)).toHaveLength(1);
    expect(await tickAt(new Date(later.getTime() + 1_000 + 5 * 60_000), s2.id)).toHaveLength(1);
  });

  it("a deleted schedule or one edited back to a later time is not sent by a message already queued", async () => {
    const c = await fresh();
    const sendAt = new Date(Date.now() + 10_000);
    const s1 = (await create(ana(), { contactId: c.id, body: "Será apagada a tempo", sendAt: sendAt.toISOString() })).body;
    const s2 = (await create(ana(), { contactId: c.id, body: "Será adiada a tempo", sendAt: sendAt.toISOString() })).body;
    await sweepDueSchedules(new Date(sendAt.getTime() + 1000));
    const records = (await receiveDispatch()).filter((r) => r.body.includes(`"scheduleId":${s1.id}`) || r.body.includes(`"scheduleId":${s2.id}`));
    expect(records).toHaveLength(2);
    await api("DELETE", `/api/schedules/${s1.id}`, { token: ana().token });
    expect((await api("PUT", `/api/schedules/${s2.id}`, { token: ana().token, body: { sendAt: inAnHour() } })).body.status).toBe("PENDENTE");
    await dispatchHandler({ Records: records });
    expect((await getSchedule(w.cid, s2.id))?.status).toBe("PENDENTE");
    expect((await drainCommands(w.wa)).length).toBe(0);
  });
  it("the tick reads the contacts of the schedules it claimed in batches; a first delivery reads neither the schedule nor its message before reserving, nor the contact twice", async () => {
    const x = await w.fresh();
    // More schedules than due-index shards: some shard's page holds several of them.
    const contacts: ContactItem[] = [];
    for (let i = 0; i <= dueShardsToRead("schedules"); i++) contacts.push(await makeContact(x.cid, `Rita ${i}`));
    const sendAt = new Date(Date.now() + 5_000);
    const ids: number[] = [];
    for (const c of contacts) ids.push((await create(x.admin, { contactId: c.id, body: "Lembrete da consulta", sendAt: sendAt.toISOString() })).body.id);
    const adminSock = await registerSocket(x.cid, { id: x.admin.id, profile: "admin" });
    w.capture.clear();

    const tickCalls = await ddbCallsOf(() => sweepDueSchedules(new Date(sendAt.getTime() + 10_000)));
    const contactKey = (id: number) => `C#${x.cid}#CT#${id}|#CONTACT`;
    // The calendar still gets each one's AGENDADA frame, with its contact; the three contacts came in one batch read.
    const agendada = w.capture.frames.filter((f) => f.connectionId === adminSock && f.event === `company-${x.cid}-schedule`).map((f) => (f.data as any).schedule);
    expect(agendada.map((f) => [f.status, f.contact?.name]).sort()).toEqual(contacts.map((c) => ["AGENDADA", c.name]).sort());
    expect(tickCalls.filter((c) => c.startsWith("GetItem") && c.includes("#CT#"))).toEqual([]);
    const batches = tickCalls.filter((c) => c.startsWith("BatchGetItem") && c.includes("#CT#"));
    expect(batches.length).toBeLessThan(contacts.length);
    expect(batches.flatMap((c) => c.slice("BatchGetItem ".length).split(",")).sort()).toEqual(contacts.map((c) => contactKey(c.id)).sort());

    const records = (await receiveDispatch()).filter((r) => JSON.parse(r.body).companyId === x.cid);
    expect(records.map((r) => JSON.parse(r.body).scheduleId).sort((a, b) => a - b)).toEqual(ids);
    const first = records.find((r) => JSON.parse(r.body).scheduleId === ids[0])!;
    // The send as in a process of its own: no listing of the company's sockets kept from the tick.
    forgetSocketListing(x.cid);
    const sendCalls = await ddbCallsOf(() => dispatchHandler({ Records: [first] }));
    const sent = await getSchedule(x.cid, ids[0]);
    expect(sent?.status).toBe("ENVIADA");
    const scheduleKey = `C#${x.cid}|SCHED#`;
    expect(sendCalls.filter((c) => c.startsWith("GetItem") && c.includes(scheduleKey))).toEqual([]);
    expect(sendCalls.filter((c) => c.startsWith("Query") && c.includes(`C#${x.cid}#MSG#`))).toEqual([]);
    // The contact: the send's own read only; the new ticket's summaries and the message's send do not read it again.
    expect(sendCalls.filter((c) => c.includes(contactKey(contacts[0].id)) && /^(GetItem|BatchGetItem)/.test(c))).toHaveLength(1);
    // Its frames (the new ticket, the message, the schedule ENVIADA...) list the company's sockets once, and each
    // event's listeners that keep pending runs delete them in one write.
    expect(sendCalls.filter((c) => c.startsWith("Query") && c.includes(`C#${x.cid}#ROOM#company|`))).toHaveLength(1);
    const runDeletes = sendCalls.filter((c) => /^(DeleteItem|BatchWriteItem) LRUN#/.test(c));
    expect(runDeletes).toHaveLength(1);
    expect(runDeletes[0]).toMatch(/ticketTimers.*,.*kanbanLanes|kanbanLanes.*,.*ticketTimers/);
    // The whole send, pinned: reserve, contact, connection, scheduler, open-ticket marker, ticket id, the ticket's and
    // the message's transactions, one socket listing, the listeners' reads and writes, the schedule ENVIADA.
    expect(sendCalls).toHaveLength(17);
    // Delivered again (as SQS may): nothing is sent twice, and that delivery is the one that reads.
    await dispatchHandler({ Records: [first] });
    expect((await listMessages(x.cid, sent!.ticketId!, { limit: 10 })).messages).toHaveLength(1);
    expect((await drainCommands(x.wa)).filter((cmd) => cmd.messageId === sent?.messageId)).toHaveLength(1);
  });
});
