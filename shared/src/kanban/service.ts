/**
 * Kanban rules (docs/product/kanban.md).
 *
 * - The board shows the open and pending tickets the caller may see, as the ticket list decides it (`canSee`: their
 *   queues, tickets without queue with `allTicket`, their own tickets, group tickets of others with `viewgroups`;
 *   admins see all), narrowed by `queueIds` to those of the caller's queues.
 * - Lanes: "Em aberto" (lane 0) for tickets with no kanban tag, then one lane per tag flagged kanban in the tags'
 *   order (creation); a ticket with two kanban tags stands in both.
 * - Each lane is read page by page by key ({@link KANBAN_PAGE_SIZE} cards, newest ticket first) from the lane entries
 *   (`./repository.ts`), which the `kanbanLanes` listener keeps in step with the tickets and the tags
 *   ({@link reconcileTicketLanes}); every card read is checked against its ticket as stored, so an entry that lags
 *   never shows a card in the wrong lane or to the wrong user.
 * - Moving a card is a change of the ticket's tags (`POST /api/tags/sync`): its previous kanban tag off, the target
 *   lane's tag on; the ticket's `company-{id}-ticket` frame moves it on every other board.
 */
import { canSee } from "../access/tickets.ts";
import { visibilityFor } from "../access/visibility.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { decodeCursor, encodeCursor, startKeyOf } from "../db/cursor.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { listTags } from "../tags/repository.ts";
import "../tags/errors.ts";
import { isAdminActor } from "../tickets/access.ts";
import { MAX_LIST_FILTER_IDS } from "../tickets/list.ts";
import { batchGetTickets, getTicketItem } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { toTicketViews } from "../tickets/views.ts";
import { listTicketEntries, queryLane, writeTicketEntries, type LaneEntryRef, type LaneIndex } from "./repository.ts";
import {
  cardOf,
  KANBAN_PAGE_SIZE,
  OPEN_LANE,
  type KanbanBoard,
  type KanbanBoardQuery,
  type KanbanEntry,
  type KanbanLane,
  type KanbanLanePage,
  type KanbanLaneQuery,
} from "./schema.ts";

// ---------------------------------------------------------------------------------------------
// The lanes of a ticket

/** The lanes ticket `t` stands in, given the company's kanban tag ids: none when closed, else its kanban tags or lane 0. */
export function lanesOf(t: Pick<TicketItem, "status" | "tagIds">, kanbanTagIds: ReadonlySet<number>): number[] {
  if (t.status === "closed") return [];
  const tagLanes = t.tagIds.filter((id) => kanbanTagIds.has(id));
  return tagLanes.length ? tagLanes : [OPEN_LANE];
}

/** The ids of the company's tags flagged kanban, in the tags' order. */
export async function kanbanTagIds(companyId: number): Promise<number[]> {
  return (await listTags(companyId)).filter((t) => t.kanban === 1).map((t) => t.id);
}

/**
 * What ticket `t`'s lane entries need to match it: the lanes whose entry is missing or keyed by an old queue or
 * assignee (`put`), and the lanes it no longer stands in (`drop`). Both empty when `have` is in step.
 */
export function laneChanges(
  t: Pick<TicketItem, "status" | "tagIds" | "queueId" | "userId">,
  have: Pick<KanbanEntry, "lane" | "queueId" | "userId">[],
  kanbanTagIds: ReadonlySet<number>,
): { put: number[]; drop: number[] } {
  const want = lanesOf(t, kanbanTagIds);
  const put = want.filter((lane) => {
    const e = have.find((h) => h.lane === lane);
    return !e || e.queueId !== (t.queueId ?? null) || e.userId !== (t.userId ?? null);
  });
  return { put, drop: have.filter((h) => !want.includes(h.lane)).map((h) => h.lane) };
}

/**
 * Puts ticket `ticketId`'s lane entries in step with the ticket as stored now (and the company's kanban tags): entries
 * of lanes it left are deleted, those of lanes it entered (or whose queue or assignee moved) are put; a ticket that is
 * gone loses them all. Idempotent; read again when the ticket changed meanwhile (at most 3 rounds). Throws when a
 * write failed (the durable listener runs it again). `created`: the ticket as its creation wrote it (a new ticket has
 * no entries yet): the first round starts from it without reading the ticket or its entries; the check after the write
 * still reads the ticket, and a ticket that changed meanwhile is read in full in the next round.
 */
export async function reconcileTicketLanes(companyId: number, ticketId: number, created?: TicketItem): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const [t, have] =
      round === 0 && created
        ? [created, [] as Awaited<ReturnType<typeof listTicketEntries>>]
        : await Promise.all([getTicketItem(companyId, ticketId, true), listTicketEntries(companyId, ticketId)]);
    if (!t) {
      await writeTicketEntries({ companyId, id: ticketId, queueId: null, userId: null, createdAt: "" }, [], have.map((e) => e.lane));
      return;
    }
    const kanban = new Set(t.tagIds.length ? await kanbanTagIds(companyId) : []);
    const { put, drop } = laneChanges(t, have, kanban);
    if (!put.length && !drop.length) return;
    await writeTicketEntries(t, put, drop);
    const after = await getTicketItem(companyId, ticketId, true);
    if (!after || after.rev === t.rev) return;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading a lane

/** One index partition a lane page reads. */
interface Source {
  index: LaneIndex;
  pk: string;
}

/** Per source partition: the key to resume after, `null` when that partition is all read. */
type LaneCursor = { s: Record<string, Record<string, unknown> | null> };

/** Who reads the board and how: the caller, the queue filter, and the visibility settings `canSee` needs. */
interface Reader {
  auth: AuthContext;
  admin: boolean;
  /** The queues asked for (already narrowed to the caller's own for non-admins); undefined = no filter. */
  queues?: number[];
  vis: Awaited<ReturnType<typeof visibilityFor>>;
  kanban: ReadonlySet<number>;
}

/**
 * The partitions of lane `lane` the reader may see: admins the whole lane (or the asked queues and the tickets
 * without queue); others each of their queues (narrowed by the filter), the tickets without queue with `allTicket`
 * enabled, and their own tickets.
 */
function sourcesOf(r: Reader, lane: number): Source[] {
  const cid = r.auth.companyId;
  if (r.admin) {
    if (!r.queues) return [{ index: "GSI1", pk: keys.kanbanLanePK(cid, lane) }];
    return [...r.queues, null].map((q) => ({ index: "GSI2", pk: keys.kanbanQueuePK(cid, lane, q) }));
  }
  const own = r.queues ?? r.auth.queueIds;
  const out: Source[] = own.map((q) => ({ index: "GSI2", pk: keys.kanbanQueuePK(cid, lane, q) }));
  if (r.auth.allTicket === "enabled") out.push({ index: "GSI2", pk: keys.kanbanQueuePK(cid, lane, null) });
  out.push({ index: "GSI3", pk: keys.kanbanUserPK(cid, lane, r.auth.userId) });
  return out;
}

/** True when the card of `t` belongs in lane `lane` of this reader's board (the ticket as stored decides). */
function belongs(r: Reader, t: TicketItem | undefined, lane: number): t is TicketItem {
  if (!t || !lanesOf(t, r.kanban).includes(lane)) return false;
  if (!canSee(r.auth, t, r.vis)) return false;
  return !r.queues || t.queueId == null || r.queues.includes(t.queueId);
}

/**
 * One page of lane `lane`: each unfinished partition gives up to `limit` entries from its cursor; merged newest ticket
 * first, the first `limit` distinct tickets are taken (a ticket in two partitions, its queue and its assignee's, once),
 * so pages never skip nor repeat a ticket. The tickets are read in one batch and kept when they still belong.
 * A cursor naming partitions this reader does not read → 400 `ERR_INVALID_CURSOR`.
 */
async function lanePage(r: Reader, lane: number, limit: number, cursor?: string): Promise<KanbanLanePage> {
  const cid = r.auth.companyId;
  const sources = sourcesOf(r, lane);
  const cur = decodeCursor<LaneCursor>(cursor);
  const starts: Record<string, Record<string, unknown> | null | undefined> = {};
  if (cur) {
    if (!cur.s || typeof cur.s !== "object" || Array.isArray(cur.s)) throw new AppError("ERR_INVALID_CURSOR");
    for (const [pk, key] of Object.entries(cur.s)) {
      const src = sources.find((s) => s.pk === pk);
      if (!src) throw new AppError("ERR_INVALID_CURSOR");
      starts[pk] = key === null ? null : startKeyOf(key, cid, { pk, index: src.index, pkPrefix: keys.ticketPartitionPrefix(cid) });
    }
  }
  const reads = await Promise.all(
    sources.filter((s) => starts[s.pk] !== null).map(async (s) => ({ s, ...(await queryLane(s.index, s.pk, { limit, startKey: starts[s.pk] ?? undefined })) })),
  );
  const all: (LaneEntryRef & { pk: string })[] = reads.flatMap((x) => x.entries.map((e) => ({ ...e, pk: x.s.pk })));
  all.sort((a, b) => (a.sk < b.sk ? 1 : a.sk > b.sk ? -1 : 0));
  const ids: number[] = [];
  const lastTaken = new Map<string, Record<string, unknown>>();
  const taken = new Map<string, number>();
  let cutSk: string | undefined;
  for (const e of all) {
    if (ids.length >= limit && e.sk !== cutSk) break;
    if (!ids.includes(e.ticketId)) ids.push(e.ticketId);
    cutSk = e.sk;
    lastTaken.set(e.pk, e.key);
    taken.set(e.pk, (taken.get(e.pk) ?? 0) + 1);
  }
  const next: LaneCursor = { s: {} };
  let more = false;
  for (const s of sources) {
    const read = reads.find((x) => x.s.pk === s.pk);
    if (!read) {
      next.s[s.pk] = null;
      continue;
    }
    if ((taken.get(s.pk) ?? 0) === read.entries.length && !read.lastKey) next.s[s.pk] = null;
    else {
      more = true;
      const resume = lastTaken.get(s.pk) ?? starts[s.pk];
      if (resume) next.s[s.pk] = resume;
    }
  }
  const got = await batchGetTickets(cid, ids);
  const kept = ids.map((id) => got.get(id)).filter((t) => belongs(r, t, lane));
  return { tickets: (await toTicketViews(cid, kept)).map(cardOf), hasMore: more, nextCursor: more ? encodeCursor(next as unknown as Record<string, unknown>) : undefined };
}

/** The reader for `auth` with the query's queue filter (more than {@link MAX_LIST_FILTER_IDS} queues → 400). */
async function readerOf(auth: AuthContext, q: KanbanBoardQuery, kanban: number[]): Promise<Reader> {
  const requested = q.queueIds?.length ? [...new Set(q.queueIds)] : undefined;
  if (requested && requested.length > MAX_LIST_FILTER_IDS) {
    throw new AppError("ERR_VALIDATION", { fields: [{ path: "queueIds", message: `At most ${MAX_LIST_FILTER_IDS}` }] });
  }
  const admin = isAdminActor(auth);
  const queues = requested && !admin ? requested.filter((x) => auth.queueIds.includes(x)) : requested;
  return { auth, admin, queues, vis: await visibilityFor(auth, auth.companyId), kanban: new Set(kanban) };
}

/**
 * `GET /api/ticket/kanban` (any user of a company whose plan has `useKanban`): the lanes in board order ("Em aberto",
 * then the kanban tags in the tags' order), each with its first page of cards → `{lanes, tickets}` (`tickets`: every
 * card of those pages once). `queueIds` narrows to those of the caller's queues (admins: any queue of the company).
 */
export async function kanbanBoard(auth: AuthContext, q: KanbanBoardQuery): Promise<KanbanBoard> {
  const tags = (await listTags(auth.companyId)).filter((t) => t.kanban === 1);
  const r = await readerOf(auth, q, tags.map((t) => t.id));
  const limit = q.limit ?? KANBAN_PAGE_SIZE;
  const heads = [null, ...tags];
  const pages = await Promise.all(heads.map((t) => lanePage(r, t ? t.id : OPEN_LANE, limit)));
  const lanes: KanbanLane[] = heads.map((t, i) => ({ id: t ? t.id : OPEN_LANE, tag: t ? { id: t.id, name: t.name, color: t.color } : null, ...pages[i] }));
  const seen = new Set<number>();
  const tickets = lanes.flatMap((l) => l.tickets).filter((t) => !seen.has(t.id) && !!seen.add(t.id));
  return { lanes, tickets };
}

/**
 * `GET /api/ticket/kanban/{laneId}`: the next page of one lane (`cursor` from the lane's `nextCursor`). `laneId` 0 is
 * "Em aberto"; a tag of the company not flagged kanban, or no tag of the company → 404 `ERR_NO_TAG_FOUND`.
 */
export async function kanbanLanePage(auth: AuthContext, laneId: number, q: KanbanLaneQuery): Promise<KanbanLanePage> {
  const kanban = await kanbanTagIds(auth.companyId);
  if (laneId !== OPEN_LANE && !kanban.includes(laneId)) throw new AppError("ERR_NO_TAG_FOUND");
  const r = await readerOf(auth, q, kanban);
  return lanePage(r, laneId, q.limit ?? KANBAN_PAGE_SIZE, q.cursor);
}
