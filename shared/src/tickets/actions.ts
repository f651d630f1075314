/**
 * Agent-side ticket operations (docs/product/tickets.md#statuses-and-transitions):
 * create, accept, return, close (justClose), resolve, reopen, transfer, delete, close-all. Each transition is one
 * `writeTicketTransition` (GSI keys recomputed, ACTIVE marker moved, version-checked) followed by a realtime update.
 */
import { randomUUID } from "node:crypto";
import { nowIso } from "../common.ts";
import { requireQueue } from "../queues/repository.ts";
import { settingEnabled } from "../settings/repository.ts";
import { requireUser } from "../users/service.ts";
import { nextId } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { can } from "../access/permissions.ts";
import { log } from "../log.ts";
import { getContactItem } from "../contacts/repository.ts";
import { dispatch } from "../events/index.ts";
import "./events.ts";
import { notify, transferNotice } from "../automation/notices.ts";
import { ratingApplies, startRating } from "../automation/rating.ts";
import { getQueue } from "../queues/repository.ts";
import { getWhatsappItem, listWhatsappItems } from "../whatsapp/repository.ts";
import { laterIso } from "../contacts/service.ts";
import { SILENT_FOR_GOOD } from "../automation/chatbot.ts";
import { z } from "zod";
import { registerJobKind, startJob } from "../jobs/service.ts";
import type { JobView } from "../jobs/schema.ts";
import {
  countTicketIndex,
  createTicketItem,
  deleteTicketItems,
  getActiveTicketId,
  getTicketItem,
  queryTicketIndex,
  writeTicketTransition,
} from "./repository.ts";
import { TicketItem, type CreateTicketBody, type TicketView, type UpdateTicketBody } from "./schema.ts";
import { attachSummaries, summariesOf } from "./summaries.ts";
import { getAccessibleTicket, isAdminActor, otherOpenTicket, toTicketView, type TicketActor } from "./service.ts";

/** The greeting sent on accept when `sendGreetingAccepted` is enabled (the old system's wording). */
export const ACCEPT_GREETING = (agentName: string) =>
  `*Mensagem Automática:*\n{{ms}} *{{name}}*, meu nome é *${agentName}* e agora vou prosseguir com seu atendimento!`;

async function requireWhatsapp(companyId: number, whatsappId: number) {
  const wa = await getWhatsappItem(companyId, whatsappId);
  if (!wa) throw new AppError("ERR_NO_WAPP_FOUND");
  return wa;
}


/**
 * `POST /api/tickets`: opens a ticket for a contact on a connection (default: the body's, else the caller's default
 * connection, else the company's default). Status `open` assigned to `userId` (default the caller) unless `status`
 * says `pending`. Non-admins must choose one of their queues (400 `ERR_VALIDATION` "Selecione uma fila", 403 otherwise).
 * 409 `{"error":"ERR_OTHER_OPEN_TICKET","ticket": TicketView}` when the contact already has an open/pending ticket there.
 */
export async function createTicketByUser(actor: TicketActor & { whatsappId?: number | null }, body: CreateTicketBody): Promise<TicketView> {
  const cid = actor.companyId;
  const admin = isAdminActor(actor);
  const queueId = body.queueId ?? null;
  if (!admin) {
    if (queueId == null) throw new AppError("ERR_VALIDATION", { fields: [{ path: "queueId", message: "Selecione uma fila" }] });
    if (!actor.queueIds.includes(queueId)) throw new AppError("ERR_NO_PERMISSION");
  }
  const contact = await getContactItem(cid, body.contactId);
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
  if (queueId != null) await requireQueue(cid, queueId);
  let whatsappId = body.whatsappId ?? actor.whatsappId ?? null;
  if (whatsappId == null) {
    const def = (await listWhatsappItems(cid)).find((w) => w.isDefault);
    if (!def) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
    whatsappId = def.id;
  } else await requireWhatsapp(cid, whatsappId);
  const status = body.status === "pending" ? "pending" : "open";
  const userId = status === "open" ? (body.userId ?? actor.userId) : null;
  if (userId != null && userId !== actor.userId) await requireUser(cid, userId);
  // The contact's open or pending ticket on that connection refuses the new one before it takes an id.
  const held = await getActiveTicketId(cid, whatsappId, contact.id);
  if (held) throw await otherOpenTicket(actor, held);
  const now = nowIso();
  const ticket = TicketItem.parse({
    id: await nextId(cid, "ticket"),
    uuid: randomUUID(),
    companyId: cid,
    status,
    contactId: contact.id,
    whatsappId,
    queueId,
    userId,
    isGroup: contact.isGroup,
    version: 0,
    createdAt: now,
    updatedAt: now,
  });
  const res = await createTicketItem(ticket);
  if (!res.created) throw await otherOpenTicket(actor, res.existingTicketId);
  await dispatch({ type: "ticket.created", companyId: cid, ticket });
  return toTicketView(cid, ticket);
}

/**
 * The transition a `PUT /api/tickets/{id}` body asks for (for logs and side effects). `rating`: a resolve that waits
 * for the customer's rating (the ticket stays open with `ratingAt`; `automation/rating.ts`).
 */
export type TicketAction = "accept" | "return" | "close" | "resolve" | "reopen" | "transfer" | "update" | "rating";

/**
 * Computes the next state of a ticket for a `PUT /api/tickets/{id}` body (docs/product/tickets.md#statuses-and-transitions):
 * - accept: pending → open, assigned to the caller (or the given user);
 * - return: open → pending with no user;
 * - close (justClose: from the list, no completion message) / resolve: → closed, queue and user kept;
 * - reopen: closed → open for the caller;
 * - transfer: queue and/or user and/or connection; a queue without a user gives pending with no user, a user gives open.
 */
export function planTransition(actor: TicketActor, prev: TicketItem, body: UpdateTicketBody): { action: TicketAction; patch: Partial<TicketItem> } {
  const patch: Partial<TicketItem> = {};
  for (const k of ["useIntegration", "promptId", "integrationId", "chatbot"] as const) {
    if (body[k] !== undefined) (patch as Record<string, unknown>)[k] = body[k];
  }
  const queueChanged = body.queueId !== undefined && body.queueId !== prev.queueId;
  const whatsappChanged = body.whatsappId !== undefined && body.whatsappId !== prev.whatsappId;
  if (queueChanged) patch.queueId = body.queueId ?? null;
  if (whatsappChanged) patch.whatsappId = body.whatsappId;
  const moved = queueChanged || whatsappChanged;
  switch (body.status) {
    case "closed":
      patch.status = "closed";
      return { action: body.justClose ? "close" : "resolve", patch };
    case "pending":
      patch.status = "pending";
      patch.userId = null;
      return { action: moved ? "transfer" : "return", patch };
    case "open": {
      patch.status = "open";
      const userChanged = body.userId != null && body.userId !== prev.userId;
      if (prev.status === "open") {
        patch.userId = body.userId ?? prev.userId ?? actor.userId;
        return { action: moved || userChanged ? "transfer" : "update", patch };
      }
      patch.userId = body.userId ?? actor.userId;
      if (moved || (body.userId != null && body.userId !== actor.userId)) return { action: "transfer", patch };
      return { action: prev.status === "pending" ? "accept" : "reopen", patch };
    }
    default: {
      if (queueChanged || body.userId !== undefined) {
        const nextUser = body.userId !== undefined ? body.userId : null;
        patch.userId = nextUser;
        patch.status = nextUser != null ? "open" : "pending";
        return { action: "transfer", patch };
      }
      return { action: whatsappChanged ? "transfer" : "update", patch };
    }
  }
}

/**
 * `PUT /api/tickets/{id}`: applies an accept/return/close/resolve/reopen/transfer to a ticket the caller may see.
 * Side effects (automatic messages, `sendAutomatic`): accept sends the `sendGreetingAccepted` greeting
 * naming the agent (setting enabled, not a group; once: only the pending → open transition, version-checked, sends it);
 * a transfer sends the `sendMsgTransfTicket` notice naming the new queue and/or agent; resolve with `userRating`
 * enabled keeps the ticket open with `ratingAt` and sends the rating prompt (`automation/rating.ts`), a plain resolve
 * sends the connection's `complationMessage` (not for groups, not with `justClose`); any other transition of a ticket
 * awaiting a rating ends the wait (`ratingAt` null). A queue change tells the old queue's users the ticket left
 * (`delete`) before the `update`. Errors: 403/404 access, 404 unknown queue/user/connection,
 * 409 `ERR_OTHER_OPEN_TICKET` (with `ticket`) on reopen/transfer into a busy contact+connection, 409 `ERR_CONFLICT`
 * when another agent changed the ticket at the same moment.
 */
export async function updateTicketByUser(actor: TicketActor, ticketId: number | string, body: UpdateTicketBody): Promise<TicketView> {
  const cid = actor.companyId;
  const prev = await getAccessibleTicket(actor, ticketId);
  let { action, patch } = planTransition(actor, prev, body);
  if (action === "resolve" && !body.justClose && (await ratingApplies(cid, prev))) {
    patch = { ...patch, status: "open", ratingAt: nowIso() };
    action = "rating";
  } else if (prev.ratingAt && action !== "update") patch = { ...patch, ratingAt: null };
  if (patch.queueId != null && patch.queueId !== prev.queueId) await requireQueue(cid, patch.queueId);
  if (patch.userId != null && patch.userId !== prev.userId && patch.userId !== actor.userId) await requireUser(cid, patch.userId);
  if (patch.whatsappId != null) await requireWhatsapp(cid, patch.whatsappId);
  let next: TicketItem;
  try {
    // automation/chatbot.ts: once an agent acts on a ticket, people own this cycle and the bot stays out.
    const botOff = body.chatbot === undefined ? { chatbot: false, botSilentUntil: SILENT_FOR_GOOD } : {};
    next = await writeTicketTransition(prev, { ...patch, ...botOff, updatedAt: laterIso(prev.updatedAt) });
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_OTHER_OPEN_TICKET") throw await otherOpenTicket(actor, err.data?.ticketId as number | undefined);
    throw err;
  }
  // Realtime: users who could see it only through the old queue/assignee get a `delete`, then the `update`.
  await dispatch({ type: "ticket.updated", companyId: cid, ticket: next, previous: prev });
  await runSideEffects(actor, action, prev, next, body).catch((err) => log("warn", "ticket side effect failed", { companyId: cid, ticketId: next.id, action, err }));
  return toTicketView(cid, next);
}

async function runSideEffects(actor: TicketActor, action: TicketAction, prev: TicketItem, next: TicketItem, body: UpdateTicketBody): Promise<void> {
  const cid = actor.companyId;
  if (next.isGroup) return;
  if (action === "accept" && (await settingEnabled(cid, "sendGreetingAccepted"))) {
    const agent = next.userId === actor.userId ? actor.name : (await requireUser(cid, next.userId!)).name;
    await notify(cid, next, ACCEPT_GREETING(agent));
  }
  if (action === "transfer" && (await settingEnabled(cid, "sendMsgTransfTicket"))) {
    const queueName = next.queueId != null && next.queueId !== prev.queueId ? ((await getQueue(cid, next.queueId))?.name ?? null) : null;
    const userName =
      next.userId != null && next.userId !== prev.userId ? (next.userId === actor.userId ? actor.name : (await requireUser(cid, next.userId)).name) : null;
    await notify(cid, next, transferNotice(queueName, userName));
  }
  if (action === "rating") await startRating(cid, next);
  if (action === "resolve" && !body.justClose) {
    const wa = await getWhatsappItem(cid, next.whatsappId);
    await notify(cid, next, wa?.complationMessage);
  }
}

/** `DELETE /api/tickets/{id}` (admin): removes the ticket, its marker, uuid alias and partition; publishes `delete`. */
export async function deleteTicketByAdmin(actor: TicketActor, ticketId: number): Promise<void> {
  if (!can(actor, "ticket-options:deleteTicket")) throw new AppError("ERR_NO_PERMISSION");
  const read = await getTicketItem(actor.companyId, ticketId, true);
  if (!read) throw new AppError("ERR_NO_TICKET_FOUND");
  const t = attachSummaries({ ...read, updatedAt: laterIso(read.updatedAt) }, summariesOf(read)); // the deletion time (the current counts' fact); its summaries name the grams to remove
  await deleteTicketItems(t);
  await dispatch({ type: "ticket.deleted", companyId: actor.companyId, ticket: t });
}

/**
 * `POST /api/tickets/closeAll` (admin) `{status, selectedQueueIds}`: starts the background job that closes
 * (justClose: no message) every ticket of that status in those queues (all queues and no-queue when none are
 * selected); `closeAllTickets` kind below. Returns the job.
 */
export async function closeAllTickets(actor: TicketActor, input: { status: "open" | "pending"; selectedQueueIds?: number[] }): Promise<JobView> {
  if (!can(actor, "tickets:closeAll")) throw new AppError("ERR_NO_PERMISSION");
  return startJob(actor.companyId, actor.userId, "closeAllTickets", { status: input.status, selectedQueueIds: input.selectedQueueIds ?? [] });
}

const CloseAllParams = z.object({ status: z.enum(["open", "pending"]), selectedQueueIds: z.array(z.number().int()) });
/** Where a `closeAllTickets` job goes on: the partition (index into its list) and the last key handled in it. */
const CloseAllCursor = z.object({ part: z.number().int(), key: z.record(z.string(), z.unknown()).optional() });

/**
 * One step of a `closeAllTickets` job: closes the next `limit` tickets of the status partitions (each re-read and
 * closed only while still in that status, through the version-checked transition, so a repeated ticket changes
 * nothing) and publishes each.
 */
registerJobKind("closeAllTickets", async (job, limit) => {
  const cid = job.companyId;
  const params = CloseAllParams.parse(job.params);
  const parts = params.selectedQueueIds.length
    ? params.selectedQueueIds.map((q) => ({ index: "GSI2" as const, pk: keys.ticketQueuePK(cid, params.status, q) }))
    : [{ index: "GSI1" as const, pk: keys.ticketStatusPK(cid, params.status) }];
  let total: number | undefined;
  if (job.total === null) {
    total = 0;
    for (const p of parts) total += await countTicketIndex(p.index, p.pk);
  }
  const at = job.cursor ? CloseAllCursor.parse(JSON.parse(job.cursor)) : { part: 0 };
  const part = parts[at.part];
  if (!part) return { handled: 0, total, cursor: null, finished: true };
  const page = await queryTicketIndex(part.index, part.pk, { limit, startKey: at.key });
  for (const it of page.items) {
    const fresh = await getTicketItem(cid, it.id, true);
    if (!fresh || fresh.status !== params.status) continue;
    try {
      const next = await writeTicketTransition(fresh, { status: "closed", updatedAt: laterIso(fresh.updatedAt) });
      await dispatch({ type: "ticket.updated", companyId: cid, ticket: next, previous: fresh });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  const cursor = page.lastKey ? { part: at.part, key: page.lastKey } : { part: at.part + 1 };
  const finished = !page.lastKey && at.part + 1 >= parts.length;
  return { handled: page.items.length, total, cursor: finished ? null : JSON.stringify(cursor), finished };
});
