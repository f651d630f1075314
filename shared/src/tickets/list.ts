/**
 * The ticket list, `GET /api/tickets` (docs/product/tickets.md#the-list-and-its-tabs): the tabs as merged index
 * pages (one Query per index partition; the rows' nested data come from the summaries stored on the ticket items, so
 * a tab with one partition is ONE Query), the tag filter by its edges, and the search through `search.ts`.
 */
import { can } from "../access/permissions.ts";
import { canSee } from "../access/tickets.ts";
import { visibilityFor } from "../access/visibility.ts";
import { decodeCursor, encodeCursor, startKeyOf } from "../db/cursor.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { pageTaggedTicketIds } from "../tags/ticket-filter.ts";
import { isAdminActor, type TicketActor } from "./access.ts";
import { batchGetTickets, queryTicketIndex, type TicketIndex } from "./repository.ts";
import type { TicketItem, TicketStatus, TicketView } from "./schema.ts";
import { MAX_WALK, searchTickets } from "./search.ts";

export { MAX_WALK };
import { toTicketViews } from "./views.ts";

/** `GET /api/tickets` query, already parsed. */
export interface ListTicketsQuery {
  status?: TicketStatus;
  showAll?: boolean;
  queueIds?: number[];
  withUnreadMessages?: boolean;
  pageNumber?: number;
  cursor?: string;
  searchParam?: string;
  tags?: number[];
  users?: number[];
  /** `yyyy-mm-dd` (UTC): tickets created that day. */
  date?: string;
  /** `yyyy-mm-dd` (UTC): tickets last updated that day (a sort-key range, no filter). */
  updatedAt?: string;
  /** Page size, default 40. */
  limit?: number;
}

export interface ListTicketsResult {
  tickets: TicketView[];
  /** Tickets returned so far (this page plus the pages walked with `pageNumber`), not a company-wide total. */
  count: number;
  hasMore: boolean;
  nextCursor?: string;
}

/** One list source: a GSI partition read newest-first. */
interface Source {
  id: string;
  index: TicketIndex;
  pk: string;
}

type MergeCursor = { s: Record<string, Record<string, unknown> | null> };

const PAGE = 40;
/** At most this many users or queues in one list filter (each is one index partition read per status). */
export const MAX_LIST_FILTER_IDS = 20;
/** At most this many index partitions merged for one page (guards the fan-out of queues × statuses). */
export const MAX_LIST_SOURCES = 64;

/**
 * The queues a tab of queue partitions lists for the actor (pending, or show-all): admins every queue ("ALL") or the
 * requested ones and tickets without a queue; others their queues (narrowed to the requested ones) and, with
 * `allTicket` enabled, tickets without a queue (`null`).
 */
export function tabQueues(a: TicketActor, requested: number[] | undefined): (number | null)[] | "ALL" {
  if (isAdminActor(a)) return requested ? [...requested, null] : "ALL";
  const allowed = requested ? requested.filter((x) => a.queueIds.includes(x)) : a.queueIds;
  return [...allowed, ...(a.allTicket === "enabled" ? [null] : [])];
}

/**
 * Lists tickets for the actor (docs/product/tickets.md#the-list-and-its-tabs). No scans and no page-discarding filters:
 * - open (not showAll) and closed (not showAll): the actor's own tickets, GSI3 `S#<status>#U#<me>`;
 * - pending, or showAll (admins only): admins without queue filter read GSI1 `S#<status>`; otherwise one GSI2 query per
 *   allowed queue (`Q#NONE` for admins and allTicket users) merged k-way by `<updatedAt>#<id>` with a map cursor;
 * - `users` filter (admins only; ignored for others): GSI3 per user; `searchParam` (3+ chars): the `Search` port
 *   ({@link searchTickets}); `tags` (without a search text): the tag edges on GSI4 ({@link listTaggedTickets}).
 * Without `status` the three statuses are merged. Newest activity first. `cursor` (opaque, from `nextCursor`) or
 * `pageNumber` (walked server-side, at most 25 pages). Other companies' cursors → 400 `ERR_INVALID_CURSOR`. More than
 * {@link MAX_LIST_FILTER_IDS} users or queues in a filter, or more than {@link MAX_LIST_SOURCES} partitions, → 400
 * `ERR_VALIDATION` before any read.
 */
export async function listTickets(a: TicketActor, q: ListTicketsQuery): Promise<ListTicketsResult> {
  const limit = q.limit ?? PAGE;
  const term = q.searchParam?.trim() ?? "";
  const admin = isAdminActor(a);
  // The user filter is the admins' (search tab); other callers' `users` is ignored.
  if (!admin && q.users?.length) q = { ...q, users: undefined };
  if (term.length >= 3) return searchTickets(a, term, q, limit);
  if (q.tags?.length) return listTaggedTickets(a, q, limit);

  const showAll = can(a, "tickets-manager:showall") && !!q.showAll;
  const statuses: TicketStatus[] = q.status ? [q.status] : ["open", "pending", "closed"];
  const sources: Source[] = [];
  const cid = a.companyId;
  const addSource = (index: TicketIndex, pk: string) => {
    if (!sources.some((s) => s.pk === pk)) sources.push({ id: `${index}|${pk}`, index, pk });
  };
  const requested = q.queueIds?.length ? [...new Set(q.queueIds)] : undefined;
  if (requested && requested.length > MAX_LIST_FILTER_IDS) {
    throw new AppError("ERR_VALIDATION", { fields: [{ path: "queueIds", message: `At most ${MAX_LIST_FILTER_IDS}` }] });
  }
  if (q.users && new Set(q.users).size > MAX_LIST_FILTER_IDS) {
    throw new AppError("ERR_VALIDATION", { fields: [{ path: "users", message: `At most ${MAX_LIST_FILTER_IDS}` }] });
  }
  const queuesFor = () => tabQueues(a, requested);
  for (const status of statuses) {
    if (q.users?.length) {
      for (const uid of q.users) addSource("GSI3", keys.ticketUserPK(cid, status, uid));
      continue;
    }
    if (status !== "pending" && !showAll) {
      addSource("GSI3", keys.ticketUserPK(cid, status, a.userId));
      continue;
    }
    const qs = queuesFor();
    if (qs === "ALL") addSource("GSI1", keys.ticketStatusPK(cid, status));
    else for (const qid of qs) addSource("GSI2", keys.ticketQueuePK(cid, status, qid));
  }

  if (sources.length > MAX_LIST_SOURCES) throw new AppError("ERR_VALIDATION", { fields: [{ path: "queueIds", message: "Too many queues" }] });

  // Optional filters (rarely used; FilterExpression only for them). The updatedAt day is a key range instead.
  const filterParts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (q.withUnreadMessages) {
    filterParts.push("unreadMessages > :zeroUnread");
    values[":zeroUnread"] = 0;
  }
  if (q.date) {
    filterParts.push("begins_with(createdAt, :createdDay)");
    values[":createdDay"] = q.date;
  }
  // Group tickets of others only with viewgroups (`canSee`); closed ones of others are never listed
  // here for non-admins (closed lists their own, GSI3).
  if (!admin && (await visibilityFor(a, cid))?.viewgroups !== "enabled") {
    filterParts.push("(attribute_not_exists(isGroup) OR isGroup = :notGroup OR userId = :me)");
    values[":notGroup"] = false;
    values[":me"] = a.userId;
  }
  const filter = filterParts.length ? { expression: filterParts.join(" AND "), names: Object.keys(names).length ? names : undefined, values } : undefined;
  const skBetween: [string, string] | undefined = q.updatedAt ? [q.updatedAt, `${q.updatedAt}~`] : undefined;

  let cursor = q.cursor;
  let walked = 0;
  if (!cursor && (q.pageNumber ?? 1) > 1) {
    const pages = Math.min((q.pageNumber ?? 1) - 1, MAX_WALK);
    for (let i = 0; i < pages; i++) {
      const p = await mergePage(cid, sources, limit, cursor, filter, skBetween);
      walked += p.items.length;
      cursor = p.nextCursor;
      if (!cursor) return { tickets: [], count: walked, hasMore: false };
    }
  }
  const page = await mergePage(cid, sources, limit, cursor, filter, skBetween);
  const tickets = await toTicketViews(cid, page.items);
  return { tickets, count: walked + tickets.length, hasMore: !!page.nextCursor, nextCursor: page.nextCursor };
}

/**
 * One merged page over `sources`: each source is queried (in parallel) for `limit` items from its cursor position;
 * items are merged newest-first and emitted while they are not older than any unfinished source's frontier, so pages
 * never skip or repeat a ticket. The next cursor maps each source to the key of its last emitted item (`null` = done).
 */
async function mergePage(
  companyId: number,
  sources: Source[],
  limit: number,
  cursor: string | undefined,
  filter: Parameters<typeof queryTicketIndex>[2]["filter"],
  skBetween: [string, string] | undefined,
): Promise<{ items: TicketItem[]; nextCursor?: string }> {
  const cur = decodeCursor<MergeCursor>(cursor);
  const starts: Record<string, Record<string, unknown> | null | undefined> = {};
  if (cur) {
    if (!cur.s || typeof cur.s !== "object") throw new AppError("ERR_INVALID_CURSOR");
    for (const [id, key] of Object.entries(cur.s)) {
      const src = sources.find((s) => s.id === id);
      if (!src) throw new AppError("ERR_INVALID_CURSOR");
      starts[id] = key === null ? null : startKeyOf(key, companyId, { pk: src.pk, index: src.index, pkPrefix: keys.ticketPartitionPrefix(companyId) });
    }
  }
  type Item = Awaited<ReturnType<typeof queryTicketIndex>>["items"][number];
  type State = { s: Source; start?: Record<string, unknown>; buffer: Item[]; next?: Record<string, unknown>; exhausted: boolean; lastEmitted?: Record<string, unknown> };
  const states: State[] = sources
    .filter((s) => starts[s.id] !== null)
    .map((s) => ({ s, start: starts[s.id] ?? undefined, buffer: [], exhausted: false }));
  const fetch = async (st: State, n: number) => {
    const r = await queryTicketIndex(st.s.index, st.s.pk, { limit: n, startKey: st.next ?? st.start, filter, skBetween });
    st.buffer.push(...r.items);
    st.next = r.lastKey;
    st.exhausted = !r.lastKey;
  };
  const frontier = (st: State) => String(st.next?.[`${st.s.index}SK`] ?? "");
  // Round 1 reads a share of the page from every source (not a whole page each); later rounds read more only from the
  // sources whose unread items could still belong to this page.
  const share = states.length <= 1 ? limit : Math.min(limit, Math.ceil((limit * 1.5) / states.length) + 1);
  await Promise.all(states.map((st) => fetch(st, share)));
  const emitted: Item[] = [];
  const seen = new Set<number>();
  for (let round = 0; round < 6; round++) {
    while (emitted.length < limit) {
      let best: State | undefined;
      for (const st of states) if (st.buffer.length && (!best || st.buffer[0]._sk > best.buffer[0]._sk)) best = st;
      if (!best) break;
      // Nothing older than an unfinished source's frontier may be emitted before that source is read further.
      let threshold = "";
      for (const st of states) if (!st.exhausted && frontier(st) > threshold) threshold = frontier(st);
      if (best.buffer[0]._sk < threshold) break;
      const it = best.buffer.shift()!;
      best.lastEmitted = it._key;
      if (seen.has(it.id)) continue; // a GSI briefly lagging can show a ticket in two partitions
      seen.add(it.id);
      emitted.push(it);
    }
    if (emitted.length >= limit) break;
    const open = states.filter((st) => !st.exhausted);
    if (!open.length) break;
    // The latest frontier (ISO-ordered strings, so no Math.max).
    const top = open.map(frontier).sort().at(-1);
    const blocking = open.filter((st) => frontier(st) === top);
    await Promise.all(blocking.map((st) => fetch(st, limit - emitted.length + 1)));
  }
  const next: MergeCursor = { s: {} };
  let more = false;
  for (const s of sources) {
    if (starts[s.id] === null) {
      next.s[s.id] = null;
      continue;
    }
    const st = states.find((x) => x.s.id === s.id)!;
    // Everything read was emitted: continue after the last read key; else after the last emitted item (or where we began).
    const key = st.buffer.length ? (st.lastEmitted ?? st.start) : (st.next ?? null);
    if (key === undefined) more = true;
    else {
      next.s[s.id] = key;
      if (key !== null) more = true;
    }
  }
  // The index position is not enumerable on the items (`queryTicketIndex`): they are the page as they are.
  return { items: emitted, nextCursor: more ? encodeCursor(next as unknown as Record<string, unknown>) : undefined };
}

/**
 * The search tab's tag filter, served by keys (the tag edges on GSI4): pages of the tickets
 * carrying any of `q.tags` (newest ticket first, see `tags/ticket-filter.ts`), read in one BatchGet per page, then kept
 * when the actor may see them (as in {@link searchTickets}) and they match status, users (admins), queues and the
 * other filters. Filtering discards only tagged tickets, never pages of a status index. `nextCursor` / `pageNumber`.
 */
async function listTaggedTickets(a: TicketActor, q: ListTicketsQuery, limit: number): Promise<ListTicketsResult> {
  const cid = a.companyId;
  const queues = q.queueIds?.length ? new Set(q.queueIds) : undefined;
  const vis = await visibilityFor(a, cid);
  const keep = (t: TicketItem) =>
    canSee(a, t, vis) &&
    (!q.status || t.status === q.status) &&
    (!q.users?.length || (t.userId != null && q.users.includes(t.userId))) &&
    (!queues || t.queueId == null || queues.has(t.queueId)) &&
    (!q.withUnreadMessages || t.unreadMessages > 0) &&
    (!q.date || t.createdAt.startsWith(q.date)) &&
    (!q.updatedAt || t.updatedAt.startsWith(q.updatedAt));
  // One page: edge pages until `limit` tickets are kept (at most 5 reads), so a rare match still fills the page.
  const runPage = async (cursor?: string) => {
    const out: TicketItem[] = [];
    let next = cursor;
    for (let round = 0; round < 5 && out.length < limit; round++) {
      const ids = await pageTaggedTicketIds(cid, q.tags!, limit - out.length, next);
      const got = await batchGetTickets(cid, ids.ticketIds);
      for (const id of ids.ticketIds) {
        const t = got.get(id);
        if (t?.tagIds.some((x) => q.tags!.includes(x)) && keep(t)) out.push(t);
      }
      next = ids.nextCursor;
      if (!next) break;
    }
    return { tickets: out, next };
  };
  let cursor = q.cursor;
  let walked = 0;
  if (!cursor && (q.pageNumber ?? 1) > 1) {
    for (let i = 0; i < Math.min((q.pageNumber ?? 1) - 1, MAX_WALK); i++) {
      const p = await runPage(cursor);
      walked += p.tickets.length;
      if (!p.next) return { tickets: [], count: walked, hasMore: false };
      cursor = p.next;
    }
  }
  const page = await runPage(cursor);
  const views = await toTicketViews(cid, page.tickets);
  return { tickets: views, count: walked + views.length, hasMore: !!page.next, nextCursor: page.next };
}
