/**
 * The integrations' bots end to end against local servers speaking each provider's documented wire protocol:
 * Typebot's startChat/continueChat (prefilled variables, rich text, media, choices, keywords, expiry, a transfer
 * command, a failing server handed to people), n8n/webhook deliveries (the documented event, the HMAC recipe, retries
 * after a 500, the hand-over when the flow stays down), Dialogflow's OAuth token endpoint and detectIntent (text and
 * voice notes, the end of the conversation), and the routing rules (queue level through the chatbot, never groups,
 * held tickets or a plan without the flag).
 */
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { companyWorld, drainCommands, useLocalAws } from "../../../test/world.ts";
import { onInbound } from "../automation/inbound.ts";
import { getConfig, resetConfig } from "../config.ts";
import type { ContactItem } from "../contacts/schema.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { clearReadCache } from "../ingest/read-cache.ts";
import { listMessages } from "../messages/repository.ts";
import { MessageItem } from "../messages/schema.ts";
import { listTicketNotes } from "../notes/repository.ts";
import { putMedia } from "../storage/media.ts";
import { makeContact, makeTicket } from "../tickets/fixtures.testkit.ts";
import { getTicketItem } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { getTimer, runDueTimers } from "../timers/index.ts";
import { clearDialogflowTokens } from "./dialogflow.ts";
import { DELIVERY_BACKOFF_MINUTES, INTEGRATION_DELIVERY } from "./flow.ts";
import { TYPEBOT_EXPIRES } from "./handover.ts";
import { getBotSession } from "./repository.ts";
import { createIntegration } from "./service.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "./signature.ts";

useLocalAws({ sqs: true, bucket: "atende-integrations-test" });
const w = companyWorld({ queues: ["Vendas", "Suporte"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }] });

// ---- a local server recording every request ---------------------------------------------------------------------

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}
type Reply = { status?: number; json?: unknown; raw?: Buffer; type?: string };
async function stub(answer: (r: Seen) => Reply | Promise<Reply>) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const r: Seen = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      seen.push(r);
      const out = await answer(r);
      res.writeHead(out.status ?? 200, { "content-type": out.type ?? "application/json" });
      res.end(out.raw ?? JSON.stringify(out.json ?? {}));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

// ---- the world's plumbing ---------------------------------------------------------------------------------------

const admin = () => ({ companyId: w.cid, userId: w.admin.id, profile: "admin" as const, name: "Admin", super: false, tokenVersion: 0 }) as never;

async function setConnection(fields: Record<string, unknown>, whatsappId = w.wa, companyId = w.cid) {
  const names = Object.keys(fields);
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.whatsapp(companyId, whatsappId),
      UpdateExpression: `SET ${names.map((_, i) => `#k${i} = :v${i}`).join(", ")}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((k, i) => [`#k${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(names.map((k, i) => [`:v${i}`, fields[k]])),
    }),
  );
  clearReadCache();
}
async function setQueueIntegration(queueId: number, integrationId: number | null) {
  await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.queue(w.cid, queueId), UpdateExpression: "SET integrationId = :i", ExpressionAttributeValues: { ":i": integrationId } }));
}

/** The customer sends `body` on ticket `t` (as the ingest hands a stored inbound message to the automation). */
async function say(t: TicketItem, contact: ContactItem, body: string, opts: { created?: boolean; media?: { key: string; mime: string }; now?: Date } = {}) {
  const now = opts.now ?? new Date();
  const ticket = (await getTicketItem(t.companyId, t.id, true))!;
  const message = MessageItem.parse({
    id: `IN${randomUUID().replace(/-/g, "").slice(0, 18).toUpperCase()}`,
    ticketId: t.id,
    companyId: t.companyId,
    contactId: contact.id,
    whatsappId: t.whatsappId,
    remoteJid: `${contact.number}@s.whatsapp.net`,
    body,
    fromMe: false,
    mediaType: opts.media ? "audio" : "chat",
    mediaKey: opts.media?.key ?? null,
    mediaMime: opts.media?.mime ?? null,
    waTimestamp: now.toISOString(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  });
  await onInbound({ companyId: t.companyId, whatsappId: t.whatsappId, ticket, ticketCreated: !!opts.created, message, contact, now });
  return message;
}

const sent = async (t: TicketItem) =>
  (await listMessages(t.companyId, t.id)).messages
    .filter((m) => m.fromMe)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((m) => (m.mediaKey ? `[${m.mediaType}]` : m.body));
const fresh = async (t: TicketItem) => (await getTicketItem(t.companyId, t.id, true))!;

async function newCustomer(name: string) {
  const contact = await makeContact(w.cid, name);
  const ticket = await makeTicket(w.cid, { whatsappId: w.wa, contact });
  return { contact, ticket };
}

// ---- Typebot ----------------------------------------------------------------------------------------------------

describe("Typebot", { timeout: 120_000 }, () => {
  const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
  let typebot: Awaited<ReturnType<typeof stub>>;
  /** What continueChat answers next (by the customer's text). */
  let script: (text: string) => Reply;
  let sessions = 0;
  beforeAll(async () => {
    typebot = await stub((r) => {
      if (r.path === "/img/logo.png") return { raw: png, type: "image/png" };
      if (r.path.startsWith("/broken/")) return { status: 500 };
      if (r.path.endsWith("/startChat")) {
        sessions++;
        return {
          json: {
            sessionId: `sess-${sessions}`,
            messages: [
              { id: "b1", type: "text", content: { type: "richText", richText: [{ type: "p", children: [{ text: "Olá ", bold: false }, { text: "bem-vindo", bold: true }, { text: "!" }] }] } },
              { id: "b2", type: "image", content: { url: `${typebot.url}/img/logo.png` } },
            ],
            input: { type: "choice input", items: [{ id: "i1", content: "Comprar" }, { id: "i2", content: "Falar com alguém" }] },
          },
        };
      }
      if (r.path.includes("/continueChat")) return script(JSON.parse(r.body).message.text);
      return { status: 404 };
    });
  });
  afterAll(() => typebot.close());
  beforeEach(() => {
    typebot.seen.length = 0;
    script = () => ({ json: { messages: [] } });
  });

  async function typebotOnConnection(extra: Record<string, unknown> = {}) {
    const it0 = await createIntegration(admin(), {
      type: "typebot",
      name: `Typebot ${randomUUID().slice(0, 8)}`,
      urlN8N: typebot.url,
      typebotSlug: "atendimento",
      typebotDelayMessage: 0,
      typebotKeywordRestart: "reiniciar",
      typebotRestartMessage: "Vamos recomeçar.",
      typebotKeywordFinish: "sair",
      typebotUnknownMessage: "Não entendi.",
      ...extra,
    } as never);
    await setConnection({ integrationId: it0.id });
    return it0;
  }

  it("starts with the contact's number and name, renders rich text, media and choices, and a transfer command hands the ticket to a queue", async () => {
    const it0 = await typebotOnConnection();
    const { contact, ticket } = await newCustomer("Beatriz Souza");
    await say(ticket, contact, "oi", { created: true });
    const start = typebot.seen.find((r) => r.path.endsWith("/startChat"))!;
    expect(start.path).toBe("/api/v1/typebots/atendimento/startChat");
    expect(JSON.parse(start.body)).toMatchObject({ prefilledVariables: { number: contact.number, name: "Beatriz Souza", pushName: "Beatriz Souza" } });
    expect(await sent(ticket)).toEqual(["Olá *bem-vindo*!", "[image]", "*[ 1 ]* - Comprar\n*[ 2 ]* - Falar com alguém"]);
    expect(await fresh(ticket)).toMatchObject({ useIntegration: true, integrationId: it0.id, queueId: null, status: "pending" });

    // "2" is sent back as the chosen item's text; the bot answers with a transfer command to Suporte.
    script = (text) => ({ json: { messages: [{ type: "text", content: { richText: [{ type: "p", children: [{ text: `#{"queueId":${w.queues[1]}}` }] }] } }], echo: text } });
    await say(ticket, contact, "2");
    const cont = typebot.seen.find((r) => r.path.includes("/continueChat"))!;
    expect(cont.path).toBe(`/api/v1/sessions/sess-${sessions}/continueChat`);
    expect(JSON.parse(cont.body).message).toEqual({ type: "text", text: "Falar com alguém" });
    expect(await fresh(ticket)).toMatchObject({ queueId: w.queues[1], status: "pending", userId: null, useIntegration: false, integrationId: it0.id });
    expect(await sent(ticket)).toHaveLength(3);
    expect(await getBotSession(w.cid, ticket.id)).toBeUndefined();

    // Handed over: the bot no longer hears this ticket.
    typebot.seen.length = 0;
    await say(ticket, contact, "alô?");
    expect(typebot.seen).toEqual([]);
  });

  it("pauses typebotDelayMessage between the bot's messages with the typing presence in between, in order", async () => {
    await typebotOnConnection({ typebotDelayMessage: 20 });
    const { contact, ticket } = await newCustomer("Bia");
    await drainCommands(w.wa);
    const msg = await say(ticket, contact, "oi", { created: true });
    const commands = (await drainCommands(w.wa)).map((c) => (c.type === "presence" ? `presence:${c.presence}:${c.remoteJid}` : c.type));
    expect(commands).toEqual(["send", `presence:composing:${msg.remoteJid}`, "send", `presence:composing:${msg.remoteJid}`, "send"]);
  });

  it("a transfer command naming an agent opens the ticket for that agent", async () => {
    await typebotOnConnection();
    const { contact, ticket } = await newCustomer("Caio");
    await say(ticket, contact, "oi", { created: true });
    script = () => ({ json: { messages: [{ type: "text", content: { richText: [{ type: "p", children: [{ text: `#{"queueId":${w.queues[0]},"userId":${w.agents[0].id}}` }] }] } }] } });
    await say(ticket, contact, "1");
    expect(await fresh(ticket)).toMatchObject({ queueId: w.queues[0], status: "open", userId: w.agents[0].id, useIntegration: false });
  });

  it("sends typebotUnknownMessage for an empty answer, restarts on the restart keyword, closes on the finish keyword", async () => {
    await typebotOnConnection();
    const { contact, ticket } = await newCustomer("Davi");
    await say(ticket, contact, "oi", { created: true });
    await say(ticket, contact, "???");
    expect((await sent(ticket)).at(-1)).toBe("Não entendi.");
    const before = sessions;
    await say(ticket, contact, "Reiniciar");
    expect((await sent(ticket)).at(-1)).toBe("Vamos recomeçar.");
    expect(await getBotSession(w.cid, ticket.id)).toBeUndefined();
    await say(ticket, contact, "oi de novo");
    expect(sessions).toBe(before + 1);
    await say(ticket, contact, "sair");
    expect((await fresh(ticket)).status).toBe("closed");
  });

  it("typebotExpires minutes of silence end the session through its timer: the next message starts a new one", async () => {
    await typebotOnConnection({ typebotExpires: 2 });
    const { contact, ticket } = await newCustomer("Elisa");
    const t0 = new Date();
    await say(ticket, contact, "oi", { created: true, now: t0 });
    const timer = await getTimer(w.cid, TYPEBOT_EXPIRES, ticket.id);
    expect(timer?.dueAt).toBe(new Date(t0.getTime() + 2 * 60_000).toISOString());
    // A minute later the session still holds.
    await runDueTimers(new Date(t0.getTime() + 60_000));
    expect(await getBotSession(w.cid, ticket.id)).toBeDefined();
    await runDueTimers(new Date(t0.getTime() + 2 * 60_000 + 1000));
    expect(await getBotSession(w.cid, ticket.id)).toBeUndefined();
    const before = sessions;
    await say(ticket, contact, "voltei");
    expect(sessions).toBe(before + 1);
  });

  it("a failing Typebot hands the ticket to people with a note, never a silent stop", async () => {
    const it0 = await typebotOnConnection({ urlN8N: `${typebot.url}/broken` });
    const { contact, ticket } = await newCustomer("Fábio");
    await say(ticket, contact, "oi", { created: true });
    expect(await fresh(ticket)).toMatchObject({ useIntegration: false, integrationId: it0.id, status: "pending", userId: null });
    const notes = await listTicketNotes(w.cid, ticket.id);
    expect(notes.map((n) => n.note)).toEqual([expect.stringMatching(/^Integração "Typebot .*": o Typebot respondeu HTTP 500\. O atendimento segue com a equipe\.$/)]);
  });

  it("never answers groups, tickets an agent holds, contacts with the bot disabled, nor a company whose plan lacks useIntegrations", async () => {
    await typebotOnConnection();
    const held = await makeTicket(w.cid, { whatsappId: w.wa, contact: await makeContact(w.cid, "Gil"), status: "open", userId: w.agents[0].id });
    await say(held, (await makeContact(w.cid, "Gil")) as ContactItem, "oi");
    const group = await makeTicket(w.cid, { whatsappId: w.wa, isGroup: true });
    await say(group, await makeContact(w.cid, "Grupo"), "oi", { created: true });
    const { contact, ticket } = await newCustomer("Helena");
    await say(ticket, { ...contact, disableBot: true }, "oi", { created: true });
    expect(typebot.seen).toEqual([]);

    const off = await w.fresh({ planFlags: { useIntegrations: false } });
    const it1 = await createIntegration({ ...(admin() as object), companyId: off.cid, userId: off.admin.id } as never, { type: "typebot", name: "Sem plano", urlN8N: typebot.url, typebotSlug: "x" } as never);
    await setConnection({ integrationId: it1.id }, off.wa, off.cid);
    const c2 = await makeContact(off.cid, "Iara");
    const t2 = await makeTicket(off.cid, { whatsappId: off.wa, contact: c2 });
    await say(t2, c2, "oi", { created: true });
    expect(typebot.seen).toEqual([]);
  });
});

// ---- n8n and webhook --------------------------------------------------------------------------------------------

describe("n8n and webhook deliveries", { timeout: 120_000 }, () => {
  let receiver: Awaited<ReturnType<typeof stub>>;
  let status = 200;
  beforeAll(async () => {
    receiver = await stub(() => ({ status, json: { ok: status < 300 } }));
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    receiver.seen.length = 0;
    status = 200;
  });

  it("POSTs the documented event, signed as docs/product/integrations.md says; a 500 is retried by the timer with the same event id", async () => {
    const secret = "segredo-digitado-pelo-admin-1234";
    const hook = await createIntegration(admin(), { type: "webhook", name: `Hook ${randomUUID().slice(0, 6)}`, urlN8N: `${receiver.url}/flow`, webhookSecret: secret } as never);
    await setConnection({ integrationId: hook.id });
    const { contact, ticket } = await newCustomer("Joana");
    status = 500;
    const t0 = new Date();
    const msg = await say(ticket, contact, "Quero um orçamento", { created: true, now: t0 });
    expect(receiver.seen).toHaveLength(1);
    const first = receiver.seen[0];
    const event = JSON.parse(first.body);
    expect(Object.keys(event).sort()).toEqual(["company", "connection", "contact", "createdAt", "id", "integration", "message", "ticket", "type"]);
    expect(event).toMatchObject({
      type: "message.received",
      company: { id: w.cid },
      connection: { id: w.wa },
      contact: { id: contact.id, name: "Joana", number: contact.number },
      ticket: { id: ticket.id, uuid: ticket.uuid, status: "pending" },
      message: { id: msg.id, body: "Quero um orçamento", mediaType: "chat", mediaUrl: null },
    });
    // The recipe of the docs, by hand: HMAC-SHA256(secret, `${timestamp}.${body}`), hex, prefixed "sha256=".
    const ts = String(first.headers[TIMESTAMP_HEADER.toLowerCase()]);
    const expected = `sha256=${createHmac("sha256", secret).update(`${ts}.${first.body}`).digest("hex")}`;
    expect(first.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(expected);
    expect(verifySignature(secret, ts, first.body, expected)).toBe(true);
    expect(verifySignature(secret, ts, first.body.replace("orçamento", "desconto"), expected)).toBe(false);
    expect(verifySignature("another-secret", ts, first.body, expected)).toBe(false);

    const ref = `${ticket.id}-${msg.id}`;
    expect((await getTimer(w.cid, INTEGRATION_DELIVERY, ref))?.dueAt).toBe(new Date(t0.getTime() + 60_000).toISOString());
    status = 200;
    await runDueTimers(new Date(t0.getTime() + 61_000));
    expect(receiver.seen).toHaveLength(2);
    const second = receiver.seen[1];
    expect(JSON.parse(second.body).id).toBe(event.id);
    expect(second.headers["x-atende-attempt"]).toBe("2");
    expect(verifySignature(secret, String(second.headers["x-atende-timestamp"]), second.body, String(second.headers["x-atende-signature"]))).toBe(true);
    expect(await getTimer(w.cid, INTEGRATION_DELIVERY, ref)).toBeNull();
    expect(await fresh(ticket)).toMatchObject({ useIntegration: true, integrationId: hook.id });
  });

  it("a flow that stays down gets every backoff step, then the ticket goes to people with a note", async () => {
    const n8n = await createIntegration(admin(), { type: "n8n", name: `N8N ${randomUUID().slice(0, 6)}`, urlN8N: `${receiver.url}/n8n` } as never);
    await setConnection({ integrationId: n8n.id });
    const { contact, ticket } = await newCustomer("Karla");
    status = 500;
    let at = Date.now();
    await say(ticket, contact, "oi", { created: true, now: new Date(at) });
    for (const minutes of DELIVERY_BACKOFF_MINUTES) {
      at += minutes * 60_000 + 1000;
      await runDueTimers(new Date(at));
    }
    expect(receiver.seen).toHaveLength(1 + DELIVERY_BACKOFF_MINUTES.length);
    expect(receiver.seen.map((r) => r.headers["x-atende-attempt"])).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
    expect(await fresh(ticket)).toMatchObject({ useIntegration: false, integrationId: n8n.id });
    expect((await listTicketNotes(w.cid, ticket.id)).map((n) => n.note)).toEqual([expect.stringContaining("o fluxo não recebeu a mensagem após 7 tentativas (HTTP 500)")]);
  });
});

// ---- Dialogflow ---------------------------------------------------------------------------------------------------

describe("Dialogflow", { timeout: 120_000 }, () => {
  let google: Awaited<ReturnType<typeof stub>>;
  let serviceAccount = "";
  let end = false;
  beforeAll(async () => {
    google = await stub((r) => {
      if (r.path === "/token") return { json: { access_token: "ya29.local", expires_in: 3600 } };
      if (r.headers.authorization !== "Bearer ya29.local") return { status: 401 };
      const q = JSON.parse(r.body);
      const heard = q.inputAudio ? `áudio de ${Buffer.from(q.inputAudio, "base64").length} bytes` : q.queryInput.text.text;
      return { json: { queryResult: { fulfillmentMessages: [{ text: { text: [`Você disse: ${heard}`] } }, { text: { text: ["Posso ajudar?"] } }], intent: { endInteraction: end } } } };
    });
    const pair = await generateKeyPair("RS256", { extractable: true });
    serviceAccount = JSON.stringify({ project_id: "loja", private_key: await exportPKCS8(pair.privateKey), client_email: "bot@loja.iam.gserviceaccount.com", token_uri: `${google.url}/token` });
    process.env.DIALOGFLOW_API_URL = google.url;
    resetConfig();
    clearDialogflowTokens();
  });
  afterAll(async () => {
    delete process.env.DIALOGFLOW_API_URL;
    resetConfig();
    await google.close();
  });

  it("at queue level: the chatbot enters the queue, each message is one detectIntent in the ticket's session (text and voice notes), and the end of the conversation hands over", async () => {
    const df = await createIntegration(admin(), { type: "dialogflow", name: `DF ${randomUUID().slice(0, 6)}`, projectName: "loja", language: "es", jsonContent: serviceAccount } as never);
    await setConnection({ integrationId: null, queueIds: [w.queues[0]] });
    await setQueueIntegration(w.queues[0], df.id);
    const contact = await makeContact(w.cid, "Lia");
    const ticket = await makeTicket(w.cid, { whatsappId: w.wa, contact, queueId: w.queues[0] });
    await say(ticket, contact, "Hola", { created: true });
    expect(await fresh(ticket)).toMatchObject({ useIntegration: true, integrationId: df.id, queueId: w.queues[0] });
    expect(await sent(ticket)).toEqual(["Você disse: Hola", "Posso ajudar?"]);
    const detect = google.seen.filter((r) => r.path.endsWith(":detectIntent"));
    expect(detect[0].path).toBe(`/v2/projects/loja/agent/sessions/atende-${w.cid}-${ticket.id}:detectIntent`);
    expect(JSON.parse(detect[0].body)).toEqual({ queryInput: { text: { text: "Hola", languageCode: "es" } } });

    const key = `media/${w.cid}/${ticket.id}/voice.ogg`;
    await putMedia(key, new Uint8Array(321), "audio/ogg");
    end = true;
    await say(ticket, contact, "", { media: { key, mime: "audio/ogg" } });
    const voice = JSON.parse(google.seen.filter((r) => r.path.endsWith(":detectIntent")).at(-1)!.body);
    expect(voice.queryInput.audioConfig).toEqual({ audioEncoding: "AUDIO_ENCODING_OGG_OPUS", sampleRateHertz: 16000, languageCode: "es" });
    expect((await sent(ticket)).slice(-2)).toEqual(["Você disse: áudio de 321 bytes", "Posso ajudar?"]);
    expect(await fresh(ticket)).toMatchObject({ useIntegration: false, queueId: w.queues[0], status: "pending" });
    expect((await listTicketNotes(w.cid, ticket.id)).map((n) => n.note)).toEqual([expect.stringContaining("o Dialogflow encerrou a conversa")]);
    await setQueueIntegration(w.queues[0], null);
    await setConnection({ queueIds: [] });
  });
});


// ---- a provider that never answers ----------------------------------------------------------------------------------

describe("a provider that never answers", { timeout: 120_000 }, () => {
  let silent: Server;
  let url = "";
  const hits: string[] = [];
  beforeAll(async () => {
    // Takes each request and never answers it (a provider hanging): only the time limit ends the call.
    silent = createServer((req) => void hits.push(req.url ?? ""));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    process.env.PROVIDER_TIMEOUT_MS = "300";
    resetConfig();
  });
  afterAll(async () => {
    delete process.env.PROVIDER_TIMEOUT_MS;
    delete process.env.DIALOGFLOW_API_URL;
    resetConfig();
    silent.closeAllConnections();
    await new Promise((r) => silent.close(r));
  });

  it("waits 30 s by default", () => {
    delete process.env.PROVIDER_TIMEOUT_MS;
    resetConfig();
    try {
      expect(getConfig().PROVIDER_TIMEOUT_MS).toBe(30_000);
    } finally {
      process.env.PROVIDER_TIMEOUT_MS = "300";
      resetConfig();
    }
  });

  /** The ticket goes to people (pending, no agent, the bot off) with the timeout's note for them. */
  async function expectHandedOver(ticket: TicketItem, integrationId: number, name: string) {
    expect(await fresh(ticket)).toMatchObject({ useIntegration: false, integrationId, status: "pending", userId: null });
    expect((await listTicketNotes(w.cid, ticket.id)).map((n) => n.note)).toEqual([`Integração "${name}": o provedor não respondeu em 0,3 s. O atendimento segue com a equipe.`]);
  }

  it("Typebot: the call is cut at the time limit and the ticket goes to people with a note", async () => {
    const name = `Typebot mudo ${randomUUID().slice(0, 4)}`;
    const it0 = await createIntegration(admin(), { type: "typebot", name, urlN8N: url, typebotSlug: "mudo" } as never);
    await setConnection({ integrationId: it0.id });
    const { contact, ticket } = await newCustomer("Laura");
    const before = hits.length;
    const t0 = Date.now();
    await say(ticket, contact, "oi", { created: true });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(hits.slice(before)).toEqual(["/api/v1/typebots/mudo/startChat"]);
    await expectHandedOver(ticket, it0.id, name);
  });

  it("Typebot: a media file whose server never answers is cut at the same time limit and its link goes as text", async () => {
    const media = `${url}/foto.png`;
    const bot = await stub((r) => (r.path.endsWith("/startChat") ? { json: { sessionId: "sess-foto", messages: [{ id: "m1", type: "image", content: { url: media } }] } } : { status: 404 }));
    try {
      const it0 = await createIntegration(admin(), { type: "typebot", name: `Typebot foto ${randomUUID().slice(0, 4)}`, urlN8N: bot.url, typebotSlug: "foto", typebotDelayMessage: 0 } as never);
      await setConnection({ integrationId: it0.id });
      const { contact, ticket } = await newCustomer("Nina");
      const before = hits.length;
      const t0 = Date.now();
      await say(ticket, contact, "oi", { created: true });
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(hits.slice(before)).toEqual(["/foto.png"]);
      expect(await sent(ticket)).toEqual([media]);
    } finally {
      await bot.close();
    }
  });

  it("Dialogflow: a token endpoint that never answers hands the ticket to people with a note", async () => {
    const pair = await generateKeyPair("RS256", { extractable: true });
    const key = JSON.stringify({ type: "service_account", project_id: "mudo", private_key: await exportPKCS8(pair.privateKey), client_email: "bot@mudo.iam.gserviceaccount.com", token_uri: `${url}/token` });
    process.env.DIALOGFLOW_API_URL = url;
    resetConfig();
    clearDialogflowTokens();
    const name = `DF mudo ${randomUUID().slice(0, 4)}`;
    const df = await createIntegration(admin(), { type: "dialogflow", name, projectName: "mudo", language: "pt-BR", jsonContent: key } as never);
    await setConnection({ integrationId: df.id });
    const { contact, ticket } = await newCustomer("Marta");
    const before = hits.length;
    await say(ticket, contact, "oi", { created: true });
    expect(hits.slice(before)).toEqual(["/token"]);
    await expectHandedOver(ticket, df.id, name);
  });

  it("n8n: an attempt past the time limit is retried by its timer with the same event; after every retry the ticket goes to people", async () => {
    const n8n = await createIntegration(admin(), { type: "n8n", name: `N8N mudo ${randomUUID().slice(0, 4)}`, urlN8N: `${url}/n8n` } as never);
    await setConnection({ integrationId: n8n.id });
    const { contact, ticket } = await newCustomer("Nair");
    const before = hits.length;
    let at = Date.now();
    const msg = await say(ticket, contact, "oi", { created: true, now: new Date(at) });
    expect(hits.slice(before)).toEqual(["/n8n"]);
    // Nothing lost: the delivery waits in its timer, the bot still holds the ticket.
    expect(await getTimer(w.cid, INTEGRATION_DELIVERY, `${ticket.id}-${msg.id}`)).not.toBeNull();
    expect(await fresh(ticket)).toMatchObject({ useIntegration: true });
    for (const minutes of DELIVERY_BACKOFF_MINUTES) {
      at += minutes * 60_000 + 1000;
      await runDueTimers(new Date(at));
    }
    expect(hits.length - before).toBe(1 + DELIVERY_BACKOFF_MINUTES.length);
    expect(await fresh(ticket)).toMatchObject({ useIntegration: false, integrationId: n8n.id, status: "pending" });
    expect((await listTicketNotes(w.cid, ticket.id)).map((n) => n.note)).toEqual([expect.stringContaining("o fluxo não recebeu a mensagem após 7 tentativas")]);
  });
});
