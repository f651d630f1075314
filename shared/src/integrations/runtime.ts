/**
 * Where a customer's message meets the ticket's integration (docs/product/integrations.md#routing): the
 * `integrations` step of the automation seam (order 15, before the chatbot) and the chatbot's hand-off when a queue
 * with an integration is entered ({@link runQueueIntegration}).
 *
 * - connection level: a ticket without a queue on a connection with `integrationId` goes to that integration, until
 *   it hands over (`useIntegration` false with that `integrationId`: not again in this ticket cycle);
 * - queue level: a ticket whose queue was entered with the queue's integration (`useIntegration`, `integrationId`);
 * - never groups, contacts with `disableBot`, call logs, tickets an agent holds (open or with a user), nor a company
 *   whose plan lacks `useIntegrations`. Own messages never reach the seam.
 *
 * Any failure of the provider hands the ticket to people with a note (`./handover.ts`); nothing stops silently.
 */
import { extname } from "node:path";
import { companyGate } from "../companies/service.ts";
import { getConfig } from "../config.ts";
import { log } from "../log.ts";
import { cachedConnection } from "../ingest/read-cache.ts";
import { sendAutomatic } from "../automation/automatic.ts";
import type { InboundContext, InboundStep } from "../automation/inbound.ts";
import { newOutboundId } from "../messages/service.ts";
import { getQueue } from "../queues/repository.ts";
import { getMedia, mediaKey, putMedia } from "../storage/media.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { registerTimerKind, scheduleTimer } from "../timers/index.ts";
import { getUser } from "../users/repository.ts";
import { sendSessionCommand } from "../whatsapp/commands.ts";
import { detectIntent, parseServiceAccount } from "./dialogflow.ts";
import { deliverToFlow, flowEvent } from "./flow.ts";
import { closeTicket, endBotSession, handOverTicket, integrationNote, stopBot, transferTicket, transitionTicket, TYPEBOT_EXPIRES } from "./handover.ts";
import { openJsonContent } from "./credentials.ts";
import { deleteBotSession, getBotSession, getIntegration, putBotSession } from "./repository.ts";
import { TYPEBOT_DELAY_MAX, type IntegrationItem } from "./schema.ts";
import { answerFor, commandOf, continueChat, renderReply, startChat, TypebotError, type BotOut, type ChatAnswer } from "./typebot.ts";

/** Largest media file a Typebot bubble may make us download (bytes). */
const MEDIA_MAX_BYTES = 16 * 2 ** 20;

/** True when no bot may answer this ticket now. */
function botOff(ctx: InboundContext, t: TicketItem): boolean {
  return t.isGroup || ctx.contact.disableBot || t.status !== "pending" || t.userId != null || ctx.message.mediaType === "call_log" || ctx.message.fromMe;
}

/** The integration the ticket's message goes to (see the module docstring), or null. */
async function integrationIdFor(ctx: InboundContext, t: TicketItem): Promise<number | null> {
  if (t.queueId != null) return t.useIntegration && t.integrationId != null ? t.integrationId : null;
  if (t.useIntegration && t.integrationId != null) return t.integrationId;
  const wa = await cachedConnection(ctx.companyId, ctx.whatsappId);
  if (wa?.integrationId == null) return null;
  // Handed over in this cycle: people (or the queue menu) answer from now on.
  if (t.integrationId === wa.integrationId && !t.useIntegration) return null;
  return wa.integrationId;
}

/**
 * The seam's step: runs the ticket's integration on the message. True when an integration took it (the chatbot and
 * the later steps do not answer it). Never throws for a provider's failure (hand-over with a note).
 */
export async function runIntegrationStep(ctx: InboundContext): Promise<boolean> {
  const t = ctx.ticket;
  if (botOff(ctx, t)) return false;
  const id = await integrationIdFor(ctx, t);
  if (id == null) return false;
  if (!(await companyGate(ctx.companyId))?.flags.useIntegrations) return false;
  const integration = await getIntegration(ctx.companyId, id);
  if (!integration) return false;
  const ticket = t.useIntegration && t.integrationId === id ? t : await transitionTicket(ctx.companyId, t.id, (cur) => (cur.userId == null && cur.status === "pending" ? { useIntegration: true, integrationId: id } : null));
  if (!ticket) return false;
  await runOn(ctx, ticket, integration);
  return true;
}

/**
 * The chatbot entered a queue whose `integrationId` is set: the ticket (already written with `useIntegration` and the
 * queue's `integrationId`) goes to that integration with this same message.
 */
export async function runQueueIntegration(ctx: InboundContext, ticket: TicketItem): Promise<void> {
  if (ticket.integrationId == null || !(await companyGate(ctx.companyId))?.flags.useIntegrations) return;
  const integration = await getIntegration(ctx.companyId, ticket.integrationId);
  if (!integration) return;
  await runOn(ctx, ticket, integration);
}

async function runOn(ctx: InboundContext, t: TicketItem, integration: IntegrationItem): Promise<void> {
  try {
    if (integration.type === "typebot") await runTypebot(ctx, t, integration);
    else if (integration.type === "dialogflow") await runDialogflow(ctx, t, integration);
    else await runFlow(ctx, t, integration);
  } catch (err) {
    log("warn", "integration failed: ticket handed to people", { companyId: ctx.companyId, ticketId: t.id, integrationId: integration.id, type: integration.type, err });
    await handOverTicket(ctx.companyId, t.id, integration, reasonOf(err));
  }
}

/** The note's reason: a provider past its time limit (`PROVIDER_TIMEOUT_MS`) in words, else the error's message. */
const reasonOf = (err: unknown) =>
  err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")
    ? `o provedor não respondeu em ${(getConfig().PROVIDER_TIMEOUT_MS / 1000).toLocaleString("pt-BR")} s`
    : err instanceof Error && err.message
      ? err.message
      : "erro inesperado";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- n8n and webhook ---------------------------------------------------------------------------------------------

async function runFlow(ctx: InboundContext, t: TicketItem, integration: IntegrationItem): Promise<void> {
  const wa = await cachedConnection(ctx.companyId, ctx.whatsappId);
  if (!wa) throw new Error("conexão não encontrada");
  await deliverToFlow(integration, await flowEvent(integration, { wa, contact: ctx.contact, ticket: t, message: ctx.message }, ctx.now), ctx.now);
}

// ---- Dialogflow ----------------------------------------------------------------------------------------------------

/** The Dialogflow session of a ticket: one per ticket. */
export const dialogflowSession = (companyId: number, ticketId: number) => `atende-${companyId}-${ticketId}`;

async function runDialogflow(ctx: InboundContext, t: TicketItem, integration: IntegrationItem): Promise<void> {
  const key = parseServiceAccount(await openJsonContent(integration));
  const m = ctx.message;
  const input = m.mediaType === "audio" && m.mediaKey ? { audio: await getMedia(m.mediaKey) } : m.body.trim() ? { text: m.body } : null;
  if (!input) return;
  const project = integration.projectName || key.project_id || "";
  const result = await detectIntent(key, project, dialogflowSession(ctx.companyId, t.id), integration.language || "pt-BR", input);
  for (const text of result.texts) await sendAutomatic(ctx.companyId, t, text);
  if (result.endConversation) {
    const now = await stopBot(ctx.companyId, t.id, integration);
    if (now) await integrationNote(ctx.companyId, now, `Integração "${integration.name}": o Dialogflow encerrou a conversa. O atendimento segue com a equipe.`);
  }
}

// ---- Typebot -------------------------------------------------------------------------------------------------------

const sameWord = (a: string, b: string) => !!b.trim() && a.trim().toLocaleLowerCase("pt-BR") === b.trim().toLocaleLowerCase("pt-BR");

async function runTypebot(ctx: InboundContext, t: TicketItem, it: IntegrationItem): Promise<void> {
  const cid = ctx.companyId;
  const body = ctx.message.body;
  if (sameWord(body, it.typebotKeywordRestart)) {
    await endBotSession(cid, t.id);
    if (it.typebotRestartMessage.trim()) await sendAutomatic(cid, t, it.typebotRestartMessage);
    return;
  }
  if (sameWord(body, it.typebotKeywordFinish)) {
    await closeTicket(cid, t.id, it);
    return;
  }
  let session = await getBotSession(cid, t.id);
  const expired = session && it.typebotExpires > 0 && Date.parse(session.lastAt) + it.typebotExpires * 60_000 <= ctx.now.getTime();
  if (session && (session.integrationId !== it.id || expired)) {
    await deleteBotSession(cid, t.id);
    session = undefined;
  }
  let sessionId: string;
  let answer: ChatAnswer;
  const start = async () => {
    const started = await startChat(it.urlN8N, it.typebotSlug, { number: ctx.contact.number, name: ctx.contact.name });
    sessionId = started.sessionId;
    return started;
  };
  if (!session) answer = await start();
  else {
    sessionId = session.sessionId;
    try {
      answer = await continueChat(it.urlN8N, session.sessionId, answerFor(body, session.choices));
    } catch (err) {
      // A session Typebot no longer knows: a new one.
      if (!(err instanceof TypebotError && err.status === 404)) throw err;
      answer = await start();
    }
  }
  const { outs, choices } = renderReply(answer);
  const lastAt = ctx.now.toISOString();
  await putBotSession({ companyId: cid, ticketId: t.id, integrationId: it.id, sessionId: sessionId!, lastAt, choices });
  if (it.typebotExpires > 0) await scheduleTimer(cid, TYPEBOT_EXPIRES, t.id, ctx.now.getTime() + it.typebotExpires * 60_000, { lastAt });
  if (!outs.length) {
    if (it.typebotUnknownMessage.trim()) await sendAutomatic(cid, t, it.typebotUnknownMessage);
    return;
  }
  await sendOuts(ctx, t, it, outs);
}

/** Shows the customer "typing…" (best-effort: a failed presence never stops the bot). */
async function showTyping(ctx: InboundContext): Promise<void> {
  await sendSessionCommand({ type: "presence", companyId: ctx.companyId, whatsappId: ctx.whatsappId, remoteJid: ctx.message.remoteJid, presence: "composing" }).catch((err) =>
    log("warn", "typing presence not sent", { companyId: ctx.companyId, err }),
  );
}

/** Sends the bot's messages in order, `typebotDelayMessage` apart; a command message acts and ends the turn. */
async function sendOuts(ctx: InboundContext, t: TicketItem, it: IntegrationItem, outs: BotOut[]): Promise<void> {
  const delay = Math.min(Math.max(it.typebotDelayMessage, 0), TYPEBOT_DELAY_MAX);
  let first = true;
  for (const out of outs) {
    const command = out.kind === "text" ? commandOf(out.body) : null;
    if (command) {
      await runCommand(ctx, t, it, command);
      return;
    }
    if (!first && delay) {
      // "typing…" while the bot pauses between two messages.
      await showTyping(ctx);
      await sleep(delay);
    }
    first = false;
    if (out.kind === "text") await sendAutomatic(ctx.companyId, t, out.body);
    else await sendMediaByUrl(ctx.companyId, t, out.url);
  }
}

async function runCommand(ctx: InboundContext, t: TicketItem, it: IntegrationItem, command: NonNullable<ReturnType<typeof commandOf>>): Promise<void> {
  const cid = ctx.companyId;
  if (command.kind === "stop") {
    await stopBot(cid, t.id, it);
    return;
  }
  const queue = await getQueue(cid, command.queueId);
  const user = command.userId != null ? await getUser(cid, command.userId) : null;
  if (!queue || (command.userId != null && !user)) {
    await handOverTicket(cid, t.id, it, `o bot pediu a transferência para ${!queue ? `a fila ${command.queueId}` : `o atendente ${command.userId}`}, que não existe`);
    return;
  }
  const moved = await transferTicket(cid, t.id, it, queue.id, user ? user.id : null);
  if (!moved) await handOverTicket(cid, t.id, it, "a transferência pedida pelo bot não pôde ser feita");
}

/**
 * Sends a media file the bot gave by URL (downloaded into the message's own object, within the providers' time limit
 * `PROVIDER_TIMEOUT_MS`); the link as text when it fails.
 */
async function sendMediaByUrl(companyId: number, t: TicketItem, url: string): Promise<void> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(getConfig().PROVIDER_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.byteLength > MEDIA_MAX_BYTES) throw new Error("arquivo grande demais");
    const mime = (res.headers.get("content-type") ?? "application/octet-stream").split(";")[0].trim();
    const name = decodeURIComponent(new URL(url).pathname.split("/").pop() || "arquivo");
    const messageId = await newOutboundId();
    const key = mediaKey(companyId, t.id, messageId, extname(name).slice(1) || undefined);
    await putMedia(key, bytes, mime);
    await sendAutomatic(companyId, t, "", { messageId, media: { key, mime, name, size: bytes.byteLength } });
  } catch (err) {
    log("warn", "bot media not downloaded: link sent as text", { companyId, ticketId: t.id, err });
    await sendAutomatic(companyId, t, url);
  }
}

/** The Typebot session expiry: `typebotExpires` minutes after the customer's last message, the session ends. */
registerTimerKind(TYPEBOT_EXPIRES, async (timer) => {
  const lastAt = typeof timer.data.lastAt === "string" ? timer.data.lastAt : undefined;
  if (lastAt) await deleteBotSession(timer.companyId, Number(timer.ref), lastAt);
  return undefined;
});

/** The step `automation/inbound.ts` registers (order 15: before the chatbot). */
export const integrationStep: InboundStep = { name: "integrations", order: 15, handle: runIntegrationStep };
