/**
 * Tickets carry their tags' name and colour (`tags: [{id,name,color}]`): a renamed, recoloured or deleted tag is
 * applied to every loaded ticket list and open ticket, so rows and the conversation header follow
 * `company-{id}-tag` frames without a refetch.
 */
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { ticketsKeys } from "../tickets/cache.ts";
import type { Ticket, TicketsPage } from "../tickets/types.ts";
import type { TicketTag } from "./types.ts";

function mapTickets(qc: QueryClient, fn: (tags: TicketTag[]) => TicketTag[] | null): void {
  const apply = (t: Ticket): Ticket => {
    const next = t.tags ? fn(t.tags) : null;
    return next ? { ...t, tags: next } : t;
  };
  for (const [key, data] of qc.getQueriesData<InfiniteData<TicketsPage>>({ queryKey: ticketsKeys.listsAll }))
    if (data?.pages) qc.setQueryData(key, { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.map(apply) })) });
  for (const [key, t] of qc.getQueriesData<Ticket>({ queryKey: [...ticketsKeys.all, "uuid"] })) if (t?.id) qc.setQueryData(key, apply(t));
}

/** Applies a tag frame to the tickets that carry the tag (others are left as they are). */
export const tagOnTickets: RealtimeHandler<"tag"> = (data, { queryClient }) => {
  if (data.action === "delete") {
    const id = data.tagId;
    mapTickets(queryClient, (tags) => (tags.some((x) => x.id === id) ? tags.filter((x) => x.id !== id) : null));
    return;
  }
  const tag = data.tag;
  if (data.action === "update")
    mapTickets(queryClient, (tags) => (tags.some((x) => x.id === tag.id) ? tags.map((x) => (x.id === tag.id ? { id: x.id, name: tag.name, color: tag.color } : x)) : null));
};
