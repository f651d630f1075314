/**
 * The campaign engine (docs/product/campaigns.md#sending), in two steps like scheduled messages, on the same
 * dispatch queue:
 *
 * 1. {@link runCampaignPlanner}, the campaign's timer (`campaign` kind, fired by the minute tick): starts a PROGRAMADA
 *    campaign at `scheduledAt` (its audience written as one shipping per number), pauses while its connection is not
 *    connected, pauses it for good (CANCELADA with the reason) past the failure or block thresholds, and plans the
 *    next {@link PLAN_AHEAD_MS}: each pending shipping takes the connection's next slot (`./pacing.ts`, the pacer
 *    item versioned so two planners never share a slot), is marked queued with its time and run, and goes on the
 *    dispatch queue with that delay. It runs again a minute later while the campaign runs.
 * 2. {@link sendShipping}, the dispatch queue's consumer for `{kind: "campaign"}`: sends only a shipping still queued
 *    by that run of a campaign still EM_ANDAMENTO on a connected connection (else it goes back to pending: nothing
 *    lost, nothing sent); reserves the WhatsApp ids of the step on the shipping (conditional) and sends each part
 *    with its reserved id, so a redelivered or re-driven message finds its messages stored and sends nothing again;
 *    then marks it awaiting (confirmation sent) or delivered, with the contact's reply wait in the same transaction,
 *    counts it once, and ends the campaign (FINALIZADA,
 *    `completedAt`) when every shipping is delivered or failed.
 *
 * Replies ({@link campaignRepliesListener}, durable): the wait is marked on the contact (per connection) and on the
 * open ticket the message went on, both read by the ingest with no extra call; the ingest stores the answering
 * message with the listener's pending run in one transaction (`campaign.replied`), so a process dying right after
 * loses nothing: the minute tick applies it, once (the shipping's `repliedBy` / `closedBy`). A confirmation reply
 * queues the real message (within seconds); a reply after a campaign that closes replies closes its ticket at once.
 * A campaign message that fails later (ack -1) counts as failed ({@link campaignFailuresListener}).
 */
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import type { Listener } from "../events/registry.ts";
import "../tickets/events.ts";
import { log } from "../log.ts";
import { copyIntoMessage, storedMediaOf, type StoredMedia } from "../media/attachments.ts";
import { getFileList } from "../fileLists/repository.ts";
import { getMessageById } from "../messages/repository.ts";
import { newOutboundId, sendOutbound } from "../messages/service.ts";
import type {} from "../messages/events.ts";
import { getConfig } from "../config.ts";
import { getCompany } from "../companies/repository.ts";
import { findOrCreateContactByIdentity } from "../contacts/service.ts";
import { clearContactReplyWait, contactReplyWaitAction } from "../contacts/repository.ts";
import type { ContactItem, ReplyWait } from "../contacts/schema.ts";
import { nextId } from "../db/counters.ts";
import { enqueue } from "../sqs/enqueue.ts";
import { getTicketItem, setTicketReplyWait, writeTicketTransition } from "../tickets/repository.ts";
import { findOrCreateTicket } from "../tickets/service.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { registerTimerKind, type TimerResult } from "../timers/index.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { audienceOf } from "./audience.ts";
import "./errors.ts";
import type { CampaignReplied } from "./events.ts";
import "./events.ts";
import { CAMPAIGN_TIMER } from "./kinds.ts";
import { nextSlot, type PacingRules } from "./pacing.ts";
import {
  addCampaignCounts,
  campaignMessageRef,
  getCampaign,
  getCampaignSettings,
  getPacer,
  getShipping,
  memberSeq,
  noteCampaignMessages,
  patchCampaign,
  patchShipping,
  patchShippingWith,
  putShippingOnce,
  savePacer,
  shippingPages,
} from "./repository.ts";
import { CONFIRMATION_FIELDS, MESSAGE_FIELDS, type CampaignDispatchMessage, type CampaignItem, type ShippingItem } from "./schema.ts";
import { emitCampaign } from "./service.ts";

/** How far ahead the planner takes slots (the tick runs every minute; SQS delays reach 15 minutes). */
export const PLAN_AHEAD_MS = 120_000;
/** Sends planned per campaign per run at most (a zero interval would otherwise plan the whole audience). */
export const MAX_PLAN_PER_RUN = 600;
/** A queued shipping not sent this long after its time is planned again (its message was lost). */
export const STALE_QUEUED_MS = 5 * 60_000;
/** The automatic pause: at least this many sends ended, and this share of them failed. */
export const FAILURE_MIN_SAMPLE = 20;
export const FAILURE_RATE = 0.1;
/** The automatic pause: this many contacts blocked the number. */
export const BLOCKS_LIMIT = 10;
/** A confirmed shipping's real message goes out within this many ms of the reply. */
const REPLY_JITTER_MS = 9000;

type Rand = () => number;

/** The campaign's variants that say something (trimmed non-empty). */
const variants = (c: CampaignItem, fields: readonly (keyof CampaignItem)[]) => fields.map((f) => c[f]).filter((v): v is string => typeof v === "string" && !!v.trim());

/** Whether the campaign asks for a confirmation first (confirmation on and some confirmation variant). */
const wantsConfirmation = (c: CampaignItem) => c.confirmation && variants(c, CONFIRMATION_FIELDS).length > 0;

/** The built-in placeholders of a campaign text (the settings' variables add others). */
const BUILT_IN_KEYS = new Set(["nome", "email", "numero"]);

/** Whether `text` names a `{key}` other than the built-in ones (only then are the settings' variables needed). */
const namesSettingsVariable = (text: string) => [...text.matchAll(/\{([^{}\s]+)\}/g)].some((m) => !BUILT_IN_KEYS.has(m[1] ?? ""));

/** `{nome}`, `{email}`, `{numero}` and the settings' `{key}` variables applied to `text`. */
export function renderCampaignText(text: string, s: Pick<ShippingItem, "name" | "email" | "number">, vars: { key: string; value: string }[]): string {
  const values = new Map<string, string>([["nome", s.name], ["email", s.email], ["numero", s.number], ...vars.map((v) => [v.key, v.value] as [string, string])]);
  return text.replace(/\{([^{}\s]+)\}/g, (all, key: string) => values.get(key) ?? all);
}

// ---------------------------------------------------------------------------------------------
// 1. Planner

/** Writes one shipping per valid number of the audience (each number once), then the count and `audienceReady`. */
async function writeAudience(c: CampaignItem): Promise<CampaignItem | null> {
  const now = new Date().toISOString();
  for await (const page of audienceOf(c)) {
    for (const m of page) {
      const number = m.number.replace(/\D/g, "");
      if (number.length < 8 || (await memberSeq(c.companyId, c.id, number)) != null) continue;
      const seq = await nextId(c.companyId, `campaignShipping-${c.id}`);
      await putShippingOnce({
        companyId: c.companyId,
        campaignId: c.id,
        seq,
        number,
        name: m.name,
        email: m.email,
        contactId: null,
        status: "pending",
        dueAt: null,
        run: c.runs,
        step: null,
        messageIds: null,
        message: null,
        confirmationMessage: null,
        confirmationRequestedAt: null,
        confirmedAt: null,
        deliveredAt: null,
        repliedBy: null,
        closedBy: null,
        error: null,
        updatedAt: now,
      });
    }
  }
  let valid = 0;
  for await (const page of shippingPages(c.companyId, c.id, 1, 1000)) valid += page.length;
  return patchCampaign(c, { audienceReady: true, valid, updatedAt: new Date().toISOString() }, { anyUpdatedAt: true });
}

/** Ends the campaign when every shipping is delivered or failed (FINALIZADA, `completedAt`). Returns it after. */
async function finishIfDone(c: CampaignItem): Promise<CampaignItem> {
  if (c.status !== "EM_ANDAMENTO" || !c.audienceReady || c.delivered + c.failed < c.valid) return c;
  const at = new Date().toISOString();
  const done = await patchCampaign(c, { status: "FINALIZADA", completedAt: at, updatedAt: at }, { anyUpdatedAt: true, status: ["EM_ANDAMENTO"] });
  if (!done) return (await getCampaign(c.companyId, c.id)) ?? c;
  await emitCampaign(done);
  return done;
}

/** Sets or clears the pause reason (emitting the change); returns the campaign after. */
async function setPause(c: CampaignItem, reason: CampaignItem["pauseReason"], extra: Partial<CampaignItem> = {}): Promise<CampaignItem> {
  if (c.pauseReason === reason && !Object.keys(extra).length) return c;
  const at = new Date().toISOString();
  const after = await patchCampaign(c, { pauseReason: reason, pausedAt: reason ? at : null, updatedAt: at, ...extra }, { anyUpdatedAt: true, status: ["EM_ANDAMENTO"] });
  if (after) await emitCampaign(after);
  return after ?? c;
}

/** The automatic pause's reason for the campaign's counts, or null while it is healthy. */
export function unhealthyReason(c: Pick<CampaignItem, "delivered" | "failed" | "blocked">): "ERR_CAMPAIGN_BLOCKS" | "ERR_CAMPAIGN_FAILURE_RATE" | null {
  const ended = c.delivered + c.failed;
  if (c.blocked >= BLOCKS_LIMIT) return "ERR_CAMPAIGN_BLOCKS";
  return ended >= FAILURE_MIN_SAMPLE && c.failed / ended >= FAILURE_RATE ? "ERR_CAMPAIGN_FAILURE_RATE" : null;
}

/**
 * The automatic pause: past a threshold the campaign stops (CANCELADA with the reason, shown to the admin) until an
 * admin restarts it. Returns the paused campaign, or null while it is healthy.
 */
async function pauseIfUnhealthy(c: CampaignItem): Promise<CampaignItem | null> {
  const reason = unhealthyReason(c);
  if (!reason) return null;
  const at = new Date().toISOString();
  const paused = await patchCampaign(c, { status: "CANCELADA", pauseReason: reason, pausedAt: at, updatedAt: at }, { anyUpdatedAt: true, status: ["EM_ANDAMENTO"] });
  if (paused) {
    await emitCampaign(paused);
    log("warn", "campaign paused automatically", { companyId: c.companyId, campaignId: c.id, reason, delivered: c.delivered, failed: c.failed, blocked: c.blocked });
  }
  return paused ?? (await getCampaign(c.companyId, c.id)) ?? c;
}

/** The connection's pacing rules: the company's settings and business hours. */
async function rulesOf(companyId: number): Promise<PacingRules> {
  const [settings, company] = await Promise.all([getCampaignSettings(companyId), getCompany(companyId)]);
  return { ...settings, hours: company ? { schedules: company.schedules, timeZone: company.timezone } : undefined };
}

/** What one planner run did. */
export interface PlanOutcome {
  status: CampaignItem["status"] | "gone";
  planned: { seq: number; at: number; whatsappId: number }[];
  nextRunAt: number | null;
}

/** A planned send as it goes on the dispatch queue. */
export interface PlannedMessage {
  msg: CampaignDispatchMessage;
  delaySeconds: number;
}

/** Puts planned sends on the dispatch queue, each with its delay (one not queued is planned again when stale). */
async function queueSends(messages: PlannedMessage[]): Promise<void> {
  const url = getConfig().DISPATCH_QUEUE_URL;
  if (!url) throw new Error("DISPATCH_QUEUE_URL is not set");
  await Promise.all(messages.map((m) => enqueue(url, m.msg, { delaySeconds: m.delaySeconds }).catch((err) => log("warn", "campaign send not queued", { ...m.msg, err }))));
}

/**
 * One planner run for campaign `campaignId` at `now` (epoch ms). `opts.rand` in [0, 1) for the jitter (default
 * `Math.random`); `opts.send` where the planned sends go (default the dispatch queue, each delayed to its time).
 * Returns what it planned and when it wants to run again (null: the campaign no longer runs).
 * @throws Error when `DISPATCH_QUEUE_URL` is not set and something is due.
 */
export async function runCampaignPlanner(
  companyId: number,
  campaignId: number,
  now: number,
  opts: { rand?: Rand; send?: (messages: PlannedMessage[]) => Promise<void> } = {},
): Promise<PlanOutcome> {
  const rand = opts.rand ?? Math.random;
  let c = await getCampaign(companyId, campaignId);
  if (!c) return { status: "gone", planned: [], nextRunAt: null };
  if (c.status === "PROGRAMADA") {
    if (c.scheduledAt && Date.parse(c.scheduledAt) > now) return { status: c.status, planned: [], nextRunAt: Date.parse(c.scheduledAt) };
    const started = await patchCampaign(c, { status: "EM_ANDAMENTO", runs: c.runs + 1, updatedAt: new Date().toISOString() }, { anyUpdatedAt: true, status: ["PROGRAMADA"] });
    if (!started) return { status: c.status, planned: [], nextRunAt: null };
    c = started;
    await emitCampaign(c);
  }
  if (c.status !== "EM_ANDAMENTO") return { status: c.status, planned: [], nextRunAt: null };
  if (!c.audienceReady) {
    c = (await writeAudience(c)) ?? c;
    await emitCampaign(c);
  }
  c = await finishIfDone(c);
  if (c.status !== "EM_ANDAMENTO") return { status: c.status, planned: [], nextRunAt: null };
  const waId = c.whatsappId;
  const wa = waId != null ? await getWhatsappItem(companyId, waId) : null;
  if (!wa || waId == null || wa.status !== "CONNECTED") {
    c = await setPause(c, "ERR_CAMPAIGN_CONNECTION_DOWN");
    return { status: c.status, planned: [], nextRunAt: now + 60_000 };
  }
  if (c.pauseReason === "ERR_CAMPAIGN_CONNECTION_DOWN") c = await setPause(c, null);
  const paused = await pauseIfUnhealthy(c);
  if (paused) return { status: paused.status, planned: [], nextRunAt: null };

  const rules = await rulesOf(companyId);
  const pacerBefore = await getPacer(companyId, waId);
  let pacer = pacerBefore;
  // The run's slots are taken together: the pacer is saved once (versioned, so two planners never share a slot),
  // then each shipping is marked queued with its slot. A slot whose shipping changed meanwhile stays unused (a longer
  // gap, never a shorter one).
  const picks: { s: ShippingItem; at: number }[] = [];
  let lowWater = c.lowWater;
  let advancing = true;
  outer: for await (const page of shippingPages(companyId, campaignId, c.lowWater)) {
    for (const s of page) {
      const done = s.status === "delivered" || s.status === "failed";
      if (done && advancing) {
        lowWater = s.seq + 1;
        continue;
      }
      advancing = false;
      const inFlight = s.status === "queued" && s.run === c.runs && Date.parse(s.dueAt ?? "") + STALE_QUEUED_MS > now;
      if (done || s.status === "awaiting" || inFlight) continue;
      const slot = nextSlot(pacer, rules, now, rand);
      if (!slot || slot.at > now + PLAN_AHEAD_MS || picks.length >= MAX_PLAN_PER_RUN) {
        break outer;
      }
      pacer = slot.state;
      picks.push({ s, at: slot.at });
    }
  }
  const planned: PlanOutcome["planned"] = [];
  const messages: PlannedMessage[] = [];
  // Another planner of the same connection took slots meanwhile: nothing is planned; the next run plans from its state.
  if (picks.length && (await savePacer(companyId, waId, pacer, pacerBefore.version))) {
    for (const { s, at } of picks) {
      const after = await patchShipping(s, { status: "queued", dueAt: new Date(at).toISOString(), run: c.runs, updatedAt: new Date().toISOString() });
      if (!after) continue;
      planned.push({ seq: s.seq, at, whatsappId: waId });
      messages.push({ msg: { kind: "campaign", companyId, campaignId, seq: s.seq, run: c.runs }, delaySeconds: Math.min(900, Math.max(0, Math.ceil((at - now) / 1000))) });
    }
  }
  if (messages.length) await (opts.send ?? queueSends)(messages);
  if (lowWater !== c.lowWater) await patchCampaign(c, { lowWater, updatedAt: c.updatedAt }, { anyUpdatedAt: true });
  return { status: c.status, planned, nextRunAt: now + 60_000 };
}

registerTimerKind(CAMPAIGN_TIMER, async (t, now): Promise<TimerResult> => {
  const out = await runCampaignPlanner(t.companyId, Number(t.ref), now.getTime());
  return out.nextRunAt == null ? undefined : { rescheduleAt: out.nextRunAt };
});

// ---------------------------------------------------------------------------------------------
// 2. Sender

export type ShippingOutcome = "sent" | "failed" | "skipped" | "released";

/** Puts a queued shipping back to pending (its campaign stopped or its connection is down): nothing is lost. */
async function release(s: ShippingItem): Promise<ShippingOutcome> {
  await patchShipping(s, { status: "pending", dueAt: null, updatedAt: new Date().toISOString() });
  return "released";
}

/** The files of the campaign's file list, in the list's order (options without a file left out). */
async function fileListMedia(c: CampaignItem): Promise<StoredMedia[]> {
  if (c.fileListId == null) return [];
  const list = await getFileList(c.companyId, c.fileListId);
  return (list?.options ?? []).map((o) => storedMediaOf(o)).filter((m): m is StoredMedia => !!m);
}

/** The ticket a campaign message goes on: the contact's open or pending one, else a new one (`created`). */
async function ticketFor(c: CampaignItem, contactId: number, whatsappId: number): Promise<{ ticket: TicketItem; created: boolean }> {
  const out = await findOrCreateTicket(c.companyId, { contactId, whatsappId, isGroup: false, queueId: null });
  if (out.created) await dispatch({ type: "ticket.created", companyId: c.companyId, ticket: out.ticket });
  return out;
}

/** Closes a ticket the campaign opened for its own message: no pending ticket waits for an agent before a reply. */
async function closeCampaignTicket(companyId: number, ticketId: number): Promise<void> {
  const t = await getTicketItem(companyId, ticketId, true);
  if (!t || t.status === "closed") return;
  try {
    const next = await writeTicketTransition(t, { status: "closed", updatedAt: new Date().toISOString() });
    await dispatch({ type: "ticket.updated", companyId, ticket: next, previous: t });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
}

/**
 * Sends one queued shipping (the dispatch queue's message): see the module docstring. Returns `sent` (a step went
 * out), `failed` (the connection refused it), `released` (campaign stopped or connection down: back to pending),
 * `skipped` (already done, or planned again by a later run). Throws on an unexpected error (the queue redelivers;
 * the next delivery sends nothing twice).
 */
export async function sendShipping(msg: CampaignDispatchMessage, rand: Rand = Math.random): Promise<ShippingOutcome> {
  const [c, first] = await Promise.all([getCampaign(msg.companyId, msg.campaignId), getShipping(msg.companyId, msg.campaignId, msg.seq)]);
  let s = first;
  if (!c || !s || s.status !== "queued" || s.run !== msg.run) return "skipped";
  if (c.status !== "EM_ANDAMENTO" || c.whatsappId == null) return release(s);
  if (await pauseIfUnhealthy(c)) return release(s);
  const wa = await getWhatsappItem(c.companyId, c.whatsappId);
  if (wa?.status !== "CONNECTED") {
    await setPause(c, "ERR_CAMPAIGN_CONNECTION_DOWN");
    return release(s);
  }
  const step = wantsConfirmation(c) && !s.confirmedAt ? "confirmation" : "message";
  const files = step === "message" ? await fileListMedia(c) : [];
  // Ids reserved by this delivery are new: no message can be stored under them yet.
  let freshIds = false;
  if (s.step !== step || !s.messageIds) {
    const pick = (list: string[]) => list[Math.floor(rand() * list.length)] ?? "";
    const variant = pick(variants(c, step === "confirmation" ? CONFIRMATION_FIELDS : MESSAGE_FIELDS));
    // The settings are read only for a text naming one of their variables.
    const vars = namesSettingsVariable(variant) ? (await getCampaignSettings(c.companyId)).variables : [];
    const text = renderCampaignText(variant, s, vars);
    // One id per part: each file of the file list, then the message.
    const ids: string[] = [];
    for (let i = 0; i <= files.length; i++) ids.push(await newOutboundId(wa));
    const reserved = await patchShipping(s, {
      step,
      messageIds: ids,
      ...(step === "confirmation" ? { confirmationMessage: text } : { message: text }),
      updatedAt: new Date().toISOString(),
    });
    if (!reserved) return "skipped";
    s = reserved;
    freshIds = true;
    await noteCampaignMessages(c.companyId, ids, c.id, s.seq);
  }
  const contact = await findOrCreateContactByIdentity(c.companyId, { jids: [`${s.number}@s.whatsapp.net`], number: s.number, name: s.name || s.number, isGroup: false });
  const ids = s.messageIds ?? [];
  const body = (step === "confirmation" ? s.confirmationMessage : s.message) ?? "";
  // In order: the file list's files (no caption), then the message (the campaign's media with it as caption).
  const parts: { id: string; media?: StoredMedia; body: string }[] = [
    ...ids.slice(0, -1).flatMap((id, i) => (files[i] ? [{ id, media: files[i], body: "" }] : [])),
    { id: ids[ids.length - 1] ?? "", media: step === "message" ? storedMediaOf(c) : undefined, body },
  ];
  let outcome: { ok: true } | { ok: false; error: string } = { ok: true };
  let openedTicket: number | null = null;
  let ticket: TicketItem | null = null;
  let ticketId: number | null = null;
  for (const part of parts) {
    const stored = freshIds ? null : await getMessageById(c.companyId, part.id);
    // A delivery that stored this part and died before marking the shipping: the part is there, never sent again.
    if (stored) {
      ticketId ??= stored.ticketId;
      if (stored.ack === -1) {
        outcome = { ok: false, error: stored.sendError ?? "ERR_SENDING_WAPP_MSG" };
        break;
      }
      continue;
    }
    if (!ticket) {
      const found = await ticketFor(c, contact.id, wa.id);
      ticket = found.ticket;
      ticketId = ticket.id;
      if (found.created) openedTicket = ticket.id;
    }
    const copy = part.media ? await copyIntoMessage(c.companyId, ticket.id, part.id, part.media) : undefined;
    // A file removed from its list meanwhile: nothing to send for it.
    if (part.media && !copy && !part.body) continue;
    try {
      // The system's message, not an agent's: never signed, stored as automatic (not counted as an agent's).
      await sendOutbound(c.companyId, { userId: null, name: "" }, ticket, {
        body: part.body,
        messageId: part.id,
        automatic: true,
        known: { contact, whatsapp: wa },
        ...(copy ? { media: copy } : {}),
      });
    } catch (err) {
      if (!(err instanceof AppError && err.code === "ERR_SENDING_WAPP_MSG")) throw err;
      outcome = { ok: false, error: err.code };
      break;
    }
  }
  const at = new Date().toISOString();
  const patch: Partial<ShippingItem> = !outcome.ok
    ? { status: "failed", error: outcome.error, contactId: contact.id, updatedAt: at }
    : step === "confirmation"
      ? { status: "awaiting", confirmationRequestedAt: at, contactId: contact.id, updatedAt: at }
      : { status: "delivered", deliveredAt: at, contactId: contact.id, updatedAt: at };
  // The contact's reply wait is written with the shipping (one transaction): a reply can never find a sent
  // message without its wait.
  const kind = waitKindOf(c, { ...s, ...patch });
  const wait: ReplyWait | null = kind ? { campaignId: c.id, seq: s.seq, kind } : null;
  const done = wait ? await patchWithReplyWait(s, patch, contact, wa.id, wait) : await patchShipping(s, patch);
  if (!done) return "skipped";
  if (openedTicket != null) await closeCampaignTicket(c.companyId, openedTicket);
  // The ticket the message went on (open or pending) carries the wait too, where the ingest looks first.
  if (wait && ticketId != null && ticketId !== openedTicket) await setTicketReplyWait(c.companyId, ticketId, wait);
  const after = await addCampaignCounts(
    c.companyId,
    c.id,
    done.status === "failed" ? { failed: 1 } : done.status === "awaiting" ? { awaiting: 1 } : { delivered: 1, ...(s.confirmationRequestedAt ? { awaiting: -1 } : {}) },
    at,
  );
  if (after) {
    const ended = await finishIfDone(after);
    if (ended === after) await emitCampaign(after);
  }
  return outcome.ok ? "sent" : "failed";
}

// ---------------------------------------------------------------------------------------------
// 3. Replies and later failures

/** What a shipping in this state waits for from its contact: a confirmation reply, a reply to close, or nothing. */
function waitKindOf(c: CampaignItem, s: ShippingItem): ReplyWait["kind"] | null {
  if (s.status === "awaiting" && !s.repliedBy) return "confirmation";
  return s.status === "delivered" && c.closeTicketOnReply && !s.closedBy ? "close" : null;
}

/**
 * Saves a shipping's `patch` and marks `wait` on `contact` for connection `whatsappId` in one transaction (where the
 * ingest reads it with the contact it resolves anyway). Returns the shipping as saved, or null when it changed
 * meanwhile (nothing written). Throws when the contact is gone (the queue redelivers; the next delivery finds or
 * creates it again).
 */
async function patchWithReplyWait(s: ShippingItem, patch: Partial<ShippingItem>, contact: ContactItem, whatsappId: number, wait: ReplyWait): Promise<ShippingItem | null> {
  // The contact's waits map may or may not exist yet: the form that fits is tried first, then the other.
  let mapExists = !!contact.campaignWaits;
  for (let attempt = 0; attempt < 3; attempt++) {
    const out = await patchShippingWith(s, patch, contactReplyWaitAction(s.companyId, contact.id, whatsappId, wait, mapExists));
    if (out === "shipping") return null;
    if (out !== "also") return out;
    mapExists = !mapExists;
  }
  throw new Error("campaign send: the contact's reply wait could not be written (contact gone)");
}

/**
 * A contact's message answering a shipping's wait (the `campaign.replied` fact the ingest stored with the message):
 * a confirmation reply queues the real message (within {@link REPLY_JITTER_MS}); after a campaign that closes
 * replies, the reply's ticket is closed at once. Idempotent: the first answering message is kept on the shipping
 * (`repliedBy`, `closedBy`), so a re-run of the same reply re-does only what its own run may have left undone (the
 * queueing, the close), and any other message does nothing. Clears the contact's wait. Returns what it did.
 */
export async function onCampaignReply(e: CampaignReplied, rand: Rand = Math.random): Promise<"confirmed" | "closed" | "none"> {
  const { companyId, wait } = e;
  const [c, s] = await Promise.all([getCampaign(companyId, wait.campaignId), getShipping(companyId, wait.campaignId, wait.seq)]);
  let outcome: "confirmed" | "closed" | "none" = "none";
  if (c && s) outcome = wait.kind === "confirmation" ? await confirmShipping(c, s, e.messageId, rand) : await closeReplyTicket(c, s, e);
  await clearContactReplyWait(companyId, e.contactId, e.whatsappId, wait);
  return outcome;
}

/** The confirmation reply `messageId`: the shipping goes back on the dispatch queue for its real message. */
async function confirmShipping(c: CampaignItem, s: ShippingItem, messageId: string, rand: Rand): Promise<"confirmed" | "none"> {
  let q: ShippingItem | null = s;
  if (s.status === "awaiting" && !s.repliedBy) {
    const at = new Date().toISOString();
    q = await patchShipping(s, { status: "queued", confirmedAt: at, dueAt: at, run: c.runs, messageIds: null, step: null, repliedBy: messageId, updatedAt: at });
  }
  // Queued by this reply and not yet sent (also when an earlier run of this reply died before queueing it).
  if (!q || q.repliedBy !== messageId || q.status !== "queued" || q.messageIds) return "none";
  const url = getConfig().DISPATCH_QUEUE_URL;
  if (!url) throw new Error("DISPATCH_QUEUE_URL is not set");
  await enqueue(url, { kind: "campaign", companyId: c.companyId, campaignId: c.id, seq: q.seq, run: q.run } satisfies CampaignDispatchMessage, {
    delaySeconds: Math.floor((rand() * REPLY_JITTER_MS) / 1000),
  });
  return "confirmed";
}

/** A reply after a campaign that closes replies: the ticket it landed on is closed at once (once per shipping). */
async function closeReplyTicket(c: CampaignItem, s: ShippingItem, e: CampaignReplied): Promise<"closed" | "none"> {
  if (s.status !== "delivered" || !c.closeTicketOnReply) return "none";
  const marked = s.closedBy ? s : await patchShipping(s, { closedBy: e.messageId, updatedAt: new Date().toISOString() });
  if (marked?.closedBy !== e.messageId) return "none";
  await closeCampaignTicket(c.companyId, e.ticketId);
  return "closed";
}

/** A campaign message that failed after it was handed over (ack -1): its shipping counts as failed (once). */
export async function onCampaignMessageFailed(companyId: number, messageId: string, error: string | null): Promise<boolean> {
  const ref = await campaignMessageRef(companyId, messageId);
  if (!ref) return false;
  const s = await getShipping(companyId, ref.campaignId, ref.seq);
  if (!s || (s.status !== "delivered" && s.status !== "awaiting") || !s.messageIds?.includes(messageId)) return false;
  const at = new Date().toISOString();
  const failed = await patchShipping(s, { status: "failed", error: error ?? "ERR_SENDING_WAPP_MSG", updatedAt: at });
  if (!failed) return false;
  const blocked = /block/i.test(error ?? "");
  const after = await addCampaignCounts(companyId, ref.campaignId, { failed: 1, ...(s.status === "delivered" ? { delivered: -1 } : { awaiting: -1 }), ...(blocked ? { blocked: 1 } : {}) }, at);
  if (after) await emitCampaign(after);
  return true;
}

/**
 * The durable listener (wired in `events/wiring.ts`): a customer's reply answering a shipping's wait. Its pending run
 * is written by the ingest transaction that stored the reply, so it is applied even when the process dies next.
 */
export const campaignRepliesListener: Listener = {
  name: "campaigns.replies",
  durable: true,
  wants: (e) => e.type === "campaign.replied",
  async handle(event) {
    if (event.type === "campaign.replied") await onCampaignReply(event);
  },
};

/** The listener of later failures (wired in `events/wiring.ts`): a campaign message at ack -1 counts as failed. */
export const campaignFailuresListener: Listener = {
  name: "campaigns.failures",
  async handle(event) {
    if (event.type === "message.updated" && event.message.fromMe && event.message.isAutomatic && event.message.ack === -1) {
      await onCampaignMessageFailed(event.companyId, event.message.id, event.message.sendError ?? null);
    }
  },
};
