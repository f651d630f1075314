/**
 * Kanban (docs/product/kanban.md): the board of open and pending tickets in lanes — "Em aberto" (no kanban tag) and
 * one lane per tag flagged kanban, in the tags' order.
 *
 * 1. stored items (the lane entries and the company's lane set),
 * 2. request schemas (queries, path params),
 * 3. response shapes.
 */
import { z } from "zod";
import { zId } from "../common.ts";
import { TicketView, zIdList } from "../tickets/contract.ts";
import { TicketItem } from "../tickets/schema.ts";

/** The lane of the tickets that carry no kanban tag ("Em aberto"). */
export const OPEN_LANE = 0;
/** Cards per page of a lane. */
export const KANBAN_PAGE_SIZE = 40;
/**
 * Cards of a lane's first page as the board asks it: a column of a 900-px-high screen shows eight, so its first page
 * paints with little to read, send and render; the rest comes page by page as the lane is scrolled.
 */
export const KANBAN_FIRST_PAGE = 12;
/** Most cards one page may ask for. */
export const KANBAN_PAGE_MAX = 100;

// ---------------------------------------------------------------------------------------------
// 1. Stored items

/**
 * Lane entry `C#<cid>#TK#<tid>` / `KANBAN#<lane>`: the ticket stands in lane `lane` (0 = "Em aberto"). Indexed on
 * GSI1 (the whole lane), GSI2 (the lane in the ticket's queue) and GSI3 (the lane of its assignee), each keyed by the
 * ticket's creation, so a lane is read page by page by key. Written by the `kanbanLanes` listener.
 */
export const KanbanEntry = z.object({
  companyId: z.number().int(),
  ticketId: z.number().int(),
  lane: z.number().int(),
  queueId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
});
export type KanbanEntry = z.infer<typeof KanbanEntry>;

/** `C#<cid>` / `KANBANLANES`: the kanban tag ids the lane entries were last written for. */
export const KanbanLaneSet = z.object({ tagIds: z.array(z.number().int()).default([]) });
export type KanbanLaneSet = z.infer<typeof KanbanLaneSet>;

/**
 * `C#<cid>` / `KANBANBACKFILL`: the company's lane backfill (tickets stored before the lane entries existed): the
 * phase (ticket status) and the index key it stopped after, and whether it is done. Written done at company creation.
 */
export const KanbanBackfillProgress = z.object({
  cursor: z.object({ p: z.enum(["open", "pending"]), k: z.record(z.string(), z.string()).optional() }).nullable().default(null),
  done: z.boolean().default(false),
});
export type KanbanBackfillProgress = z.infer<typeof KanbanBackfillProgress>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

/** `GET /api/ticket/kanban`: `queueIds` (JSON list, as the web sends it) narrows to those of the caller's queues. */
export const KanbanBoardQuery = z.object({
  queueIds: zIdList.optional(),
  /** Sent by the old clients; ignored. */
  teste: z.string().max(50).optional(),
  limit: z.coerce.number().int().min(1).max(KANBAN_PAGE_MAX).optional(),
});
export type KanbanBoardQuery = z.infer<typeof KanbanBoardQuery>;

/** `GET /api/ticket/kanban/{laneId}`: the next page of one lane (`cursor` from the previous page). */
export const KanbanLaneQuery = KanbanBoardQuery.extend({ cursor: z.string().max(6000).optional() });
export type KanbanLaneQuery = z.infer<typeof KanbanLaneQuery>;

/** `laneId`: 0 for "Em aberto", else a kanban tag id. */
export const KanbanLaneParams = z.object({ laneId: z.union([z.literal("0").transform(() => OPEN_LANE), zId]) });

// ---------------------------------------------------------------------------------------------
// 3. Responses

/**
 * A card: what the board shows of a ticket (the contact's name and number, the last message, the age of the last
 * activity, the link by uuid) and what places it in its lanes (status, tags, creation). A ticket as the list shows it
 * ({@link TicketView}, as the frames carry it) is a card too.
 */
export const KanbanCard = TicketItem.pick({ id: true, uuid: true, status: true, lastMessage: true, queueId: true, userId: true, createdAt: true, updatedAt: true }).extend({
  contact: TicketView.shape.contact.pick({ id: true, name: true, number: true }),
  tags: TicketView.shape.tags,
});
export type KanbanCard = z.infer<typeof KanbanCard>;

/** The card of ticket view `v` (only the fields a card has). */
export function cardOf(v: z.infer<typeof TicketView>): KanbanCard {
  const { id, uuid, status, lastMessage, queueId, userId, createdAt, updatedAt, contact, tags } = v;
  return { id, uuid, status, lastMessage, queueId, userId, createdAt, updatedAt, contact: { id: contact.id, name: contact.name, number: contact.number }, tags };
}

/** One page of a lane: its cards, newest ticket first. */
export const KanbanLanePage = z.object({ tickets: z.array(KanbanCard), hasMore: z.boolean(), nextCursor: z.string().optional() });
export type KanbanLanePage = z.infer<typeof KanbanLanePage>;

/** A lane with its first page: `id` 0 and `tag` null for "Em aberto". */
export const KanbanLane = KanbanLanePage.extend({
  id: z.number().int(),
  tag: z.object({ id: z.number().int(), name: z.string(), color: z.string() }).nullable(),
});
export type KanbanLane = z.infer<typeof KanbanLane>;

/** `GET /api/ticket/kanban`: the lanes in board order, and `tickets` (every card of those first pages, once). */
export const KanbanBoard = z.object({ lanes: z.array(KanbanLane), tickets: z.array(KanbanCard) });
export type KanbanBoard = z.infer<typeof KanbanBoard>;
