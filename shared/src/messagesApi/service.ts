/**
 * The public messages API (docs/product/messages-api.md): a connection's token sends a message to a number, as an
 * agent's message in the contact's ticket on that connection.
 *
 * - {@link authenticateApiToken}: the bearer is a connection's token (found by its hash); the company must be active,
 *   within its due date and have `useExternalApi`; every request counts against the token's rate window.
 * - {@link sendThroughApi}: the number is checked with WhatsApp through the session runner before anything is stored;
 *   the contact and the ticket are found or created; each message is stored and sent like an agent's (unsigned).
 *   An `Idempotency-Key` makes a retry answer the first answer without sending again.
 * - {@link apiMessageStatus}: the delivery status of a message the same connection sent.
 */
import { createHash, randomUUID } from "node:crypto";
import { isExpired } from "../auth/service.ts";
import { companyGate } from "../companies/service.ts";
import { getConfig } from "../config.ts";
import { digitsOf } from "../contacts/normalize.ts";
import { findOrCreateContactByIdentity } from "../contacts/service.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import "../tickets/events.ts";
import { checkAttachment } from "../media/attachments.ts";
import { getMessageById } from "../messages/repository.ts";
import { TICKET_UPLOADS, type MessageItem, type MessageView } from "../messages/schema.ts";
import { newOutboundId, sendOutbound, type OutboundInput } from "../messages/service.ts";
import type { PlanFlag } from "../plans/schema.ts";
import { mediaKey, putMedia } from "../storage/media.ts";
import { getTicketItem } from "../tickets/repository.ts";
import { findOrCreateTicket } from "../tickets/service.ts";
import { sendSessionCommand } from "../whatsapp/commands.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import type { WhatsappItem } from "../whatsapp/schema.ts";
import { connectionTokenHash } from "../whatsapp/token.ts";
import { findWhatsappByToken } from "../whatsapp/service.ts";
import "./errors.ts";
import { bumpRate, commandResult, getIdempotency, putIdempotency, saveIdempotentAnswer } from "./repository.ts";
import type { ApiMessage, ApiMessageStatus, ApiSendAnswer } from "./schema.ts";

/** Who calls the API: the connection whose token was presented. */
export interface ApiCaller {
  companyId: number;
  whatsappId: number;
  tokenHash: string;
}

/**
 * Authenticates a public API request by its bearer (a connection token), then counts it in the token's rate window.
 * Errors: 401 `ERR_SESSION_EXPIRED` (no or unknown token), 401 `ERR_COMPANY_INACTIVE` / `ERR_SUBSCRIPTION_EXPIRED`,
 * 403 `ERR_PLAN_FEATURE_DISABLED` (plan without `plan`), 429 `ERR_API_RATE_LIMITED` `{retryAfterSeconds}`.
 */
export async function authenticateApiToken(bearer: string | undefined, plan: PlanFlag | undefined, now = Date.now()): Promise<ApiCaller> {
  const token = bearer?.trim() ?? "";
  if (!token || token.length > 200) throw new AppError("ERR_SESSION_EXPIRED");
  const wa = await findWhatsappByToken(token);
  if (!wa) throw new AppError("ERR_SESSION_EXPIRED");
  const gate = await companyGate(wa.companyId);
  if (!gate) throw new AppError("ERR_SESSION_EXPIRED");
  if (!gate.status) throw new AppError("ERR_COMPANY_INACTIVE");
  if (isExpired(gate.dueDate)) throw new AppError("ERR_SUBSCRIPTION_EXPIRED", { dueDate: gate.dueDate });
  if (plan && !gate.flags[plan]) throw new AppError("ERR_PLAN_FEATURE_DISABLED");
  const caller = { companyId: wa.companyId, whatsappId: wa.id, tokenHash: connectionTokenHash(token) };
  await countRequest(caller, now);
  return caller;
}

/** Counts one request in the token's fixed window; past the limit 429 `ERR_API_RATE_LIMITED` with the seconds left. */
async function countRequest(caller: ApiCaller, now: number): Promise<void> {
  const { MESSAGES_API_RATE_LIMIT: limit, MESSAGES_API_RATE_WINDOW_SECONDS: window } = getConfig();
  const nowS = Math.floor(now / 1000);
  const start = nowS - (nowS % window);
  const count = await bumpRate(caller.tokenHash, start, window);
  if (count > limit) throw new AppError("ERR_API_RATE_LIMITED", { retryAfterSeconds: Math.max(1, start + window - nowS) });
}

/** How long the API waits for the session runner's answer about a number (ms). */
export const NUMBER_CHECK_TIMEOUT_MS = 10_000;
const CHECK_POLL_MS = 100;

/**
 * Asks WhatsApp, through the connection's session, whether `number` (digits) has an account. Returns its JID.
 * Errors: 400 `ERR_WAPP_NOT_INITIALIZED` (session not connected), 400 `ERR_WAPP_INVALID_CONTACT` (no account),
 * 400 `ERR_WAPP_CHECK_CONTACT` (no answer within {@link NUMBER_CHECK_TIMEOUT_MS}).
 */
export async function checkWhatsappNumber(wa: WhatsappItem, number: string): Promise<string> {
  if (wa.status !== "CONNECTED") throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  const commandId = randomUUID();
  await sendSessionCommand({ type: "checkNumber", companyId: wa.companyId, whatsappId: wa.id, number }, commandId);
  const until = Date.now() + NUMBER_CHECK_TIMEOUT_MS;
  while (Date.now() < until) {
    const result = await commandResult(commandId);
    if (result) {
      if (result.error === "ERR_WAPP_NOT_INITIALIZED") throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      if (result.exists !== true || typeof result.jid !== "string") throw new AppError("ERR_WAPP_INVALID_CONTACT");
      return result.jid;
    }
    await new Promise((r) => setTimeout(r, CHECK_POLL_MS));
  }
  throw new AppError("ERR_WAPP_CHECK_CONTACT");
}

/** The status an `ack` means, as the conversation's ticks show it (docs/product/messages.md). */
export function statusOfAck(ack: number): ApiMessageStatus {
  return ack < 0 ? "failed" : (["queued", "sent", "sent", "delivered", "read", "played"] as const)[Math.min(ack, 5)];
}

const apiMessage = (m: Pick<MessageItem | MessageView, "id" | "ack" | "mediaType" | "sendError">): ApiMessage => ({
  id: m.id,
  ack: m.ack,
  status: statusOfAck(m.ack),
  mediaType: m.mediaType,
  sendError: m.sendError ?? null,
});

/** A file of a multipart send. */
export interface ApiFile {
  filename: string;
  mimetype: string;
  content: Buffer;
}

/** What a send asks for: the number, the text (or captions, one per file, in order), the files and the idempotency key. */
export interface ApiSendInput {
  number: string;
  body: string;
  files: ApiFile[];
  captions: string[];
  idempotencyKey?: string;
}

/** Age after which an idempotent send that never recorded its answer is taken as dead and resumed (ms). */
export const IDEMPOTENCY_RESUME_MS = 30_000;
/** How long a first answer is kept for retries (s). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

const validation = (path: string, message: string) => new AppError("ERR_VALIDATION", { fields: [{ path, message }] });

function fingerprintOf(input: ApiSendInput): string {
  const h = createHash("sha256").update(`${input.number}\n${input.body}\n${input.captions.join("\n")}`);
  for (const f of input.files) h.update(`\n${f.filename}|${f.mimetype}|`).update(f.content);
  return h.digest("base64url");
}

/**
 * `POST /api/messages/send`. Nothing is stored before the number is known to be on WhatsApp. Errors: 400
 * `ERR_WAPP_INVALID_CONTACT` (not digits 10-15, or no WhatsApp account), 400 `ERR_VALIDATION` (no body and no file,
 * a file WhatsApp does not take, a malformed `Idempotency-Key`), the number check's errors, 409
 * `ERR_IDEMPOTENCY_KEY_REUSED` / `ERR_IDEMPOTENCY_IN_PROGRESS`, 400 `ERR_SENDING_WAPP_MSG` (stored as failed).
 */
export async function sendThroughApi(caller: ApiCaller, input: ApiSendInput, now = Date.now()): Promise<ApiSendAnswer> {
  const number = input.number.trim();
  if (!/^\d{10,15}$/.test(number) || digitsOf(number) !== number) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  if (!input.files.length && !input.body.trim()) throw validation("body", "Required");
  for (const f of input.files) checkAttachment(TICKET_UPLOADS, { contentType: f.mimetype, size: f.content.length });
  const key = input.idempotencyKey;
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) throw validation("Idempotency-Key", "1 to 200 visible ASCII characters");

  const wa = await getWhatsappItem(caller.companyId, caller.whatsappId);
  if (!wa) throw new AppError("ERR_SESSION_EXPIRED");
  const fingerprint = fingerprintOf({ ...input, number });
  if (key) {
    const first = await getIdempotency(caller.companyId, caller.whatsappId, key);
    if (first) return answerOfFirst(caller, wa, first, fingerprint, input, now);
  }
  const jid = await checkWhatsappNumber(wa, number);
  const count = Math.max(1, input.files.length);
  const messageIds: string[] = [];
  for (let i = 0; i < count; i++) messageIds.push(await newOutboundId(wa));
  if (key) {
    const item = { companyId: caller.companyId, whatsappId: caller.whatsappId, key, fingerprint, messageIds, expiresAt: Math.floor(now / 1000) + IDEMPOTENCY_TTL_SECONDS };
    if (!(await putIdempotency(item))) {
      const first = await getIdempotency(caller.companyId, caller.whatsappId, key);
      if (!first) throw new AppError("ERR_CONFLICT");
      return answerOfFirst(caller, wa, first, fingerprint, input, now);
    }
  }
  const answer = await deliver(wa, { ...input, number }, jid, messageIds);
  if (key) await saveIdempotentAnswer(caller.companyId, caller.whatsappId, key, answer);
  return answer;
}

/** A retry with a known key: the first answer; a first send that died unanswered is resumed with its reserved ids. */
async function answerOfFirst(
  caller: ApiCaller,
  wa: WhatsappItem,
  first: { fingerprint: string; answer?: ApiSendAnswer; messageIds: string[]; expiresAt: number; key: string },
  fingerprint: string,
  input: ApiSendInput,
  now: number,
): Promise<ApiSendAnswer> {
  if (first.fingerprint !== fingerprint) throw new AppError("ERR_IDEMPOTENCY_KEY_REUSED");
  if (first.answer) return first.answer;
  const startedAt = (first.expiresAt - IDEMPOTENCY_TTL_SECONDS) * 1000;
  if (now - startedAt < IDEMPOTENCY_RESUME_MS) throw new AppError("ERR_IDEMPOTENCY_IN_PROGRESS");
  const number = input.number.trim();
  const jid = await checkWhatsappNumber(wa, number);
  const answer = await deliver(wa, { ...input, number }, jid, first.messageIds);
  await saveIdempotentAnswer(caller.companyId, caller.whatsappId, first.key, answer);
  return answer;
}

/**
 * Finds or creates the contact and its ticket on the connection, then stores and sends each message with its
 * reserved id (a message already stored under that id is not sent again).
 */
async function deliver(wa: WhatsappItem, input: ApiSendInput, jid: string, messageIds: string[]): Promise<ApiSendAnswer> {
  const cid = wa.companyId;
  const contact = await findOrCreateContactByIdentity(cid, { jids: [jid], number: input.number, name: input.number, isGroup: false });
  const found = await findOrCreateTicket(cid, { contactId: contact.id, whatsappId: wa.id, isGroup: false });
  if (found.created) await dispatch({ type: "ticket.created", companyId: cid, ticket: found.ticket });
  const sender = { userId: null, name: "" };
  const sends: OutboundInput[] = [];
  if (!input.files.length) sends.push({ body: input.body, messageId: messageIds[0], signMessage: false });
  for (const [i, f] of input.files.entries()) {
    const id = messageIds[i];
    const ext = f.filename.includes(".") ? f.filename.split(".").pop() : undefined;
    const key = mediaKey(cid, found.ticket.id, id, ext);
    await putMedia(key, f.content, f.mimetype);
    const caption = (input.captions[i] ?? input.captions[0] ?? input.body ?? "").trim();
    sends.push({ body: caption || f.filename, signMessage: false, messageId: id, media: { key, mime: f.mimetype, name: f.filename, size: f.content.length } });
  }
  const messages: ApiMessage[] = [];
  let failed: AppError | null = null;
  for (const s of sends) {
    const ticket = (await getTicketItem(cid, found.ticket.id, true)) ?? found.ticket;
    try {
      messages.push(apiMessage(await sendOutbound(cid, sender, ticket, s)));
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== "ERR_SENDING_WAPP_MSG") throw err;
      failed = err;
      const stored = await getMessageById(cid, s.messageId!);
      if (stored) messages.push(apiMessage(stored));
    }
  }
  if (failed && !messages.length) throw failed;
  const head = messages[0];
  return { message: "Mensagem enviada", id: head.id, status: head.status, ack: head.ack, ticketId: found.ticket.id, contactId: contact.id, messages };
}

/** `GET /api/messages/send/{id}`: a message this connection sent, with its delivery status; else 404 `ERR_NO_MESSAGE_FOUND`. */
export async function apiMessageStatus(caller: ApiCaller, id: string): Promise<ApiMessage> {
  const m = await getMessageById(caller.companyId, id);
  if (!m?.fromMe || m.whatsappId !== caller.whatsappId) throw new AppError("ERR_NO_MESSAGE_FOUND");
  return apiMessage(m);
}
