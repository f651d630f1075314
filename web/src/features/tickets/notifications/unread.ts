/**
 * The unread-tickets list behind the top bar's notifications popover (docs/product/tickets.md#notifications:
 * `allTicket` enabled lets a user see pending tickets without queue in notifications).
 *
 * Which tickets: status open or pending with `unreadMessages > 0` that the user can see: open ones assigned to the
 * user; pending ones of the user's queues (any queue for admins; without queue only for admins and allTicket users).
 * This is exactly what `GET /api/tickets?status=open|pending&withUnreadMessages=true` answers, so the first load uses
 * that call and the realtime table (`features/tickets/realtime.ts`) keeps the cached list current with
 * {@link applyUnreadTicket} / {@link removeUnreadTicket}. Newest activity first.
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { call } from "../../../api/operations.ts";
import type { Viewer } from "../cache.ts";
import { isStale } from "../cache.ts";
import type { Ticket } from "../types.ts";

/** Cache key of the unread list (under `["tickets"]`, so invalidating every tickets query refreshes it too). */
export const unreadKey = ["tickets", "unread"] as const;

/** Cached shape: the tickets (newest activity first) and whether the server had more than were loaded. */
export interface UnreadTickets {
  tickets: Ticket[];
  more: boolean;
}

/** Most tickets loaded per status for the popover (pages of 40 are followed until this many or the end). */
export const UNREAD_LOAD_LIMIT = 120;

/** Whether `t` belongs in this viewer's notifications popover (mirrors the server's visibility rule). */
export function isUnreadFor(t: Pick<Ticket, "status" | "unreadMessages" | "userId" | "queueId">, v: Viewer): boolean {
  if (!(t.unreadMessages > 0)) return false;
  if (t.status === "open") return t.userId === v.userId;
  if (t.status !== "pending") return false;
  if (v.admin) return true;
  if (t.queueId == null) return v.allTicket;
  return v.queueIds.includes(t.queueId);
}

const newestFirst = (a: Ticket, b: Ticket) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.id - a.id);

/** GET /api/tickets?status=…&withUnreadMessages=true, following cursors up to {@link UNREAD_LOAD_LIMIT} tickets. */
async function loadStatus(status: "open" | "pending"): Promise<UnreadTickets> {
  const tickets: Ticket[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await call("GET /api/tickets", { query: { status, withUnreadMessages: "true", cursor } });
    tickets.push(...page.tickets);
    cursor = page.hasMore ? page.nextCursor : undefined;
    if (!cursor) return { tickets, more: false };
    if (tickets.length >= UNREAD_LOAD_LIMIT) return { tickets, more: true };
  }
}

/** Loads the unread list: open (mine) and pending (my queues) with unread messages, merged newest first. */
export async function fetchUnreadTickets(): Promise<UnreadTickets> {
  const [open, pending] = await Promise.all([loadStatus("open"), loadStatus("pending")]);
  const byId = new Map<number, Ticket>();
  for (const t of [...open.tickets, ...pending.tickets]) byId.set(t.id, t);
  return { tickets: [...byId.values()].sort(newestFirst), more: open.more || pending.more };
}

/** The unread list (react-query; live through the realtime table). */
export function useUnreadTickets(enabled = true) {
  return useQuery({ queryKey: unreadKey, queryFn: fetchUnreadTickets, enabled, staleTime: 60_000 });
}

/**
 * Applies a changed ticket (realtime `ticket` update or `appMessage` create) to the cached unread list: added or moved
 * to the top when it has unread messages the viewer may see, removed otherwise. Updates older than the cached copy are
 * dropped. Does nothing before the list is first loaded. Returns whether the list changed.
 */
export function applyUnreadTicket(qc: QueryClient, ticket: Ticket, viewer: Viewer): boolean {
  const data = qc.getQueryData<UnreadTickets>(unreadKey);
  if (!data) return false;
  const cached = data.tickets.find((t) => t.id === ticket.id);
  if (isStale(cached, ticket)) return false;
  const merged = { ...(cached ?? {}), ...ticket } as Ticket;
  const rest = data.tickets.filter((t) => t.id !== ticket.id);
  if (!isUnreadFor(merged, viewer)) {
    if (!cached) return false;
    qc.setQueryData<UnreadTickets>(unreadKey, { ...data, tickets: rest });
    return true;
  }
  qc.setQueryData<UnreadTickets>(unreadKey, { ...data, tickets: [...rest, merged].sort(newestFirst) });
  return true;
}

/** Removes a ticket (deleted) from the cached unread list. */
export function removeUnreadTicket(qc: QueryClient, ticketId: number): void {
  const data = qc.getQueryData<UnreadTickets>(unreadKey);
  if (!data?.tickets.some((t) => t.id === ticketId)) return;
  qc.setQueryData<UnreadTickets>(unreadKey, { ...data, tickets: data.tickets.filter((t) => t.id !== ticketId) });
}

/** The browser tab's title with the unread count: `(3) Atende` (`base` alone when nothing is unread; `99+` above 99). */
export function unreadTitle(base: string, count: number, more = false): string {
  if (count <= 0) return base;
  return `(${count > 99 ? "99+" : `${count}${more ? "+" : ""}`}) ${base}`;
}

/** The page's title when the app loaded (index.html's `<title>`). */
const baseTitle = typeof document !== "undefined" ? document.title || "Atende" : "Atende";

/**
 * Keeps the browser tab's title showing how many tickets have unread messages for this user, live with
 * the unread list; the plain title comes back on logout (unmount).
 */
export function useUnreadTitle(): void {
  const q = useUnreadTickets();
  const count = q.data?.tickets.length ?? 0;
  const more = !!q.data?.more;
  useEffect(() => {
    document.title = unreadTitle(baseTitle, count, more);
  }, [count, more]);
  useEffect(
    () => () => {
      document.title = baseTitle;
    },
    [],
  );
}

/** Renders nothing; mounted with the shell (the tickets menu entry's badge slot) to keep the tab title. */
export function UnreadTitle(): null {
  useUnreadTitle();
  return null;
}
