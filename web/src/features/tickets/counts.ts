/**
 * Keeps the sub-tabs' counts live (docs/product/tickets.md#tab-counts): a ticket frame whose ticket entered, left or
 * moved between tabs (status, queue, assignee, group), or was deleted, reads the counts again, once per burst
 * ({@link COUNTS_DEBOUNCE_MS} after the last such frame). Frames that change none of these (a new message on a known
 * ticket) cost nothing.
 */
import type { QueryClient } from "@tanstack/react-query";
import { ticketsKeys } from "./cache.ts";
import type { Ticket } from "./types.ts";

/** Wait after the last frame of a burst before reading the counts again, in ms. */
export const COUNTS_DEBOUNCE_MS = 800;
/** Tickets whose last known place is kept (the oldest are forgotten first). */
const KEPT = 5000;

const places = new Map<number, string>();
let timer: ReturnType<typeof setTimeout> | undefined;

/** Notes a ticket from a frame (`null` with its id: deleted) and schedules a count refresh when its place changed or is new. */
export function noteTicketForCounts(qc: QueryClient, ticketId: number, ticket: Pick<Ticket, "status" | "queueId" | "userId" | "isGroup"> | null): void {
  const place = ticket ? `${ticket.status}|${ticket.queueId ?? ""}|${ticket.userId ?? ""}|${ticket.isGroup ? 1 : 0}` : "gone";
  if (places.get(ticketId) === place) return;
  places.delete(ticketId);
  places.set(ticketId, place);
  if (places.size > KEPT) places.delete(places.keys().next().value!);
  clearTimeout(timer);
  timer = setTimeout(() => void qc.invalidateQueries({ queryKey: ticketsKeys.countsAll }), COUNTS_DEBOUNCE_MS);
}
