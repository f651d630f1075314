/**
 * Ticket rules shared by the API and the session runner (docs/product/tickets.md), find-or-create of the ingest's
 * ticket included.
 *
 * Contract functions other features call: {@link findOrCreateTicket}, {@link getTicket}, {@link toTicketView},
 * {@link toTicketViews}, {@link setTicketPresence}. Changes are told with `dispatch` (events `ticket.*`).
 * The ticket code is split along its seams, re-exported here so callers keep one import:
 * - `access.ts`: {@link TicketActor}, {@link isAdminActor}, {@link getAccessibleTicket};
 * - `list.ts`: {@link listTickets} (`GET /api/tickets`: tabs, tag filter), `search.ts`: its search;
 * - `views.ts`: {@link toTicketView}, {@link toTicketViews}, {@link TicketDirectory} (from the stored summaries,
 *   `summaries.ts`, which also holds the listener that keeps them current);
 * - `actions.ts`: agent transitions.
 */
import { randomUUID } from "node:crypto";
import { nowIso } from "../common.ts";
import { batchGetRaw } from "../db/batch.ts";
import { nextId } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import "./events.ts";
import {
  createTicketItem,
  deleteStaleMarker,
  getActiveTicketId,
  getTicketIdByUuid,
  getTicketItem,
  isActiveStatus,
  setTicketAttributes,
} from "./repository.ts";
import { TicketItem } from "./schema.ts";

export { getAccessibleTicket, isAdminActor, otherOpenTicket, type TicketActor } from "./access.ts";
export { listTickets, MAX_LIST_FILTER_IDS, MAX_LIST_SOURCES, type ListTicketsQuery, type ListTicketsResult } from "./list.ts";
export { TicketDirectory, toTicketView, toTicketViews } from "./views.ts";

// ---------------------------------------------------------------------------------------------
// Contract: find-or-create, read, presence

/**
 * The ingest path's ticket: returns the contact's open/pending ticket on that connection (the ACTIVE
 * marker), or creates a new `pending` ticket (queue `queueId`, else `resolveQueueId()` when that queue still exists, else none) when there is none — so a customer writing after
 * a close starts a new ticket while the earlier ones stay readable. Race-safe: concurrent calls give one ticket (the
 * loser reads the winner through the marker). Dispatches nothing: the caller dispatches after storing its message
 * (`message.created` with `ticketCreated`).
 */
export async function findOrCreateTicket(
  companyId: number,
  input: {
    contactId: number;
    whatsappId: number;
    isGroup: boolean;
    queueId?: number | null;
    /** Consulted only when a ticket is about to be created and `queueId` is not given. */
    resolveQueueId?: () => Promise<number | null>;
  },
): Promise<{ ticket: TicketItem; created: boolean }> {
  let queueId = input.queueId;
  for (let attempt = 0; attempt < 5; attempt++) {
    const activeId = await getActiveTicketId(companyId, input.whatsappId, input.contactId);
    if (activeId) {
      const t = await getTicketItem(companyId, activeId, true);
      if (t && isActiveStatus(t.status)) return { ticket: t, created: false };
      // A marker without a live ticket (deleted meanwhile): heal and create.
      await deleteStaleMarker(companyId, input.whatsappId, input.contactId, activeId);
      continue;
    }
    if (queueId === undefined && input.resolveQueueId) {
      queueId = await input.resolveQueueId();
      // A routed queue that no longer exists (deleted while a connection still named it) routes nowhere.
      if (queueId != null && !(await batchGetRaw([keys.queue(companyId, queueId)], true)).size) queueId = null;
    }
    const now = nowIso();
    const ticket = TicketItem.parse({
      id: await nextId(companyId, "ticket"),
      uuid: randomUUID(),
      companyId,
      status: "pending",
      contactId: input.contactId,
      whatsappId: input.whatsappId,
      queueId: queueId ?? null,
      userId: null,
      isGroup: input.isGroup,
      version: 0,
      createdAt: now,
      updatedAt: now,
    });
    const res = await createTicketItem(ticket);
    if (res.created) return { ticket, created: true };
    const winner = await getTicketItem(companyId, res.existingTicketId, true);
    if (winner && isActiveStatus(winner.status)) return { ticket: winner, created: false };
  }
  throw new AppError("ERR_CREATING_TICKET", 409);
}

/** Reads a ticket of the company, or null (ids of other companies are simply absent). */
export async function getTicket(companyId: number, ticketId: number): Promise<TicketItem | null> {
  return getTicketItem(companyId, ticketId);
}

/** Reads a ticket by its uuid, or null. */
export async function getTicketByUuid(companyId: number, uuid: string): Promise<TicketItem | null> {
  const id = await getTicketIdByUuid(companyId, uuid);
  return id ? getTicketItem(companyId, id) : null;
}

/**
 * Sets the contact's presence shown on the ticket (`composing`, `recording`, `available`...) and publishes an update.
 * Returns the ticket exactly as stored after the write (null when it no longer exists).
 */
export async function setTicketPresence(companyId: number, ticketId: number, presence: string): Promise<TicketItem | null> {
  const t = await setTicketAttributes(companyId, ticketId, { presence });
  if (t) await dispatch({ type: "ticket.updated", companyId, ticket: t });
  return t;
}
