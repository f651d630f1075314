/**
 * The `kanbanLanes` listener (docs/product/kanban.md#how-lanes-are-kept): keeps the kanban lane entries in step with
 * the tickets and the tags, so each lane is read by key.
 *
 * - A ticket created, changed (status, queue, assignee, tags) or deleted: its entries are reconciled with the ticket
 *   as stored ({@link reconcileTicketLanes}).
 * - A tag created, changed or deleted: when its kanban flag no longer matches the company's lane set, the set is
 *   rewritten and the tickets of the tag (its edges, by key) are reconciled; a deleted tag's tickets follow as the tag
 *   deletion job takes it off each of them.
 *
 * Durable (`events/durable.ts`): a failed write is run again by the minute tick; every step puts the state the
 * entities are in, so a repeated run changes nothing twice.
 */
import type { DomainEvent, Listener } from "../events/registry.ts";
import { pagesFrom } from "../db/query.ts";
import { queryTagEdges } from "../tags/repository.ts";
import type {} from "../tags/events.ts"; // the tag events handled here (types only)
import type {} from "../tickets/events.ts"; // the ticket events handled here (types only)
import type {} from "../messages/events.ts"; // a message that opened a ticket (types only)
import { getLaneSet, putLaneSet } from "./repository.ts";
import { kanbanTagIds, reconcileTicketLanes } from "./service.ts";

/** Tickets reconciled at once. */
const PARALLEL = 8;
/** Edges read per page when a tag becomes (or stops being) a lane. */
const EDGE_PAGE = 100;

/** The ticket whose lanes an event may change, or undefined. */
function ticketOf(event: DomainEvent): number | undefined {
  switch (event.type) {
    case "ticket.created":
    case "ticket.deleted":
      return event.ticket.id;
    case "ticket.updated": {
      const p = event.previous;
      const t = event.ticket;
      const moved = !p || p.status !== t.status || p.queueId !== t.queueId || p.userId !== t.userId || p.tagIds.join() !== t.tagIds.join();
      return moved ? t.id : undefined;
    }
    case "message.created":
      return event.ticketCreated ? event.ticket.id : undefined;
    default:
      return undefined;
  }
}

/** Follows a tag's kanban flag: when the lane set changed, rewrites it and reconciles the tag's tickets. */
async function followTag(companyId: number, tagId: number, isLane: boolean, deleted: boolean): Promise<void> {
  const set = await getLaneSet(companyId);
  if (set.tagIds.includes(tagId) === isLane) return;
  // The tags as they are now decide (an event re-driven after newer ones carries an old flag).
  const current = await kanbanTagIds(companyId);
  await putLaneSet(companyId, current);
  if (deleted || set.tagIds.includes(tagId) === current.includes(tagId)) return;
  for await (const page of pagesFrom((start) => queryTagEdges(companyId, tagId, { limit: EDGE_PAGE, startKey: start }))) {
    for (let i = 0; i < page.edges.length; i += PARALLEL) {
      await Promise.all(page.edges.slice(i, i + PARALLEL).map((e) => reconcileTicketLanes(companyId, e.ticketId)));
    }
  }
}

export const kanbanLanesListener: Listener = {
  name: "kanbanLanes",
  durable: true,
  wants(event) {
    return ticketOf(event) !== undefined || event.type === "tag.created" || event.type === "tag.updated" || event.type === "tag.deleted";
  },
  async handle(event, run) {
    const ticketId = ticketOf(event);
    // A new ticket's own event starts from the ticket it carries (re-driven: from the ticket as stored now).
    if (ticketId !== undefined) return reconcileTicketLanes(event.companyId, ticketId, event.type === "ticket.created" && !run?.redriven ? event.ticket : undefined);
    if (event.type === "tag.created" || event.type === "tag.updated") return followTag(event.companyId, event.tag.id, event.tag.kanban === 1, false);
    if (event.type === "tag.deleted") return followTag(event.companyId, event.tagId, false, true);
  },
};
