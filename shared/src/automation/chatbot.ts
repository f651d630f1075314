/**
 * What the customer meets (docs/product/queues.md#chatbot; the connection's, queue's, option's and settings' fields):
 * the one chatbot step of the automation seam (order 20, after ratings). For a customer's new message
 * on a ticket no agent holds:
 *
 * - connection without queues: its `greetingMessage`, once per ticket cycle (the message that opened the ticket);
 * - one queue (the ingest put the new ticket in it): the queue's `greetingMessage` when `sendGreetingMessageOneQueues`
 *   is enabled, followed by the queue's option menu when it has options;
 * - several queues: the connection's `greetingMessage` followed by `*[ n ]* - name` lines in `orderQueue`; only an
 *   offered number picks a queue (the ticket joins it and `ticket.updated` tells that queue's agents); any other
 *   answer sends the menu again, at most `maxUseBotQueues` times, then the bot stays silent for `timeUseBotQueues`
 *   minutes (0 = for the rest of this ticket cycle) and the ticket waits pending without a queue;
 * - inside a queue with options: the queue greeting plus `*[ opt ]* - title` lines and `*[ # ]* - Menu inicial`; at a
 *   node its message, its children, `*[ 0 ]* - Menu anterior` and `*[ # ]* - Menu inicial`; `0` goes up, `#` back to
 *   the start (several queues: the ticket leaves its queue and the connection's greeting and queue menu come again;
 *   one queue: that queue's menu); a leaf sends its message (and media) and hands the ticket to people (`chatbot` off, pending in
 *   that queue; the media goes out as its own copy with its real size and type, `sendAutomaticMedia`). Invalid answers
 *   in the tree count against the same `maxUseBotQueues` limit;
 * - out of hours (`scheduleType` `company`: the company's hours; `queue`: the chosen queue's): the `outOfHoursMessage`
 *   of the queue, else of the connection, and no menu; the ticket still arrives for the team. Company-wide closed
 *   hours silence the bot until the next opening, so the customer gets that text once per closed period.
 * - nothing for groups, contacts with `disableBot`, call logs, or tickets an agent holds (open or with a user).
 *
 * The state lives on the ticket (`chatbot`, `queueOptionId`, `amountUsedBotQueues`, `botSilentUntil`) and is written
 * through the version-checked ticket transition before anything is sent: two messages racing on one ticket make one
 * decision each, in turn (the loser re-reads and decides again), and an agent accepting meanwhile wins.
 * Every text goes out through `sendAutomatic` in the company's time zone.
 */
import { getCompany } from "../companies/service.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import "../tickets/events.ts";
import { buildOptionTree, type QueueOptionNode } from "../queues/options/schema.ts";
import { listQueueOptions } from "../queues/options/repository.ts";
import { listQueues } from "../queues/repository.ts";
import type { QueueItem, QueueSchedule } from "../queues/schema.ts";
import { getTicketItem, writeTicketTransition } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { cachedConnection, cachedSettings } from "../ingest/read-cache.ts";
import type { WhatsappItem } from "../whatsapp/schema.ts";
import { storedMediaOf } from "../media/attachments.ts";
import { sendAutomatic, sendAutomaticMedia, type StoredMedia } from "./automatic.ts";
import { isOpenAt, nextOpening } from "./hours.ts";
import type { InboundContext, InboundStep } from "./inbound.ts";
import { DEFAULT_TIME_ZONE } from "./variables.ts";
import { runQueueIntegration } from "../integrations/runtime.ts";

// ---- menu texts (pure) -----------------------------------------------------------------------------------------

/** One menu line: `*[ 2 ]* - Financeiro`. */
export const menuLine = (key: string, title: string) => `*[ ${key} ]* - ${title}`;
export const BACK_LINE = menuLine("0", "Menu anterior");
export const HOME_LINE = menuLine("#", "Menu inicial");

/** A text block above its lines (blank line between; an empty text leaves only the lines). */
const block = (text: string, lines: string[]) => [text.trim(), lines.join("\n")].filter(Boolean).join("\n\n");

/** Queues in menu order: `orderQueue` ascending (unset last), then id. */
export function menuQueues<Q extends Pick<QueueItem, "id" | "orderQueue">>(queues: Q[]): Q[] {
  return [...queues].sort((a, b) => (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) || a.id - b.id);
}

/** The connection's greeting followed by `*[ n ]* - name` for each queue (already in menu order, numbered from 1). */
export function queueMenuText(greeting: string, queues: Pick<QueueItem, "name">[]): string {
  return block(
    greeting,
    queues.map((q, i) => menuLine(String(i + 1), q.name)),
  );
}

/** The queue's option menu: its greeting, `*[ opt ]* - title` for each root option, `*[ # ]* - Menu inicial`. */
export function optionRootText(queueGreeting: string, roots: Pick<QueueOptionNode, "option" | "title">[]): string {
  return block(queueGreeting, [...roots.map((o) => menuLine(o.option, o.title)), HOME_LINE]);
}

/** A node's menu: its message, its children, `*[ 0 ]* - Menu anterior`, `*[ # ]* - Menu inicial`. */
export function optionNodeText(node: Pick<QueueOptionNode, "message" | "children">): string {
  return block(node.message, [...node.children.map((o) => menuLine(o.option, o.title)), BACK_LINE, HOME_LINE]);
}

/** The queue an answer picks: only a number shown in the menu (1..n, spaces around allowed); else null. */
export function pickQueue<Q>(answer: string, queues: Q[]): Q | null {
  const m = /^\s*(\d{1,4})\s*$/.exec(answer);
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= queues.length ? queues[n - 1] : null;
}

export type TreeMove =
  | { kind: "home" }
  | { kind: "root" }
  | { kind: "node"; node: QueueOptionNode }
  | { kind: "leaf"; node: QueueOptionNode }
  | { kind: "invalid"; at: QueueOptionNode | null };

/** Finds a node by id in a tree, with its parent (null for roots). */
function locate(tree: QueueOptionNode[], id: number, parent: QueueOptionNode | null = null): { node: QueueOptionNode; parent: QueueOptionNode | null } | null {
  for (const n of tree) {
    if (n.id === id) return { node: n, parent };
    const inner = locate(n.children, id, n);
    if (inner) return inner;
  }
  return null;
}

/**
 * Where an answer leads in a queue's option tree from the node `currentId` (null or a lost node = the queue's menu):
 * `#` → home (the start of the conversation with the bot); `0` at a node → its parent (the queue's menu for a root option); an offered option → that
 * node, or a leaf when it has no children; anything else → invalid (stay where you are).
 */
export function walkOptions(tree: QueueOptionNode[], currentId: number | null, answer: string): TreeMove {
  const body = answer.trim();
  const here = currentId == null ? null : (locate(tree, currentId)?.node ?? null);
  if (body === "#") return { kind: "home" };
  if (body === "0" && here) {
    const parent = locate(tree, here.id)?.parent ?? null;
    return parent ? { kind: "node", node: parent } : { kind: "root" };
  }
  const child = (here ? here.children : tree).find((o) => o.option.trim() === body);
  if (!child) return { kind: "invalid", at: here };
  return child.children.length ? { kind: "node", node: child } : { kind: "leaf", node: child };
}

// ---- the step ----------------------------------------------------------------------------------------------------

/** `botSilentUntil` meaning "for the rest of this ticket cycle" (timeUseBotQueues 0, or hours that never open). */
export const SILENT_FOR_GOOD = "9999-12-31T23:59:59.999Z";

type Send = { body: string; media?: StoredMedia };
type BotPatch = Partial<Pick<TicketItem, "queueId" | "chatbot" | "queueOptionId" | "amountUsedBotQueues" | "botSilentUntil" | "updatedAt">>;
/** A queue's bot takes the ticket (its integration: `useIntegration`, `integrationId`). */
type IntegrationPatch = Partial<Pick<TicketItem, "useIntegration" | "integrationId">>;
interface Plan {
  patch?: BotPatch & IntegrationPatch;
  /** The queue's integration answers this message once the patch is written (docs/product/integrations.md#routing). */
  integration?: true;
  sends: Send[];
  /** The company's zone for the texts' variables. */
  timeZone?: string;
}

interface World {
  wa: WhatsappItem;
  queues: QueueItem[];
  timeZone: string;
  scheduleType: string;
  companySchedules: QueueSchedule[];
  greetOneQueue: boolean;
  now: Date;
}

const NOTHING: Plan = { sends: [] };
const text = (body: string): Send[] => (body.trim() ? [{ body }] : []);

/** True when the bot must not answer this ticket at all. */
function botOff(ctx: InboundContext, t: TicketItem): boolean {
  return t.isGroup || ctx.contact.disableBot || t.status !== "pending" || t.userId != null || ctx.message.mediaType === "call_log";
}

async function loadWorld(ctx: InboundContext, wa: WhatsappItem): Promise<World> {
  const [company, settings, allQueues] = await Promise.all([
    getCompany(ctx.companyId),
    cachedSettings(ctx.companyId),
    wa.queueIds.length ? listQueues(ctx.companyId) : Promise.resolve([]),
  ]);
  const byId = new Map(allQueues.map((q) => [q.id, q]));
  return {
    wa,
    queues: menuQueues(wa.queueIds.map((id) => byId.get(id)).filter((q): q is QueueItem => !!q)),
    timeZone: company?.timezone || DEFAULT_TIME_ZONE,
    scheduleType: settings.scheduleType,
    companySchedules: company?.schedules ?? [],
    greetOneQueue: settings.sendGreetingMessageOneQueues === "enabled",
    now: ctx.now,
  };
}

const companyClosed = (w: World) => w.scheduleType === "company" && !isOpenAt(w.companySchedules, w.now, w.timeZone);
const queueClosed = (w: World, q: QueueItem) => w.scheduleType === "queue" && !isOpenAt(q.schedules, w.now, w.timeZone);
const outOfHoursText = (w: World, q: QueueItem | null) => (q?.outOfHoursMessage.trim() ? q.outOfHoursMessage : w.wa.outOfHoursMessage);

/** Silence after too many invalid answers: `timeUseBotQueues` minutes, 0 = for good. */
function silence(w: World): BotPatch {
  const minutes = w.wa.timeUseBotQueues;
  return { amountUsedBotQueues: 0, botSilentUntil: minutes > 0 ? new Date(w.now.getTime() + minutes * 60_000).toISOString() : SILENT_FOR_GOOD };
}

async function optionTree(companyId: number, queueId: number): Promise<QueueOptionNode[]> {
  return buildOptionTree(await listQueueOptions(companyId, queueId));
}

/** Entering a queue (picked from the menu, or the only one): hours, greeting, option menu. */
async function enterQueue(ctx: InboundContext, w: World, q: QueueItem, greet: boolean, joinPatch: BotPatch): Promise<Plan> {
  if (companyClosed(w) || queueClosed(w, q)) {
    return { patch: { ...joinPatch, chatbot: false, queueOptionId: null, amountUsedBotQueues: 0, botSilentUntil: null }, sends: text(outOfHoursText(w, q)) };
  }
  // A queue with an integration: its bot answers instead of the greeting and the options.
  if (q.integrationId != null) {
    return { patch: { ...joinPatch, chatbot: false, queueOptionId: null, amountUsedBotQueues: 0, botSilentUntil: null, useIntegration: true, integrationId: q.integrationId }, sends: [], integration: true };
  }
  const tree = await optionTree(ctx.companyId, q.id);
  const greeting = greet ? q.greetingMessage : "";
  const body = tree.length ? optionRootText(greeting, tree) : greeting;
  // The queue's media goes out with its greeting, the text as its caption (as the old system did).
  const media = greet ? storedMediaOf(q) : undefined;
  const sends: Send[] = media ? [{ body, media }] : text(body);
  return { patch: { ...joinPatch, chatbot: tree.length > 0, queueOptionId: null, amountUsedBotQueues: 0, botSilentUntil: null }, sends };
}

/** Decides what the bot does with this message on ticket `t` (reads only; the caller writes and sends). */
async function decide(ctx: InboundContext, t: TicketItem, created: boolean): Promise<Plan> {
  if (botOff(ctx, t)) return NOTHING;
  if (t.botSilentUntil && t.botSilentUntil > ctx.now.toISOString()) return NOTHING;
  // A ticket in a queue whose bot round ended (leaf reached, queue without options): people answer it.
  if (t.queueId != null && !t.chatbot && !created) return NOTHING;
  const wa = await cachedConnection(ctx.companyId, ctx.whatsappId);
  if (!wa) return NOTHING;
  // A connection without queues only greets the message that opened the ticket: nothing else to read or decide.
  if (t.queueId == null && !wa.queueIds.length && !created) return NOTHING;
  const w = await loadWorld(ctx, wa);
  return { ...(await decideIn(ctx, t, created, w)), timeZone: w.timeZone };
}

async function decideIn(ctx: InboundContext, t: TicketItem, created: boolean, w: World): Promise<Plan> {
  const answer = ctx.message.body;

  if (t.queueId == null) {
    if (!w.queues.length) {
      // No queues: the greeting once per ticket cycle (or the out-of-hours text instead).
      if (!created) return NOTHING;
      return { sends: text(companyClosed(w) ? w.wa.outOfHoursMessage : w.wa.greetingMessage) };
    }
    if (companyClosed(w)) {
      const opens = nextOpening(w.companySchedules, w.now, w.timeZone);
      return { patch: { chatbot: false, amountUsedBotQueues: 0, botSilentUntil: opens ? opens.toISOString() : SILENT_FOR_GOOD }, sends: text(outOfHoursText(w, null)) };
    }
    const menu = queueMenuText(w.wa.greetingMessage, w.queues);
    if (!t.chatbot) return { patch: { chatbot: true, queueOptionId: null, amountUsedBotQueues: 0, botSilentUntil: null }, sends: text(menu) };
    const picked = pickQueue(answer, w.queues);
    if (picked) return enterQueue(ctx, w, picked, true, { queueId: picked.id, updatedAt: ctx.now.toISOString() });
    if (t.amountUsedBotQueues < w.wa.maxUseBotQueues) return { patch: { amountUsedBotQueues: t.amountUsedBotQueues + 1, botSilentUntil: null }, sends: text(menu) };
    return { patch: silence(w), sends: [] };
  }

  const queue = w.queues.find((q) => q.id === t.queueId) ?? (await listQueues(ctx.companyId)).find((q) => q.id === t.queueId);
  if (!queue) return NOTHING;
  if (created) return enterQueue(ctx, w, queue, w.greetOneQueue, {});
  // In the queue's option tree.
  const tree = await optionTree(ctx.companyId, queue.id);
  if (!tree.length) return { patch: { chatbot: false, queueOptionId: null }, sends: [] };
  const greeting = w.queues.length > 1 || w.greetOneQueue ? queue.greetingMessage : "";
  const move = walkOptions(tree, t.queueOptionId, answer);
  const toRoot: Plan = { patch: { queueOptionId: null, amountUsedBotQueues: 0, botSilentUntil: null }, sends: text(optionRootText(greeting, tree)) };
  switch (move.kind) {
    case "home":
      // `#` goes back to the start: with several queues the ticket leaves this one and the customer gets the
      // connection's greeting and queue menu again; with one queue the start is that queue's menu.
      if (w.queues.length > 1) {
        return {
          patch: { queueId: null, chatbot: true, queueOptionId: null, amountUsedBotQueues: 0, botSilentUntil: null, updatedAt: ctx.now.toISOString() },
          sends: text(queueMenuText(w.wa.greetingMessage, w.queues)),
        };
      }
      return toRoot;
    case "root":
      return toRoot;
    case "node":
      return { patch: { queueOptionId: move.node.id, amountUsedBotQueues: 0, botSilentUntil: null }, sends: text(optionNodeText(move.node)) };
    case "leaf": {
      const media = storedMediaOf(move.node);
      const sends: Send[] = media ? [{ body: move.node.message, media }] : text(move.node.message);
      return { patch: { chatbot: false, queueOptionId: move.node.id, amountUsedBotQueues: 0, botSilentUntil: null }, sends };
    }
    case "invalid": {
      if (t.amountUsedBotQueues >= w.wa.maxUseBotQueues) return { patch: silence(w), sends: [] };
      const again = move.at ? optionNodeText(move.at) : optionRootText(greeting, tree);
      return { patch: { amountUsedBotQueues: t.amountUsedBotQueues + 1, botSilentUntil: null }, sends: text(again) };
    }
  }
}

const changes = (t: TicketItem, patch: BotPatch & IntegrationPatch) => Object.entries(patch).some(([k, v]) => t[k as keyof TicketItem] !== v);

/**
 * Runs the chatbot for one stored inbound message (see the module docstring). Returns true when the bot took the
 * message (answered it, or stayed silent on purpose), false when it is none of the bot's business.
 * Errors: infrastructure errors propagate (the seam logs them; the message is already stored).
 */
export async function runChatbot(ctx: InboundContext): Promise<boolean> {
  let t = ctx.ticket;
  let created = ctx.ticketCreated;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (botOff(ctx, t)) return false;
    const plan = await decide(ctx, t, created);
    let next = t;
    if (plan.patch && changes(t, plan.patch)) {
      try {
        next = await writeTicketTransition(t, plan.patch);
      } catch (err) {
        if (!(err instanceof AppError && err.code === "ERR_CONFLICT")) throw err;
        // Another message of this customer, or an agent, changed the ticket first: decide again on what it is now.
        const fresh = await getTicketItem(ctx.companyId, t.id, true);
        if (!fresh) return false;
        t = fresh;
        created = false;
        continue;
      }
      if (next.queueId !== t.queueId || next.chatbot !== t.chatbot) {
        await dispatch({ type: "ticket.updated", companyId: ctx.companyId, ticket: next, previous: t });
      }
    }
    for (const s of plan.sends) {
      if (s.media) await sendAutomaticMedia(ctx.companyId, next, s.body, s.media, { timeZone: plan.timeZone });
      else await sendAutomatic(ctx.companyId, next, s.body, { timeZone: plan.timeZone });
    }
    if (plan.integration) await runQueueIntegration({ ...ctx, ticket: next }, next);
    return true;
  }
  return false;
}

/** The step `inbound.ts` registers (order 20: after rating answers). */
export const chatbotStep: InboundStep = { name: "chatbot", order: 20, handle: runChatbot };
