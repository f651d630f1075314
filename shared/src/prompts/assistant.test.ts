/**
 * The AI assistant end to end inside the product, against a local server speaking the provider's wire protocols
 * (`infra/local/src/ai-standin.ts`): a customer's message on a ticket whose queue (or connection, before any queue)
 * has a prompt reaches the model with the prompt as system text, the latest `maxMessages` messages in order and the
 * model's parameters; the reply goes out marked as the assistant's; the transfer phrase hands the ticket to the
 * prompt's queue; a provider error hands it to people with a note; voice notes are transcribed and voice replies
 * spoken through the speech SDK against the stand-in's speech WebSocket (a refused key or a silent service: the text
 * goes out and the ticket goes to people with a note); agent-held and group tickets never reach the model; tokens are counted per company and day.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, useLocalAws } from "../../../test/world.ts";
import { STANDIN_VOICE, type AiStandin } from "../../../infra/local/src/ai-standin.ts";
import { useAiStandin } from "../../../infra/local/src/ai-standin.testkit.ts";
import { onInbound } from "../automation/inbound.ts";
import { SILENT_FOR_GOOD } from "../automation/chatbot.ts";
import { nowIso } from "../common.ts";
import { getConfig, resetConfig } from "../config.ts";
import { getContactItem } from "../contacts/repository.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { localDayHour } from "../events/outbox.ts";
import { settleDeferred } from "../events/index.ts";
import { clearReadCache } from "../ingest/read-cache.ts";
import { ingestMessage, listMessages } from "../messages/repository.ts";
import { chatJidOf } from "../messages/service.ts";
import { listTicketNotes } from "../notes/repository.ts";
import { getMedia, mediaKey, putMedia } from "../storage/media.ts";
import { makeContact, makeTicket } from "../tickets/fixtures.testkit.ts";
import { getTicketItem } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { registerSocket } from "../users/realtime-capture.testkit.ts";
import { answerCustomer, TRANSFER_NOTICE } from "./assistant.ts";
import { synthesize } from "./provider.ts";
import { getAiUsage } from "./repository.ts";

useLocalAws({ sqs: true, bucket: "atende-assistant-test" });
const w = companyWorld({ queues: ["Vendas", "Humanos"], whatsapp: true, agents: [{ queues: [1], name: "Hugo" }], other: true });
const standin = useAiStandin();
let ai: AiStandin;

beforeEach(async () => {
  ai = standin.ai;
  ai.requests = [];
  ai.speech = [];
  ai.speechKeys = null;
  ai.speechSilent = false;
  ai.failWith = null;
  ai.reply = (await import("../../../infra/local/src/ai-standin.ts")).defaultReply;
  await drainCommands(w.wa);
});

const PROMPT_TEXT = "Você é a assistente da Loja Boa Vista. Fale de preços e horários; não invente produtos.";

/** A prompt created through the API (answering in queue Humanos's name when it transfers), pointed at the stand-in. */
async function makePrompt(extra: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/prompt", {
    token: w.admin.token,
    body: { name: `Assistente ${Math.random()}`, apiKey: "sk-local-standin-0001", prompt: PROMPT_TEXT, queueId: w.queues[1], baseUrl: ai.baseUrl, maxMessages: 3, temperature: 0.3, maxTokens: 120, model: "gpt-4o-mini", ...extra },
  });
  expect(res.status).toBe(200);
  return res.body as { id: number; queueId: number };
}

async function setQueuePrompt(queueId: number, promptId: number | null) {
  const res = await api("PUT", `/api/queue/${queueId}`, { token: w.admin.token, body: { promptId } });
  expect(res.status).toBe(200);
}

let seq = 0;
/** The customer's message stored as the ingest stores it, then handed to the automation (as the ingest does), settled. */
async function customerSays(t: TicketItem, body: string, extra: Record<string, unknown> = {}) {
  const contact = (await getContactItem(w.cid, t.contactId))!;
  const fresh = (await getTicketItem(w.cid, t.id, true))!;
  const jid = chatJidOf(contact);
  const id = `IN${Date.now()}${++seq}`;
  const stored = await ingestMessage(
    w.cid,
    fresh,
    { id, ticketId: t.id, companyId: w.cid, contactId: contact.id, whatsappId: t.whatsappId, remoteJid: jid, body, fromMe: false, waTimestamp: nowIso(), ...extra } as never,
    { lastMessage: body, incrementUnread: true, waAliasJid: jid },
  );
  await onInbound({ companyId: w.cid, whatsappId: t.whatsappId, ticket: stored.ticket, ticketCreated: false, message: stored.message, contact, now: new Date() });
  await settleDeferred();
  return stored.message;
}

const chatRequests = () => ai.requests.filter((r) => r.path === "/v1/chat/completions");
const newest = async (ticketId: number) => (await listMessages(w.cid, ticketId, { limit: 1 })).messages[0];

describe("a queue with a prompt", () => {
  it("sends the latest maxMessages messages in order with the prompt as system text and the model's parameters; the reply goes out as the assistant's; tokens are counted", async () => {
    const p = await makePrompt();
    await setQueuePrompt(w.queues[0], p.id);
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], contact: await makeContact(w.cid, "Marina Souza") });
    const day = localDayHour(nowIso(), "America/Sao_Paulo").day;
    const before = await getAiUsage(w.cid, day);
    await customerSays(t, "primeira mensagem, antiga");
    await customerSays(t, "segunda");
    await customerSays(t, "quanto custa a entrega?");
    const last = chatRequests().at(-1)!;
    expect(last.headers.authorization).toBe("Bearer sk-local-standin-0001");
    expect(last.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0.3, max_tokens: 120 });
    const [system, ...conversation] = last.body.messages;
    expect(system.role).toBe("system");
    expect(system.content).toContain(PROMPT_TEXT);
    expect(system.content).toContain("Marina");
    expect(system.content).toContain("Ação: Transferir para o setor de atendimento");
    // The latest 3 of the ticket, oldest first: the second message, the assistant's reply to it, the third.
    expect(conversation.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(conversation[0].content).toBe("segunda");
    expect(conversation[1].content).toBe("Olá! Sou o assistente virtual. Você disse: segunda");
    expect(conversation[2].content).toBe("quanto custa a entrega?");
    const reply = await newest(t.id);
    expect(reply).toMatchObject({ fromMe: true, isAssistant: true, isAutomatic: true, userId: null, body: "Olá! Sou o assistente virtual. Você disse: quanto custa a entrega?" });
    const sent = (await drainCommands(w.wa)).filter((c) => c.type === "send").map((c) => c.messageId);
    expect(sent).toContain(reply.id);
    expect((await getTicketItem(w.cid, t.id))).toMatchObject({ status: "pending", queueId: w.queues[0], userId: null });
    const after = await getAiUsage(w.cid, day);
    expect(after.requests - before.requests).toBe(3);
    expect(after.totalTokens - before.totalTokens).toBe(150);
    expect(after.promptTokens - before.promptTokens).toBe(126);
  });

  it("a reply beginning with the transfer phrase moves the ticket to the prompt's queue, pending with the bot off, tells the customer and its agents; the bot stays quiet after", async () => {
    const p = await makePrompt();
    await setQueuePrompt(w.queues[0], p.id);
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const hugo = await registerSocket(w.cid, { id: w.agents[0].id, profile: "user", queueIds: [w.queues[1]] });
    w.capture.clear();
    await customerSays(t, "quero falar com um atendente, por favor");
    const moved = (await getTicketItem(w.cid, t.id, true))!;
    expect(moved).toMatchObject({ status: "pending", queueId: w.queues[1], userId: null, chatbot: false, botSilentUntil: SILENT_FOR_GOOD });
    expect(await newest(t.id)).toMatchObject({ fromMe: true, isAssistant: true, body: "Um momento, vou chamar alguém da equipe." });
    const frames = w.capture.frames.filter((f) => f.connectionId === hugo && f.event === `company-${w.cid}-ticket`);
    expect(frames.some((f) => f.data.action === "update" && f.data.ticket.id === t.id && f.data.ticket.queueId === w.queues[1])).toBe(true);
    const calls = chatRequests().length;
    await customerSays(t, "alô?");
    expect(chatRequests()).toHaveLength(calls);
    expect((await newest(t.id)).body).toBe("alô?");
  });

  it("the phrase alone tells the customer the fixed transfer text", async () => {
    const p = await makePrompt();
    await setQueuePrompt(w.queues[0], p.id);
    ai.reply = () => "Ação: Transferir para o setor de atendimento";
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    await customerSays(t, "tenho um problema com meu pedido");
    expect(await newest(t.id)).toMatchObject({ isAssistant: true, body: TRANSFER_NOTICE });
    expect((await getTicketItem(w.cid, t.id, true))?.queueId).toBe(w.queues[1]);
  });

  it("a provider error (credit exhausted, a refusal) hands the ticket to people with a note for the agents, never a silent stop", async () => {
    const p = await makePrompt();
    await setQueuePrompt(w.queues[0], p.id);
    const cases: [AiStandin["failWith"], string][] = [
      [{ status: 429, body: { error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" } } }, "o crédito do provedor de IA acabou"],
      [{ status: 401, body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } } }, "recusou o pedido (401"],
    ];
    for (const [fail, why] of cases) {
      ai.failWith = fail;
      const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
      const msg = await customerSays(t, "oi, tudo bem?");
      expect(chatRequests().length).toBeGreaterThan(0);
      expect(await getTicketItem(w.cid, t.id, true)).toMatchObject({ status: "pending", queueId: w.queues[1], chatbot: false, botSilentUntil: SILENT_FOR_GOOD });
      const notes = await listTicketNotes(w.cid, t.id);
      expect(notes).toHaveLength(1);
      expect(notes[0].note).toContain(why);
      expect(notes[0].note).toContain("O atendimento passou para a equipe.");
      expect((await newest(t.id)).id).toBe(msg.id);
    }
  });
});

describe("the connection's prompt", () => {
  it("answers a ticket that has no queue yet; an agent-held ticket and a group never reach the model", async () => {
    const p = await makePrompt();
    await ddb().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.whatsapp(w.cid, w.wa), UpdateExpression: "SET promptId = :p", ExpressionAttributeValues: { ":p": p.id } }),
    );
    clearReadCache();
    try {
      const t = await makeTicket(w.cid, { whatsappId: w.wa });
      await customerSays(t, "bom dia");
      expect((await newest(t.id))).toMatchObject({ isAssistant: true, body: "Olá! Sou o assistente virtual. Você disse: bom dia" });
      const calls = chatRequests().length;
      const held = await makeTicket(w.cid, { whatsappId: w.wa, status: "open", userId: w.admin.id });
      await customerSays(held, "oi");
      const group = await makeTicket(w.cid, { whatsappId: w.wa, isGroup: true });
      await customerSays(group, "oi grupo");
      expect(chatRequests()).toHaveLength(calls);
      expect((await newest(held.id)).body).toBe("oi");
      expect((await newest(group.id)).body).toBe("oi grupo");
    } finally {
      await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.whatsapp(w.cid, w.wa), UpdateExpression: "SET promptId = :p", ExpressionAttributeValues: { ":p": null } }));
      clearReadCache();
    }
  });
});

describe("voice", () => {
  const VOICE = { voice: "pt-BR-FranciscaNeural", voiceKey: "azure-speech-key-77", voiceRegion: "brazilsouth" };

  it("transcribes the customer's voice note first and answers with the chosen voice through the speech SDK, as an Ogg/Opus voice note", async () => {
    const p = await makePrompt(VOICE);
    await setQueuePrompt(w.queues[0], p.id);
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const key = mediaKey(w.cid, t.id, `voz-${Date.now()}`, "ogg");
    await putMedia(key, Buffer.from("OggS\0customer voice"), "audio/ogg");
    ai.transcript = "o frete & a entrega <hoje> saem quanto?";
    await customerSays(t, "", { mediaType: "audio", mediaKey: key, mediaMime: "audio/ogg; codecs=opus", mediaName: "audio.ogg" });
    const transcription = ai.requests.find((r) => r.path === "/v1/audio/transcriptions")!;
    expect(transcription.body).toContain('name="model"');
    expect(transcription.body).toContain("whisper-1");
    expect(transcription.body).toContain("customer voice");
    expect(chatRequests().at(-1)!.body.messages.at(-1)).toEqual({ role: "user", content: "o frete & a entrega <hoje> saem quanto?" });
    // What the speech service saw: the prompt's key on the upgrade, then the SDK's protocol in order.
    expect(ai.speech).toHaveLength(1);
    const [session] = ai.speech;
    expect(session).toMatchObject({ path: "/tts/cognitiveservices/websocket/v1", key: "azure-speech-key-77" });
    expect(session.messages.map((m) => m.path)).toEqual(["speech.config", "synthesis.context", "ssml"]);
    const [, context, ssml] = session.messages;
    expect(JSON.parse(context.body).synthesis.audio.outputFormat).toBe("ogg-24khz-16bit-mono-opus");
    expect(ssml.requestId).toBe(context.requestId);
    expect(ssml.headers["content-type"]).toBe("application/ssml+xml");
    expect(ssml.body).toContain("xml:lang='pt-BR'");
    expect(ssml.body).toContain("<voice name='pt-BR-FranciscaNeural'>Olá! Sou o assistente virtual. Você disse: o frete &amp; a entrega &lt;hoje&gt; saem quanto?</voice>");
    const reply = await newest(t.id);
    expect(reply).toMatchObject({ isAssistant: true, mediaType: "audio", mediaMime: "audio/ogg; codecs=opus", mediaName: "resposta.ogg", body: "Olá! Sou o assistente virtual. Você disse: o frete & a entrega <hoje> saem quanto?" });
    // The whole Ogg/Opus file the service streamed in chunks, byte for byte.
    const audio = await getMedia(reply.mediaKey!);
    expect(audio.subarray(0, 4).toString()).toBe("OggS");
    expect(audio.subarray(28, 36).toString()).toBe("OpusHead");
    expect(audio.equals(STANDIN_VOICE)).toBe(true);
    expect((await drainCommands(w.wa)).filter((c) => c.type === "send").map((c) => c.messageId)).toEqual([reply.id]);
    expect(await listTicketNotes(w.cid, t.id)).toEqual([]);
  });

  /** The customer writes to a voice prompt's queue; the text reply goes out, the ticket to people with one note. */
  async function voiceFails(why: string) {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    await customerSays(t, "bom dia");
    const reply = await newest(t.id);
    expect(reply).toMatchObject({ isAssistant: true, mediaType: "chat", body: "Olá! Sou o assistente virtual. Você disse: bom dia" });
    expect(await getTicketItem(w.cid, t.id, true)).toMatchObject({ status: "pending", queueId: w.queues[1], userId: null, chatbot: false, botSilentUntil: SILENT_FOR_GOOD });
    const notes = await listTicketNotes(w.cid, t.id);
    expect(notes.map((n) => n.note)).toEqual([`O assistente não pôde responder por voz: ${why}. A resposta foi enviada em texto e o atendimento passou para a equipe.`]);
    expect((await drainCommands(w.wa)).filter((c) => c.type === "send").map((c) => c.messageId)).toEqual([reply.id]);
  }

  it("a key the speech service refuses (401 on the WebSocket upgrade): the text goes out and the ticket goes to people with a note", async () => {
    ai.speechKeys = ["azure-speech-key-77"];
    const p = await makePrompt({ ...VOICE, voiceKey: "chave-errada-0000" });
    await setQueuePrompt(w.queues[0], p.id);
    // The Lambda runtime has a WebSocket of its own (Node 22 and later), with which the SDK would never see the
    // refusal: the SDK must keep to its `ws` client, which reports it at once.
    const runtimeSockets: string[] = [];
    vi.stubGlobal(
      "WebSocket",
      class {
        constructor(url: string) {
          runtimeSockets.push(url);
          throw new Error("the runtime's own WebSocket was used");
        }
      },
    );
    try {
      await voiceFails("o serviço de voz recusou o pedido (401)");
    } finally {
      vi.unstubAllGlobals();
    }
    expect(runtimeSockets).toEqual([]);
    expect(ai.speech.map((s) => [s.key, s.messages.length])).toEqual([["chave-errada-0000", 0]]);
  });

  it("in the cloud the speech host of the configuration is ignored: the SDK goes to the prompt's region only", async () => {
    process.env.STAGE = "prod";
    resetConfig();
    try {
      // A region that is no host name: refused before any connection, and the configured host (the stand-in) unused.
      await expect(synthesize("olá", "pt-BR-FranciscaNeural", "azure-speech-key-77", "evil.example/x")).rejects.toThrow("invalid speech region");
      expect(ai.speech).toEqual([]);
    } finally {
      delete process.env.STAGE;
      resetConfig();
    }
    await expect(synthesize("olá", "pt-BR-FranciscaNeural", "azure-speech-key-77", "brazilsouth")).resolves.toEqual(STANDIN_VOICE);
    expect(ai.speech).toHaveLength(1);
  });

  it("a speech service that never answers: past the time limit the text goes out and the ticket goes to people with a note", async () => {
    ai.speechSilent = true;
    process.env.PROVIDER_TIMEOUT_MS = "500";
    resetConfig();
    try {
      const p = await makePrompt(VOICE);
      await setQueuePrompt(w.queues[0], p.id);
      const t0 = Date.now();
      await voiceFails("o serviço de voz não respondeu a tempo");
      expect(Date.now() - t0).toBeLessThan(10_000);
      // It did reach the service and ask: the SDK's messages arrived and were never answered.
      expect(ai.speech.at(-1)!.messages.map((m) => m.path)).toEqual(["speech.config", "synthesis.context", "ssml"]);
    } finally {
      delete process.env.PROVIDER_TIMEOUT_MS;
      resetConfig();
    }
  });
});

describe("runs again", () => {
  it("a repeated run of the same message (the minute tick after a crash) sends no second reply", async () => {
    const p = await makePrompt();
    await setQueuePrompt(w.queues[0], p.id);
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const msg = await customerSays(t, "tem estacionamento?");
    await answerCustomer(w.cid, t.id, msg.id);
    const replies = (await listMessages(w.cid, t.id, { limit: 10 })).messages.filter((m) => m.isAssistant);
    expect(replies).toHaveLength(1);
  });
});

describe("a provider that never answers", () => {
  it("waits 30 s by default; past the limit the ticket goes to people with a note and the customer's message stays", async () => {
    expect(getConfig().PROVIDER_TIMEOUT_MS).toBe(30_000);
    const hits: string[] = [];
    // Takes each request and never answers it: only the time limit ends the call.
    const silent = createServer((req) => void hits.push(req.url ?? ""));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    process.env.PROVIDER_TIMEOUT_MS = "300";
    resetConfig();
    try {
      const p = await makePrompt({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1` });
      await setQueuePrompt(w.queues[0], p.id);
      const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
      const t0 = Date.now();
      const msg = await customerSays(t, "alguém aí?");
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(hits[0]).toBe("/v1/chat/completions");
      expect(await getTicketItem(w.cid, t.id, true)).toMatchObject({ status: "pending", queueId: w.queues[1], chatbot: false, botSilentUntil: SILENT_FOR_GOOD });
      const notes = await listTicketNotes(w.cid, t.id);
      expect(notes.map((n) => n.note)).toEqual([expect.stringContaining("o provedor de IA não respondeu a tempo")]);
      expect((await listMessages(w.cid, t.id)).messages.some((m) => m.id === msg.id)).toBe(true);
    } finally {
      delete process.env.PROVIDER_TIMEOUT_MS;
      resetConfig();
      await setQueuePrompt(w.queues[0], null);
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });
});
