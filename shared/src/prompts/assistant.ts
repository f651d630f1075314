/**
 * The AI assistant (docs/product/prompts.md#the-assistant): a durable, deferred listener of `assistant.requested`
 * (dispatched by the inbound step of `./routing.ts`). For the customer's message it:
 *
 * 1. re-reads the ticket and stops when no prompt answers it any more (an agent took it, the prompt went away);
 * 2. reads the LATEST `maxMessages` messages of the ticket, oldest first: the customer's as user turns, ours as
 *    assistant turns; a voice note of the customer is transcribed first (audio transcriptions API);
 * 3. asks the model (`./provider.ts`) with the prompt as system text, `temperature` and `maxTokens`, and adds the
 *    tokens used to the company's day (`keys.aiUsage`, the company's zone);
 * 4. a reply beginning with {@link TRANSFER_PHRASE} hands the ticket to the prompt's queue (pending, bot off for this
 *    cycle) and tells the customer (the rest of the reply, else {@link TRANSFER_NOTICE}); any other reply goes out as
 *    an outgoing message marked `isAssistant`, as a voice note when the prompt's `voice` is not `texto` (spoken
 *    through the speech SDK); when the speech fails the text goes out and the ticket is handed to people as in 5;
 * 5. a provider error, a timeout, exhausted credit or an empty reply hands the ticket to people the same way, with a
 *    note for the agents saying why: never a silent stop.
 *
 * Each reply's message id is derived from the customer's message, so a run repeated by the minute tick after a crash
 * finds its reply already stored and sends nothing twice.
 */
import { createHash } from "node:crypto";
import { SILENT_FOR_GOOD } from "../automation/chatbot.ts";
import { laterIso, nowIso } from "../common.ts";
import { getCompany } from "../companies/repository.ts";
import { getContactItem } from "../contacts/repository.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import type { Listener } from "../events/registry.ts";
import { localDayHour } from "../events/outbox.ts";
import { log } from "../log.ts";
import type { MessageItem } from "../messages/schema.ts";
import { getMessage, listMessages } from "../messages/repository.ts";
import { sendOutbound, type OutboundInput } from "../messages/service.ts";
import { putNote } from "../notes/repository.ts";
import { NoteItem } from "../notes/schema.ts";
import { getQueue } from "../queues/repository.ts";
import { APIConnectionTimeoutError } from "openai";
import { openSetting } from "../settings/sealed.ts";
import { getMedia, mediaKey, putMedia } from "../storage/media.ts";
import "../tickets/events.ts";
import { getTicketItem, writeTicketTransition } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import "./events.ts";
import { aiClient, complete, synthesize, transcribe, type ChatTurn } from "./provider.ts";
import { addAiUsage } from "./repository.ts";
import { promptForTicket } from "./routing.ts";
import type { PromptItem } from "./schema.ts";
import { apiKeyContext, voiceKeyContext } from "./service.ts";

/** A reply beginning with this asks for a person: the ticket goes to the prompt's queue. */
export const TRANSFER_PHRASE = "Ação: Transferir para o setor de atendimento";
/** What the customer is told on a transfer when the reply says nothing more. */
export const TRANSFER_NOTICE = "Vou transferir você para um de nossos atendentes. Aguarde um momento, por favor.";
/** The author of the assistant's notes for the agents. */
export const ASSISTANT_NAME = "Assistente IA";
const SYSTEM = { userId: null, name: "" } as const;

/** The system text: how to treat the customer and when to ask for a person, then the prompt's own instructions. */
export function systemText(prompt: Pick<PromptItem, "prompt" | "maxTokens">, customerName: string): string {
  const first = customerName.trim().split(/\s+/)[0] ?? "";
  return [
    first ? `O nome do cliente é ${first}: use-o ao falar com ele.` : "",
    `Responda com no máximo ${prompt.maxTokens} tokens, sem cortar o final.`,
    `Quando o cliente pedir um atendente humano, ou quando você não puder ajudar, comece a resposta com "${TRANSFER_PHRASE}".`,
    "",
    prompt.prompt,
  ]
    .filter((l, i) => l || i === 3)
    .join("\n");
}

/** The id of our reply `kind` to message `messageId` (stable, shaped like WhatsApp Web's ids). */
export const replyIdOf = (messageId: string, kind: string) => `3EB0${createHash("sha256").update(`assistant|${kind}|${messageId}`).digest("hex").slice(0, 18).toUpperCase()}`;

/** What a message says to the model ("" = nothing: left out of the conversation). */
const textOf = (m: MessageItem) => (m.mediaType === "call_log" ? "" : m.body.trim());

/** The note the agents read when the assistant gave up. */
export function failureNote(err: unknown): string {
  const e = err as { status?: number; code?: string; name?: string };
  const why =
    e?.code === "insufficient_quota"
      ? "o crédito do provedor de IA acabou"
      : err instanceof APIConnectionTimeoutError || e?.name === "TimeoutError" // the package's timeout error is named "Error"
        ? "o provedor de IA não respondeu a tempo"
        : e?.status
          ? `o provedor de IA recusou o pedido (${e.status}${e.code ? ` ${e.code}` : ""})`
          : err instanceof Error && err.message === "empty reply"
            ? "o provedor de IA respondeu vazio"
            : "o provedor de IA falhou";
  return `O assistente não pôde responder: ${why}. O atendimento passou para a equipe.`;
}

/** The note the agents read when the voice reply failed (the reply went out as text). */
export function voiceFailureNote(err: unknown): string {
  const e = err as { status?: number; name?: string };
  const why =
    e?.name === "TimeoutError"
      ? "o serviço de voz não respondeu a tempo"
      : e?.status
        ? `o serviço de voz recusou o pedido (${e.status})`
        : "o serviço de voz falhou";
  return `O assistente não pôde responder por voz: ${why}. A resposta foi enviada em texto e o atendimento passou para a equipe.`;
}

/** Sends `body` (and optional media) as the assistant's message `messageId`; a failed send stays visible at ack -1. */
async function sendAsAssistant(companyId: number, ticket: TicketItem, body: string, messageId: string, media?: OutboundInput["media"]): Promise<void> {
  if (await getMessage(companyId, ticket.id, messageId)) return;
  try {
    await sendOutbound(companyId, SYSTEM, ticket, { body, media, messageId, automatic: true, assistant: true, signMessage: false });
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_SENDING_WAPP_MSG") return log("warn", "assistant reply not sent (kept as failed)", { companyId, ticketId: ticket.id });
    throw err;
  }
}

/**
 * Hands the ticket to people: into the prompt's queue (when it still exists), pending, the bot off for this cycle;
 * `ticket.updated` tells that queue's agents. Then the note for the agents and what the customer is told, if any.
 * An agent who took the ticket meanwhile wins (nothing moves).
 */
export async function handOver(companyId: number, ticket: TicketItem, prompt: PromptItem, opts: { note?: string; tell?: string; replyTo: string }): Promise<void> {
  const queueId = (await getQueue(companyId, prompt.queueId)) ? prompt.queueId : ticket.queueId;
  let t: TicketItem | null = ticket;
  let next: TicketItem | null = null;
  for (let attempt = 0; attempt < 4 && t && !next; attempt++) {
    if (t.status !== "pending" || t.userId != null) return;
    try {
      next = await writeTicketTransition(t, { queueId, chatbot: false, botSilentUntil: SILENT_FOR_GOOD, updatedAt: laterIso(t.updatedAt) });
      await dispatch({ type: "ticket.updated", companyId, ticket: next, previous: t });
    } catch (err) {
      if (!(err instanceof AppError && err.code === "ERR_CONFLICT")) throw err;
      t = await getTicketItem(companyId, t.id, true);
    }
  }
  if (!next) return;
  if (opts.note) {
    await putNote(
      NoteItem.parse({
        id: await nextId(companyId, "note"),
        companyId,
        ticketId: next.id,
        contactId: next.contactId,
        note: opts.note,
        userId: 0,
        user: { name: ASSISTANT_NAME },
        createdAt: nowIso(),
      }),
    );
  }
  if (opts.tell) await sendAsAssistant(companyId, next, opts.tell, replyIdOf(opts.replyTo, "transfer"));
}

/**
 * Answers the customer's message `messageId` of ticket `ticketId` (see the module docstring). Throws only on our own
 * infrastructure's errors (the durable run is retried); every provider failure ends in a handover.
 */
export async function answerCustomer(companyId: number, ticketId: number, messageId: string): Promise<void> {
  const ticket = await getTicketItem(companyId, ticketId, true);
  if (!ticket) return;
  const prompt = await promptForTicket(companyId, ticket);
  if (!prompt) return;
  const textId = replyIdOf(messageId, "text");
  const voiceId = replyIdOf(messageId, "voice");
  if ((await getMessage(companyId, ticketId, textId)) || (await getMessage(companyId, ticketId, voiceId))) return;
  const [page, contact, company] = await Promise.all([
    listMessages(companyId, ticketId, { limit: prompt.maxMessages }),
    getContactItem(companyId, ticket.contactId),
    getCompany(companyId),
  ]);
  const history = page.messages.reverse();

  let reply: string;
  try {
    const client = aiClient(await openSetting(prompt.apiKeySealed, apiKeyContext(companyId)), prompt.baseUrl);
    const turns: ChatTurn[] = [];
    for (const m of history) {
      let content = textOf(m);
      if (m.id === messageId && !m.fromMe && m.mediaType === "audio" && m.mediaKey) {
        content = await transcribe(client, await getMedia(m.mediaKey), m.mediaName ?? "audio.ogg", m.mediaMime ?? "audio/ogg");
      }
      if (content) turns.push({ role: m.fromMe ? "assistant" : "user", content });
    }
    const answer = await complete(client, {
      model: prompt.model,
      messages: [{ role: "system", content: systemText(prompt, contact?.name ?? "") }, ...turns],
      temperature: prompt.temperature,
      maxTokens: prompt.maxTokens,
    });
    await addAiUsage(companyId, localDayHour(nowIso(), company?.timezone || "America/Sao_Paulo").day, answer.usage).catch((err: unknown) =>
      log("warn", "assistant: token use not counted", { companyId, err }),
    );
    reply = answer.text;
    if (!reply) throw new Error("empty reply");
  } catch (err) {
    log("warn", "assistant: provider failed; the ticket goes to people", { companyId, ticketId, promptId: prompt.id, err });
    await handOver(companyId, ticket, prompt, { note: failureNote(err), replyTo: messageId });
    return;
  }

  if (reply.startsWith(TRANSFER_PHRASE)) {
    const rest = reply.slice(TRANSFER_PHRASE.length).replace(/^[\s.:,;-]+/, "").trim();
    await handOver(companyId, ticket, prompt, { tell: rest || TRANSFER_NOTICE, replyTo: messageId });
    return;
  }
  if (prompt.voice !== "texto") {
    const voiceKey = await openSetting(prompt.voiceKeySealed, voiceKeyContext(companyId));
    let audio: Buffer;
    try {
      audio = await synthesize(reply, prompt.voice, voiceKey, prompt.voiceRegion);
    } catch (err) {
      log("warn", "assistant: voice reply failed; sent as text, the ticket goes to people", { companyId, ticketId, promptId: prompt.id, err });
      await sendAsAssistant(companyId, ticket, reply, textId);
      await handOver(companyId, ticket, prompt, { note: voiceFailureNote(err), replyTo: messageId });
      return;
    }
    const key = mediaKey(companyId, ticketId, voiceId, "ogg");
    await putMedia(key, audio, "audio/ogg; codecs=opus");
    await sendAsAssistant(companyId, ticket, reply, voiceId, { key, mime: "audio/ogg; codecs=opus", name: "resposta.ogg", size: audio.length, mediaType: "audio" });
    return;
  }
  await sendAsAssistant(companyId, ticket, reply, textId);
}

/** The durable listener wired in `events/wiring.ts`: deferred, so the ingest never waits for the model. */
export const assistantListener: Listener = {
  name: "assistant",
  durable: true,
  deferred: true,
  wants: (e) => e.type === "assistant.requested",
  handle: async (e) => {
    if (e.type !== "assistant.requested") return;
    await answerCustomer(e.companyId, e.ticketId, e.messageId);
  },
};
