/**
 * Tickets and messages cache updates, shared by mutations and the realtime table (docs/product/realtime.md#channels:
 * `company-{id}-ticket` update/delete, `company-{id}-appMessage` create/update). An update older than the cached
 * `updatedAt` of the same record is dropped, so late or replayed frames never undo newer data.
 */
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Message, MessagesPage, Ticket, TicketListParams, TicketsPage } from "./types.ts";

export const ticketsKeys = {
  all: ["tickets"] as const,
  listsAll: ["tickets", "list"] as const,
  countsAll: ["tickets", "counts"] as const,
  counts: (p: { showAll?: boolean; queueIds?: number[] }) => ["tickets", "counts", p] as const,
  list: (p: TicketListParams) => ["tickets", "list", p] as const,
  byUuid: (uuid: string) => ["tickets", "uuid", uuid] as const,
  messages: (ticketId: number) => ["messages", ticketId] as const,
  notes: (ticketId: number) => ["ticket-notes", ticketId] as const,
};

/** Who looks at the lists: decides where a changed ticket belongs. */
export interface Viewer {
  userId: number;
  admin: boolean;
  queueIds: number[];
  allTicket: boolean;
}

/** True when `incoming` is older than `cached` (both ISO times); such an update is dropped. */
export function isStale(cached: { updatedAt?: string } | undefined, incoming: { updatedAt?: string }): boolean {
  return !!cached?.updatedAt && !!incoming.updatedAt && incoming.updatedAt < cached.updatedAt;
}

/** Whether a ticket belongs in a list with these filters, for this viewer (mirrors `listTickets` on the server). */
export function belongs(t: Ticket, p: TicketListParams, v: Viewer): boolean {
  if (p.searchParam) return false; // search results are only updated in place
  if (p.status && t.status !== p.status) return false;
  if (p.isGroup !== undefined && t.isGroup !== p.isGroup) return false;
  if (p.tags?.length && !p.tags.every((id) => t.tags?.some((tg) => tg.id === id))) return false;
  if (p.users?.length) return t.userId != null && p.users.includes(t.userId);
  const showAll = v.admin && !!p.showAll;
  if (t.status !== "pending" && !showAll) return t.userId === v.userId;
  if (p.queueIds?.length && t.queueId != null && !p.queueIds.includes(t.queueId)) return false;
  if (v.admin) return true;
  if (t.queueId == null) return v.allTicket;
  return v.queueIds.includes(t.queueId);
}

const sortKey = (t: Ticket) => `${t.updatedAt}#${String(t.id).padStart(12, "0")}`;

/**
 * Applies a changed ticket to every loaded list (inserted in activity order where it belongs, removed where it no
 * longer does) and to its single-ticket cache. Returns false when the update was stale and dropped.
 */
export function upsertTicket(qc: QueryClient, ticket: Ticket, viewer: Viewer): boolean {
  const single = qc.getQueryData<Ticket>(ticketsKeys.byUuid(ticket.uuid));
  if (isStale(single, ticket)) return false;
  if (single) qc.setQueryData<Ticket>(ticketsKeys.byUuid(ticket.uuid), { ...single, ...ticket });
  for (const [key, data] of qc.getQueriesData<InfiniteData<TicketsPage>>({ queryKey: ticketsKeys.listsAll })) {
    if (!data) continue;
    const params = (key[2] ?? {}) as TicketListParams;
    const cached = data.pages.flatMap((pg) => pg.tickets).find((x) => x.id === ticket.id);
    if (isStale(cached, ticket)) continue;
    const inList = belongs(ticket, params, viewer);
    let pages = data.pages.map((pg) => ({ ...pg, tickets: pg.tickets.filter((x) => x.id !== ticket.id) }));
    if (params.searchParam) {
      if (!cached) continue;
      pages = data.pages.map((pg) => ({ ...pg, tickets: pg.tickets.map((x) => (x.id === ticket.id ? { ...x, ...ticket } : x)) }));
    } else if (inList) {
      const merged = { ...(cached ?? {}), ...ticket } as Ticket;
      const k = sortKey(merged);
      let placed = false;
      pages = pages.map((pg, i) => {
        if (placed) return pg;
        const idx = pg.tickets.findIndex((x) => sortKey(x) < k);
        const last = i === pages.length - 1;
        if (idx >= 0 || (last && !pg.hasMore)) {
          placed = true;
          const at = idx >= 0 ? idx : pg.tickets.length;
          return { ...pg, tickets: [...pg.tickets.slice(0, at), merged, ...pg.tickets.slice(at)] };
        }
        return pg;
      });
      if (!placed && pages.length) pages[0] = { ...pages[0], tickets: [merged, ...pages[0].tickets] };
    } else if (!cached) continue;
    qc.setQueryData<InfiniteData<TicketsPage>>(key, { ...data, pages });
  }
  return true;
}

/** Removes a ticket from every loaded list (deleted, or no longer visible to this user). */
export function removeTicket(qc: QueryClient, ticketId: number): void {
  for (const [key, data] of qc.getQueriesData<InfiniteData<TicketsPage>>({ queryKey: ticketsKeys.listsAll })) {
    if (!data?.pages.some((p) => p.tickets.some((t) => t.id === ticketId))) continue;
    qc.setQueryData<InfiniteData<TicketsPage>>(key, { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== ticketId) })) });
  }
}

/**
 * Adds a new message at the end of its conversation (first page = newest) or replaces a changed one in place.
 * Returns false when it was stale. Conversations not loaded are left alone (they load fresh when opened).
 */
export function upsertMessage(qc: QueryClient, message: Message): boolean {
  const key = ticketsKeys.messages(message.ticketId);
  const data = qc.getQueryData<InfiniteData<MessagesPage>>(key);
  if (!data) return true;
  const cached = data.pages.flatMap((p) => p.messages).find((m) => m.id === message.id);
  if (cached) {
    if (isStale(cached, message)) return false;
    qc.setQueryData<InfiniteData<MessagesPage>>(key, {
      ...data,
      pages: data.pages.map((p) => ({ ...p, messages: p.messages.map((m) => (m.id === message.id ? { ...m, ...message } : m)) })),
    });
    return true;
  }
  const first = data.pages[0] ?? { messages: [], count: 0, hasMore: false };
  const msgs = [...first.messages, message].sort((a, b) => (a.waTimestamp < b.waTimestamp ? -1 : a.waTimestamp > b.waTimestamp ? 1 : 0));
  qc.setQueryData<InfiniteData<MessagesPage>>(key, { ...data, pages: [{ ...first, messages: msgs, count: first.count + 1 }, ...data.pages.slice(1)] });
  return true;
}

/** Every message of a loaded conversation, oldest first. */
export function flattenMessages(data: InfiniteData<MessagesPage> | undefined): Message[] {
  if (!data) return [];
  return [...data.pages].reverse().flatMap((p) => p.messages);
}
