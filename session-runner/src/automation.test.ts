/**
 * Business hours, chatbot and ratings (the bot part), through the simulated network with the runner, fauxqs, s3rver and DynamoDB
 * Local: what the customer's phone receives, in order, for each rule of what the customer meets (greetings, the queue
 * menu, the option tree, limits and silence, business hours with a controlled clock, no bot for groups / disableBot /
 * held tickets), for refused calls (rejected, text sent, call log stored) and for an AI prompt that speaks (its reply
 * reaches the phone as a voice note).
 */
import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { storedState } from "@atende/shared/ingest/testkit";
import { putQueueOption } from "@atende/shared/queues/options/repository";
import type { QueueSchedule } from "@atende/shared/queues/schema";
import { writeTicketTransition } from "@atende/shared/tickets/repository";
import { getWhatsappItem } from "@atende/shared/whatsapp/repository";
import { CALL_REFUSED_MESSAGE } from "@atende/shared/automation/calls";
import { putMedia } from "@atende/shared/storage/media";
import { settleDeferred } from "@atende/shared/events/index";
import { STANDIN_VOICE } from "../../infra/local/src/ai-standin.ts";
import { useAiStandin } from "../../infra/local/src/ai-standin.testkit.ts";
import { api } from "../../test/helpers.ts";
import { companyWorld } from "../../test/world.ts";
import { eventually, registerSocket } from "./testing/harness.ts";
import { useOneMachine } from "./testing/one-machine.ts";

const companies = companyWorld({ capture: false });

const world = useOneMachine();
const sim = world.sim;
afterEach(() => {
  vi.useRealTimers();
});

let queueSeq = 100;
async function putQueue(
  companyId: number,
  q: { name: string; orderQueue?: number; greetingMessage?: string; outOfHoursMessage?: string; schedules?: QueueSchedule[]; media?: { path: string; name: string; size: number; mime: string } },
) {
  const id = ++queueSeq;
  const now = new Date().toISOString();
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.queue(companyId, id),
        _type: "queue",
        id,
        companyId,
        name: q.name,
        color: `#0${id}`,
        greetingMessage: q.greetingMessage ?? "",
        outOfHoursMessage: q.outOfHoursMessage ?? "",
        orderQueue: q.orderQueue ?? null,
        integrationId: null,
        promptId: null,
        schedules: q.schedules ?? [],
        mediaPath: q.media?.path ?? null,
        mediaName: q.media?.name ?? null,
        mediaSize: q.media?.size ?? null,
        mediaMime: q.media?.mime ?? null,
        createdAt: now,
        updatedAt: now,
      },
    }),
  );
  return id;
}

let optionSeq = 1000;
async function putOption(companyId: number, queueId: number, o: { option: string; title: string; message?: string; parentId?: number | null }) {
  const id = ++optionSeq;
  const now = new Date().toISOString();
  await putQueueOption({ id, companyId, queueId, parentId: o.parentId ?? null, title: o.title, message: o.message ?? "", option: o.option, mediaPath: null, mediaName: null, createdAt: now, updatedAt: now });
  return id;
}

async function setting(companyId: number, key: string, value: string) {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.setting(companyId, key), _type: "setting", key, value, companyId, updatedAt: new Date().toISOString() } }));
}

/** A company with a connected connection (created through the API, paired on the simulated network). */
async function shop(connection: Record<string, unknown> = {}) {
  const { cid: companyId, admin } = await companies.fresh();
  const queueIds = (connection.queueIds as number[] | undefined) ?? [];
  const created = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Loja", greetingMessage: "", ...connection, queueIds: [] } });
  expect(created.status).toBe(200);
  const whatsappId = created.body.id as number;
  await eventually(async () => (await getWhatsappItem(companyId, whatsappId))?.status === "qrcode");
  expect((await sim("POST", `/sim/whatsapp/${whatsappId}/scan`, {})).status).toBe(200);
  return { companyId, admin, whatsappId, queueIds };
}

/** Sets the connection's queues (after they were written for this company). */
async function withQueues(s: { admin: { token: string }; whatsappId: number }, queueIds: number[]) {
  const res = await api("PUT", `/api/whatsapp/${s.whatsappId}`, { token: s.admin.token, body: { queueIds } });
  expect(res.status).toBe(200);
}

let phoneSeq = 0;
const newPhone = () => `55119${String(Date.now() % 10000).padStart(4, "0")}${String(++phoneSeq).padStart(4, "0")}`;

/** The customer writes; resolves once the runner ingested it (and the bot answered into the outbound queue). */
async function say(whatsappId: number, from: string, text: string) {
  const r = await sim("POST", `/sim/whatsapp/${whatsappId}/messages`, { from, pushName: "Maria Souza", text });
  expect(r.status).toBe(200);
  return r.body.id as string;
}

/**
 * What the customer's phone received, in order: waits until the network carried every automatic message the server
 * stored for this contact, then returns their texts as the network delivered them.
 */
async function received(companyId: number, whatsappId: number, phone: string): Promise<string[]> {
  const jid = `${phone}@s.whatsapp.net`;
  const stored = (await storedState(companyId)).messages.filter((m) => m.fromMe && m.isAutomatic && m.remoteJid === jid);
  const ids = new Set(stored.map((m) => m.id));
  const sent = await eventually(async () => {
    const all = ((await sim("GET", `/sim/whatsapp/${whatsappId}/sent`)).body as { id: string; jid: string; content: { text?: string; caption?: string } }[]).filter(
      (s) => s.jid === jid,
    );
    return all.filter((s) => ids.has(s.id)).length === ids.size ? all : null;
  });
  expect(sent.map((s) => s.id).sort()).toEqual([...ids].sort()); // nothing else went out to this customer
  return sent.map((s) => s.content.text ?? s.content.caption ?? "");
}

async function ticketOf(companyId: number, phone: string) {
  const st = await storedState(companyId);
  const contact = st.contacts.find((c) => c.number === phone)!;
  return st.tickets.filter((t) => t.contactId === contact.id).sort((a, b) => b.id - a.id)[0];
}

const MENU = "Olá {{firstName}}! Escolha um setor:";

// Each test plays a whole conversation through the runner and the queues: generous limits on a shared machine.
describe("what the customer meets", { timeout: 180_000 }, () => {
  it("a connection without queues greets once per ticket cycle, with the variables rendered in the company's zone", async () => {
    const s = await shop({ greetingMessage: "{{ms}}, {{firstName}}! Já vamos te atender." });
    await ddb().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.company(s.companyId), UpdateExpression: "SET #tz = :tz", ExpressionAttributeNames: { "#tz": "timezone" }, ExpressionAttributeValues: { ":tz": "Asia/Tokyo" } }),
    );
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(new Date("2026-11-23T13:00:00Z")); // 22:00 in Tokyo (10:00 in São Paulo, 13:00 UTC)
    const phone = newPhone();
    await say(s.whatsappId, phone, "oi");
    await say(s.whatsappId, phone, "alguém aí?");
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual(["Boa noite, Maria! Já vamos te atender."]);
    // The agent resolves; the customer's next message opens a new cycle and is greeted again.
    const t = await ticketOf(s.companyId, phone);
    await writeTicketTransition(t, { status: "closed", updatedAt: new Date().toISOString() });
    await say(s.whatsappId, phone, "voltei");
    expect(await received(s.companyId, s.whatsappId, phone)).toHaveLength(2);
  });

  it("one queue: the ticket joins it, the queue greeting (setting on) and its option menu, then the leaf hands it to people", async () => {
    const s = await shop({ greetingMessage: "Olá" });
    const q = await putQueue(s.companyId, { name: "Suporte", greetingMessage: "Bem-vinda ao Suporte." });
    await putOption(s.companyId, q, { option: "1", title: "Segunda via", message: "Enviamos a segunda via por e-mail. Um atendente confirma em seguida." });
    await putOption(s.companyId, q, { option: "2", title: "Outros assuntos", message: "Conte o que precisa." });
    await withQueues(s, [q]);
    await setting(s.companyId, "sendGreetingMessageOneQueues", "enabled");
    const phone = newPhone();
    await say(s.whatsappId, phone, "bom dia");
    await say(s.whatsappId, phone, "#"); // the start of a one-queue connection is that queue's menu
    await say(s.whatsappId, phone, "1");
    await say(s.whatsappId, phone, "obrigada");
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([
      "Bem-vinda ao Suporte.\n\n*[ 1 ]* - Segunda via\n*[ 2 ]* - Outros assuntos\n*[ # ]* - Menu inicial",
      "Bem-vinda ao Suporte.\n\n*[ 1 ]* - Segunda via\n*[ 2 ]* - Outros assuntos\n*[ # ]* - Menu inicial",
      "Enviamos a segunda via por e-mail. Um atendente confirma em seguida.",
    ]);
    expect(await ticketOf(s.companyId, phone)).toMatchObject({ status: "pending", queueId: q, userId: null, chatbot: false });
  });

  it("a queue's media goes out with its greeting, the greeting as its caption", async () => {
    const s = await shop({ greetingMessage: "Olá" });
    const pdf = Buffer.from("%PDF-1.4 tabela de precos");
    const path = `media/${s.companyId}/queues/tabela.pdf`;
    await putMedia(path, pdf, "application/pdf");
    const q = await putQueue(s.companyId, { name: "Vendas", greetingMessage: "Bem-vinda às Vendas.", media: { path, name: "tabela.pdf", size: pdf.length, mime: "application/pdf" } });
    await withQueues(s, [q]);
    await setting(s.companyId, "sendGreetingMessageOneQueues", "enabled");
    const phone = newPhone();
    await say(s.whatsappId, phone, "oi");
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual(["Bem-vinda às Vendas."]);
    const sent = (await sim("GET", `/sim/whatsapp/${s.whatsappId}/sent`)).body as { jid: string; content: { fileName?: string; mimetype?: string; document?: unknown } }[];
    expect(sent.filter((m) => m.jid === `${phone}@s.whatsapp.net`).map((m) => [m.content.fileName, m.content.mimetype, m.content.document != null])).toEqual([["tabela.pdf", "application/pdf", true]]);
  });

  it("one queue without options and the greeting setting off: the ticket joins the queue in silence", async () => {
    const s = await shop();
    const q = await putQueue(s.companyId, { name: "Vendas", greetingMessage: "Bem-vinda às Vendas." });
    await withQueues(s, [q]);
    const phone = newPhone();
    await say(s.whatsappId, phone, "oi");
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([]);
    expect(await ticketOf(s.companyId, phone)).toMatchObject({ status: "pending", queueId: q });
  });

  it("several queues: menu in orderQueue, wrong answers get it again, the pick joins the queue, the option tree is walked with 0, # leaves the queue for the menu, a new pick is walked to a leaf", async () => {
    const s = await shop({ greetingMessage: MENU });
    const fin = await putQueue(s.companyId, { name: "Financeiro", orderQueue: 2, greetingMessage: "Financeiro: como podemos ajudar?" });
    const sales = await putQueue(s.companyId, { name: "Vendas", orderQueue: 1, greetingMessage: "Vendas aqui." });
    const boleto = await putOption(s.companyId, fin, { option: "1", title: "Boletos", message: "Sobre boletos:" });
    await putOption(s.companyId, fin, { option: "1", title: "Segunda via", message: "A segunda via segue em instantes.", parentId: boleto });
    await putOption(s.companyId, fin, { option: "2", title: "Boleto pago", message: "Envie o comprovante, por favor.", parentId: boleto });
    await putOption(s.companyId, fin, { option: "2", title: "Notas fiscais", message: "Notas em até 24 horas." });
    await withQueues(s, [fin, sales]);
    const agentFin = await registerSocket(s.companyId, 501, "user", [fin]);
    const agentSales = await registerSocket(s.companyId, 502, "user", [sales]);
    const phone = newPhone();
    for (const text of ["olá", "9", "quero pagar", "2", "1", "0", "1", "#"]) await say(s.whatsappId, phone, text);
    // "#" is the start again: the ticket left Financeiro and waits for a queue, the bot still answering.
    await eventually(async () => (await received(s.companyId, s.whatsappId, phone)).length === 8);
    expect(await ticketOf(s.companyId, phone)).toMatchObject({ status: "pending", queueId: null, queueOptionId: null, chatbot: true });
    for (const text of ["2", "1", "2", "pronto, enviei"]) await say(s.whatsappId, phone, text);

    const menu = "Olá Maria! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Financeiro";
    const finRoot = "Financeiro: como podemos ajudar?\n\n*[ 1 ]* - Boletos\n*[ 2 ]* - Notas fiscais\n*[ # ]* - Menu inicial";
    const boletos = "Sobre boletos:\n\n*[ 1 ]* - Segunda via\n*[ 2 ]* - Boleto pago\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial";
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([
      menu, // "olá"
      menu, // "9": not offered
      menu, // "quero pagar"
      finRoot, // "2"
      boletos, // "1"
      finRoot, // "0": up
      boletos, // "1"
      menu, // "#": the start, the connection's greeting and the queue menu again
      finRoot, // "2"
      boletos, // "1"
      "Envie o comprovante, por favor.", // "2": a leaf; "pronto, enviei" goes to people
    ]);
    const t = await ticketOf(s.companyId, phone);
    expect(t).toMatchObject({ status: "pending", queueId: fin, userId: null, chatbot: false });
    // The phone's echo of each bot message (sent before its receipts) stored nothing more: once every one is delivered,
    // the ticket holds exactly the eleven automatic messages, none signed by an agent.
    const ours = async () => (await storedState(s.companyId)).messages.filter((m) => m.ticketId === t.id && m.fromMe);
    await eventually(async () => (await ours()).every((m) => m.ack >= 3));
    const mine = await ours();
    expect(mine).toHaveLength(11);
    expect(mine.every((m) => m.isAutomatic && m.userId === null)).toBe(true);
    // The queue's agent was told the ticket is in Financeiro; the other queue's agent saw nothing of it.
    const seen = (conn: string) => world.rt.frames.filter((f) => f.connectionId === conn && f.event === `company-${s.companyId}-ticket` && f.data.ticket?.id === t.id);
    expect(seen(agentFin).some((f) => f.data.action === "update" && f.data.ticket.queueId === fin)).toBe(true);
    expect(seen(agentSales).filter((f) => f.data.ticket?.queueId === fin)).toEqual([]);
  });

  it("after maxUseBotQueues menus the bot is silent for timeUseBotQueues minutes (pending, no queue), then answers again", async () => {
    const s = await shop({ greetingMessage: "Escolha:", maxUseBotQueues: 1, timeUseBotQueues: 30 });
    const a = await putQueue(s.companyId, { name: "A", orderQueue: 1, greetingMessage: "Fila A." });
    const b = await putQueue(s.companyId, { name: "B", orderQueue: 2 });
    await withQueues(s, [a, b]);
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(new Date("2026-11-24T15:00:00Z"));
    const phone = newPhone();
    for (const text of ["oi", "x", "y", "1"]) await say(s.whatsappId, phone, text);
    const menu = "Escolha:\n\n*[ 1 ]* - A\n*[ 2 ]* - B";
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([menu, menu]);
    expect(await ticketOf(s.companyId, phone)).toMatchObject({ status: "pending", queueId: null });
    vi.setSystemTime(new Date("2026-11-24T15:31:00Z"));
    await say(s.whatsappId, phone, "1");
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([menu, menu, "Fila A."]);
    expect(await ticketOf(s.companyId, phone)).toMatchObject({ queueId: a, chatbot: false });
  });

  it("out of the company's hours: the out-of-hours text, no menu, the ticket still arrives; at opening the menu", async () => {
    const s = await shop({ greetingMessage: "Escolha:", outOfHoursMessage: "Estamos fechados. Atendemos de segunda a sexta, das 8h às 18h." });
    const a = await putQueue(s.companyId, { name: "A", orderQueue: 1 });
    const b = await putQueue(s.companyId, { name: "B", orderQueue: 2 });
    await withQueues(s, [a, b]);
    await setting(s.companyId, "scheduleType", "company");
    // New York hours: the company's zone decides, not the server's (São Paulo default, UTC here).
    await ddb().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.company(s.companyId), UpdateExpression: "SET #tz = :tz", ExpressionAttributeNames: { "#tz": "timezone" }, ExpressionAttributeValues: { ":tz": "America/New_York" } }),
    );
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(new Date("2026-11-23T12:30:00Z")); // Monday 07:30 in New York (13:30 in Lisbon, 09:30 in São Paulo)
    const phone = newPhone();
    await say(s.whatsappId, phone, "oi");
    await say(s.whatsappId, phone, "tem alguém?");
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual(["Estamos fechados. Atendemos de segunda a sexta, das 8h às 18h."]);
    expect(await ticketOf(s.companyId, phone)).toMatchObject({ status: "pending", queueId: null, chatbot: false });
    vi.setSystemTime(new Date("2026-11-23T13:05:00Z")); // 08:05 in New York
    await say(s.whatsappId, phone, "bom dia");
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([
      "Estamos fechados. Atendemos de segunda a sexta, das 8h às 18h.",
      "Escolha:\n\n*[ 1 ]* - A\n*[ 2 ]* - B",
    ]);
  });

  it("queue hours: a closed queue's own out-of-hours text (else the connection's), the ticket joins it without a menu", async () => {
    const s = await shop({ greetingMessage: "Escolha:", outOfHoursMessage: "Fora do horário." });
    const night: QueueSchedule[] = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "22:00", endTime: "06:00" }];
    const plantao = await putQueue(s.companyId, { name: "Plantão", orderQueue: 1, schedules: night, outOfHoursMessage: "O plantão abre às 22h." });
    const dia = await putQueue(s.companyId, { name: "Dia", orderQueue: 2, greetingMessage: "Bom dia da fila Dia." });
    const tarde = await putQueue(s.companyId, { name: "Tarde", orderQueue: 3, schedules: [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "13:00", endTime: "18:00" }] });
    await putOption(s.companyId, plantao, { option: "1", title: "Urgência", message: "x" });
    await withQueues(s, [plantao, dia, tarde]);
    await setting(s.companyId, "scheduleType", "queue");
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(new Date("2026-11-23T13:00:00Z")); // Monday 10:00 in São Paulo
    const [p1, p2, p3] = [newPhone(), newPhone(), newPhone()];
    await say(s.whatsappId, p1, "oi");
    await say(s.whatsappId, p1, "1");
    await say(s.whatsappId, p1, "1");
    await say(s.whatsappId, p2, "oi");
    await say(s.whatsappId, p2, "2");
    await say(s.whatsappId, p3, "oi");
    await say(s.whatsappId, p3, "3");
    const menu = "Escolha:\n\n*[ 1 ]* - Plantão\n*[ 2 ]* - Dia\n*[ 3 ]* - Tarde";
    expect(await received(s.companyId, s.whatsappId, p1)).toEqual([menu, "O plantão abre às 22h."]);
    expect(await ticketOf(s.companyId, p1)).toMatchObject({ queueId: plantao, chatbot: false, status: "pending" });
    expect(await received(s.companyId, s.whatsappId, p2)).toEqual([menu, "Bom dia da fila Dia."]); // no hours saved: the defaults, open
    expect(await received(s.companyId, s.whatsappId, p3)).toEqual([menu, "Fora do horário."]);
    expect(await ticketOf(s.companyId, p3)).toMatchObject({ queueId: tarde });
  });

  it("says nothing to groups, to contacts with disableBot, or once an agent holds the ticket", async () => {
    const s = await shop({ greetingMessage: "Escolha:" });
    const a = await putQueue(s.companyId, { name: "A", orderQueue: 1 });
    const b = await putQueue(s.companyId, { name: "B", orderQueue: 2 });
    await withQueues(s, [a, b]);
    await setting(s.companyId, "CheckMsgIsGroup", "disabled");
    // A group message.
    const group = await sim("POST", `/sim/whatsapp/${s.whatsappId}/events`, {
      event: "messages.upsert",
      data: { type: "notify", messages: [{ key: { remoteJid: "120363000000000001@g.us", participant: "5511955550001@s.whatsapp.net", fromMe: false, id: "GRP-BOT-1" }, message: { conversation: "oi grupo" }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: "Zé" }] },
    });
    expect(group.body.handled).toBe(true);
    expect((await storedState(s.companyId)).messages.filter((m) => m.fromMe)).toEqual([]);
    // A contact with disableBot.
    const noBot = newPhone();
    await say(s.whatsappId, noBot, "primeira");
    const contact = (await storedState(s.companyId)).contacts.find((c) => c.number === noBot)!;
    expect(await received(s.companyId, s.whatsappId, noBot)).toHaveLength(1);
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.contact(s.companyId, contact.id), UpdateExpression: "SET disableBot = :t", ExpressionAttributeValues: { ":t": true } }));
    await say(s.whatsappId, noBot, "1");
    await say(s.whatsappId, noBot, "abc");
    expect(await received(s.companyId, s.whatsappId, noBot)).toHaveLength(1);
    // An agent accepts: the menu answers stop, and stay stopped when the agent gives the ticket back to pending.
    const held = newPhone();
    await say(s.whatsappId, held, "oi");
    const t = await ticketOf(s.companyId, held);
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: s.admin.token, body: { status: "open" } })).status).toBe(200);
    await say(s.whatsappId, held, "2");
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: s.admin.token, body: { status: "pending" } })).status).toBe(200);
    await say(s.whatsappId, held, "xyz");
    await say(s.whatsappId, held, "1");
    expect(await received(s.companyId, s.whatsappId, held)).toEqual(["Escolha:\n\n*[ 1 ]* - A\n*[ 2 ]* - B"]);
    expect(await ticketOf(s.companyId, held)).toMatchObject({ status: "pending", userId: null, queueId: null, chatbot: false });
  });

  it("bad answers change nothing: unknown numbers, text, symbols and long bodies only bring the menu back", async () => {
    const s = await shop({ greetingMessage: "Escolha:", maxUseBotQueues: 10 });
    const a = await putQueue(s.companyId, { name: "A", orderQueue: 1 });
    const b = await putQueue(s.companyId, { name: "B", orderQueue: 2 });
    await withQueues(s, [a, b]);
    const phone = newPhone();
    const bad = ["0", "3", "-1", "1.5", "#", "*", "1 2", "😀", "x".repeat(5000)];
    for (const text of ["oi", ...bad]) await say(s.whatsappId, phone, text);
    const menu = "Escolha:\n\n*[ 1 ]* - A\n*[ 2 ]* - B";
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual(Array(bad.length + 1).fill(menu));
    expect(await ticketOf(s.companyId, phone)).toMatchObject({ status: "pending", queueId: null, chatbot: true, amountUsedBotQueues: bad.length });
  });
});

describe("calls the company does not take", { timeout: 60_000 }, () => {
  const call = (id: string, from: string) => [{ chatId: `${from}@s.whatsapp.net`, from: `${from}@s.whatsapp.net`, id, date: new Date().toISOString(), status: "offer", offline: false, isVideo: false, isGroup: false }];

  it("rejects the call, sends the automatic text once and logs the call on the contact's ticket", async () => {
    const s = await shop({ greetingMessage: "" });
    const phone = newPhone();
    const id = `CALL${phone}`;
    expect((await sim("POST", `/sim/whatsapp/${s.whatsappId}/events`, { event: "call", data: call(id, phone) })).body.handled).toBe(true);
    await sim("POST", `/sim/whatsapp/${s.whatsappId}/events`, { event: "call", data: [{ ...call(id, phone)[0], status: "terminate" }] });
    expect(world.local.network!.rejectedCalls(s.whatsappId)).toEqual([{ callId: id, callFrom: `${phone}@s.whatsapp.net`, at: expect.any(String) }]);
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([CALL_REFUSED_MESSAGE]);
    const st = await storedState(s.companyId);
    const t = await ticketOf(s.companyId, phone);
    expect(st.messages.filter((m) => m.ticketId === t.id).map((m) => [m.mediaType, m.fromMe])).toEqual([
      ["call_log", false],
      ["chat", true],
    ]);
  });

  it("with calls accepted: no reject, no text, only the call log", async () => {
    const s = await shop({ greetingMessage: "" });
    await setting(s.companyId, "call", "enabled");
    const phone = newPhone();
    await sim("POST", `/sim/whatsapp/${s.whatsappId}/events`, { event: "call", data: call(`CALL${phone}`, phone) });
    expect(world.local.network!.rejectedCalls(s.whatsappId)).toEqual([]);
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([]);
    expect((await storedState(s.companyId)).messages.map((m) => m.mediaType)).toEqual(["call_log"]);
  });
});

describe("an AI prompt that speaks", { timeout: 120_000 }, () => {
  const standin = useAiStandin();

  it("answers the customer's phone with a voice note: the voice spoken through the speech SDK, Ogg/Opus, ptt", async () => {
    const { ai } = standin;
    const s = await shop();
    const q = await putQueue(s.companyId, { name: "Atendimento Humano" });
    const prompt = await api("POST", "/api/prompt", {
      token: s.admin.token,
      body: { name: "Assistente", apiKey: "sk-local-standin-0002", prompt: "Você é a assistente da loja.", queueId: q, baseUrl: ai.baseUrl, voice: "pt-BR-AntonioNeural", voiceKey: "speech-key-0009", voiceRegion: "brazilsouth" },
    });
    expect(prompt.status).toBe(200);
    expect((await api("PUT", `/api/whatsapp/${s.whatsappId}`, { token: s.admin.token, body: { promptId: prompt.body.id } })).status).toBe(200);
    const phone = newPhone();
    await say(s.whatsappId, phone, "qual o horário de sábado?");
    await settleDeferred();
    // One message reached the phone, and it is the voice note (no caption, no text).
    expect(await received(s.companyId, s.whatsappId, phone)).toEqual([""]);
    const sent = (await sim("GET", `/sim/whatsapp/${s.whatsappId}/sent`)).body as { jid: string; content: { audio?: { data: string }; mimetype?: string; ptt?: boolean } }[];
    const voice = sent.find((m) => m.jid === `${phone}@s.whatsapp.net`)!;
    expect(voice.content).toMatchObject({ mimetype: "audio/ogg; codecs=opus", ptt: true });
    expect(Buffer.from(voice.content.audio!.data, "base64").equals(STANDIN_VOICE)).toBe(true);
    const session = ai.speech.at(-1)!;
    expect(session.key).toBe("speech-key-0009");
    expect(session.messages.find((m) => m.path === "ssml")!.body).toContain("<voice name='pt-BR-AntonioNeural'>Olá! Sou o assistente virtual. Você disse: qual o horário de sábado?</voice>");
  });
});
