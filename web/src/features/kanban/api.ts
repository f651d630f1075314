/**
 * Kanban data (docs/product/kanban.md):
 * - `useKanbanBoard()`: the lanes, each with its own first page of cards ({@link loadBoard}): "Em aberto" and the lane
 *   heads (GET /api/tags/kanban) at once, then each tag's lane, shown as it arrives. No queue list is sent: the
 *   server limits the board to the caller's own view (their queues, the tickets without queue with `allTicket`, their
 *   own tickets; admins every ticket) by itself;
 * - `loadMoreCards(...)`: GET /api/ticket/kanban/{laneId} with the lane's cursor, appended to the lane;
 * - `moveCard(...)`: the ticket's tags without its previous kanban tag and with the target lane's (POST /api/tags/sync),
 *   shown at once and confirmed by the answer.
 * `applyTicket` / `dropTicket` / `onKanbanTag` keep every loaded board current with the `company-{id}-ticket`,
 * `appMessage` and `tag` frames, so a card moved elsewhere moves here.
 */
import { KANBAN_FIRST_PAGE, type KanbanBoard } from "@atende/shared/kanban/schema";
import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";
import { syncTicketTags } from "../tags/api.ts";

/** A lane: its first pages of cards, and `loading` while its first page is on its way. */
export type Lane = KanbanBoard["lanes"][number] & { loading?: boolean };
export type Board = { lanes: Lane[] };
/** A card: what the board shows of a ticket (a ticket as a frame carries it is one too). */
export type Card = Lane["tickets"][number];

export const OPEN_LANE = 0;
const ROOT = "kanban";

/** The board's query key (the caller's whole view: the server decides what it holds). */
export const boardKey = [ROOT, "board"] as const;

/**
 * Reads the board lane by lane, each lane's first page ({@link KANBAN_FIRST_PAGE} cards) asked on its own, so no lane
 * waits for another: "Em aberto" and the lane heads are asked at once and shown together (the lanes keep their order
 * from the first paint), each tag's lane fills in as its page arrives (`loading` until then). A frame applied meanwhile
 * is kept. Throws when a request fails (the board shows the error and a retry).
 */
export async function loadBoard(qc: QueryClient): Promise<Board> {
  const firstPage = (laneId: number) => call("GET /api/ticket/kanban/{laneId}", { params: { laneId }, query: { limit: KANBAN_FIRST_PAGE } });
  const open = firstPage(OPEN_LANE);
  const heads = (await call("GET /api/tags/kanban")).lista;
  const pages = heads.map((t) => firstPage(t.id));
  // A lane head's page failing before "Em aberto" arrives is awaited below (never an unhandled rejection).
  for (const p of pages) p.catch(() => undefined);
  const board: Board = {
    lanes: [{ id: OPEN_LANE, tag: null, ...(await open) }, ...heads.map((t) => ({ id: t.id, tag: { id: t.id, name: t.name, color: t.color }, tickets: [], hasMore: false, loading: true }))],
  };
  if (!heads.length) return board;
  qc.setQueryData(boardKey, board);
  await Promise.all(pages.map(async (p, i) => fillLane(qc, heads[i].id, await p)));
  return qc.getQueryData<Board>(boardKey) ?? board;
}

/** Lane `laneId`'s first page arrived: its cards, with any card a frame placed there meanwhile, newest ticket first. */
function fillLane(qc: QueryClient, laneId: number, page: Pick<Lane, "tickets" | "hasMore" | "nextCursor">): void {
  eachBoard(qc, (b) => ({
    ...b,
    lanes: b.lanes.map((l) => {
      if (l.id !== laneId) return l;
      const fresh = new Set(l.tickets.map((t) => t.id));
      const tickets = [...l.tickets, ...page.tickets.filter((t) => !fresh.has(t.id))].sort(newestFirst);
      return { id: l.id, tag: l.tag, tickets, hasMore: page.hasMore, nextCursor: page.nextCursor };
    }),
  }));
}

/** The board (started as soon as /kanban opens, beside the page's own code). */
export function useKanbanBoard() {
  const qc = useQueryClient();
  return useQuery({ queryKey: boardKey, queryFn: () => loadBoard(qc) });
}

/**
 * The lanes card `c` stands in on `board` (its kanban tags, else "Em aberto"); none when closed. A frame only brings
 * tickets the caller may see, which are the board's.
 */
export function lanesOfCard(board: Board, c: Card): number[] {
  if (c.status === "closed") return [];
  const tagLanes = c.tags.map((t) => t.id).filter((id) => board.lanes.some((l) => l.id === id && id !== OPEN_LANE));
  return tagLanes.length ? tagLanes : [OPEN_LANE];
}

const newestFirst = (a: Card, b: Card) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id);

/**
 * `board` with card `c` where it stands now: out of every lane, into each of its lanes in creation order. A card older
 * than the last one loaded of a lane with more pages is left to that lane's paging (no hole in the order), unless
 * `force` (the user's own move: the card stays in sight).
 */
export function placeCard(board: Board, c: Card, force = false): Board {
  const target = new Set(lanesOfCard(board, c));
  const lanes = board.lanes.map((l) => {
    const rest = l.tickets.filter((t) => t.id !== c.id);
    if (!target.has(l.id)) return rest.length === l.tickets.length ? l : { ...l, tickets: rest };
    const last = rest.at(-1);
    if (!force && l.hasMore && last && newestFirst(c, last) > 0) return { ...l, tickets: rest };
    return { ...l, tickets: [...rest, c].sort(newestFirst) };
  });
  return { ...board, lanes };
}

/** `board` without ticket `ticketId`. */
export const withoutCard = (board: Board, ticketId: number): Board => ({
  ...board,
  lanes: board.lanes.map((l) => (l.tickets.some((t) => t.id === ticketId) ? { ...l, tickets: l.tickets.filter((t) => t.id !== ticketId) } : l)),
});

/** The loaded board, when there is one. */
function eachBoard(qc: QueryClient, fn: (b: Board) => Board): void {
  const data = qc.getQueryData<Board>(boardKey);
  if (data) qc.setQueryData(boardKey, fn(data));
}

/** A ticket as a frame or an answer tells it: moved to its lanes on the loaded board. */
export const applyTicket = (qc: QueryClient, c: Card, force = false) => eachBoard(qc, (b) => placeCard(b, c, force));
/** A ticket the caller no longer sees (or deleted): off the loaded board. */
export const dropTicket = (qc: QueryClient, ticketId: number) => eachBoard(qc, (b) => withoutCard(b, ticketId));

/** A tag frame: a lane's name or colour changes in place; a tag that becomes or stops being a lane reloads the boards. */
export function onKanbanTag(qc: QueryClient, d: { action?: string; tag?: { id: number; name: string; color: string; kanban?: number }; tagId?: number }): void {
  let reload = false;
  eachBoard(qc, (b) => {
    const id = d.tag?.id ?? d.tagId;
    const lane = b.lanes.find((l) => l.id === id);
    const isLane = d.action !== "delete" && d.tag?.kanban === 1;
    if (!!lane !== isLane) reload = true;
    if (!lane || !isLane || !d.tag) return b;
    const { name, color } = d.tag;
    if (lane.tag?.name === name && lane.tag?.color === color) return b;
    return { ...b, lanes: b.lanes.map((l) => (l.id === id ? { ...l, tag: { id: l.id, name, color } } : l)) };
  });
  if (reload) void qc.invalidateQueries({ queryKey: boardKey });
}

/** Loads the next page of lane `laneId` into the board. */
export async function loadMoreCards(qc: QueryClient, laneId: number, cursor: string): Promise<void> {
  const page = await call("GET /api/ticket/kanban/{laneId}", { params: { laneId }, query: { cursor } });
  const b = qc.getQueryData<Board>(boardKey);
  if (!b) return;
  qc.setQueryData<Board>(boardKey, {
    ...b,
    lanes: b.lanes.map((l) => {
      if (l.id !== laneId) return l;
      const have = new Set(l.tickets.map((t) => t.id));
      return { ...l, tickets: [...l.tickets, ...page.tickets.filter((t) => !have.has(t.id))], hasMore: page.hasMore, nextCursor: page.nextCursor };
    }),
  });
}

/**
 * Moves card `c` from lane `from` to lane `to` of the board: at once on screen, then the ticket's tags
 * lose the previous lane's tag and gain the target's (to "Em aberto": every lane tag off), through POST /api/tags/sync.
 * The answer (the ticket as stored) settles it; on a refusal the boards are read again and the error is thrown.
 */
export async function moveCard(qc: QueryClient, c: Card, from: number, to: number): Promise<Card> {
  const b = qc.getQueryData<Board>(boardKey);
  const laneIds = new Set((b?.lanes ?? []).map((l) => l.id).filter((id) => id !== OPEN_LANE));
  const kept = c.tags.filter((t) => (to === OPEN_LANE ? !laneIds.has(t.id) : t.id !== from && t.id !== to));
  const target = b?.lanes.find((l) => l.id === to)?.tag;
  const tags = target ? [...kept, target] : kept;
  applyTicket(qc, { ...c, tags }, true);
  try {
    const saved = await syncTicketTags(c.id, tags.map((t) => t.id));
    applyTicket(qc, saved, true);
    return saved;
  } catch (err) {
    void qc.invalidateQueries({ queryKey: boardKey });
    throw err;
  }
}
