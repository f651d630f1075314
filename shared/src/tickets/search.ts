/**
 * Ticket search in the list (docs/product/search.md): `GET /api/tickets?searchParam=` through the `Search` port
 * (`search/index.ts`), filtered by the caller's access and the list filters, pages of 40 like the tabs.
 */
import { canSee } from "../access/tickets.ts";
import { visibilityFor } from "../access/visibility.ts";
import { search } from "../search/index.ts";
import type { TicketActor } from "./access.ts";
import type { ListTicketsQuery, ListTicketsResult } from "./list.ts";
import type { TicketItem } from "./schema.ts";
import { toTicketViews } from "./views.ts";

/** Pages walked server-side at most for `pageNumber` (the list and the search alike). */
export const MAX_WALK = 25;

/**
 * Ticket search through the `Search` port (`search/index.ts`): tickets whose contact's name or email words
 * start with the words of `term` or whose number contains its digit runs (≥ 4), and tickets whose messages hold its
 * words (those carry `searchSnippet`, the matching message's text around the word); accent- and case-insensitive. Each ticket once, `limit` (40) per page, only those the actor may see
 * ({@link canSee}) and that match status, tags, users (admins), unread and the day filters. `nextCursor` (opaque,
 * rejected for another company) or `pageNumber` (walked server-side, at most 25 pages).
 */
export async function searchTickets(a: TicketActor, term: string, q: ListTicketsQuery, limit: number): Promise<ListTicketsResult> {
  const cid = a.companyId;
  const vis = await visibilityFor(a, cid);
  const accept = (t: TicketItem) =>
    canSee(a, t, vis) &&
    (!q.status || t.status === q.status) &&
    (!q.tags?.length || q.tags.some((tag) => t.tagIds.includes(tag))) &&
    (!q.users?.length || (t.userId != null && q.users.includes(t.userId))) &&
    (!q.withUnreadMessages || t.unreadMessages > 0) &&
    (!q.date || t.createdAt.startsWith(q.date)) &&
    (!q.updatedAt || t.updatedAt.startsWith(q.updatedAt));
  let cursor = q.cursor;
  let walked = 0;
  if (!cursor && (q.pageNumber ?? 1) > 1) {
    for (let i = 0; i < Math.min((q.pageNumber ?? 1) - 1, MAX_WALK); i++) {
      const p = await search.tickets(cid, term, { limit, cursor, accept });
      walked += p.tickets.length;
      if (!p.nextCursor) return { tickets: [], count: walked, hasMore: false };
      cursor = p.nextCursor;
    }
  }
  const page = await search.tickets(cid, term, { limit, cursor, accept });
  const views = (await toTicketViews(cid, page.tickets)).map((v) => {
    const snippet = page.snippets?.get(v.id);
    return snippet ? { ...v, searchSnippet: snippet } : v;
  });
  return { tickets: views, count: walked + views.length, hasMore: !!page.nextCursor, nextCursor: page.nextCursor };
}
