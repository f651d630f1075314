/**
 * Tags data (docs/product/tags.md; `/tags/list`, `/tags/sync` included):
 * - `useTagPages(search)`: GET /api/tags?searchParam&pageNumber → pages of `{tags, count, hasMore}`;
 * - `useTagList()`: GET /api/tags/list → every tag of the company (pickers, filters);
 * - `tagCalls` (POST /api/tags, PUT /api/tags/{id}, DELETE /api/tags/{id}) run by `useTagMutations()`;
 * - `syncTicketTags(ticketId, tagIds)`: POST /api/tags/sync `{ticketId, tags:[{id}]}` (the ticket's whole tag set).
 * `tagsCache` keeps pages and list current for mutations and `company-{id}-tag` frames.
 */
import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls } from "../../ui/kit/crud.ts";
import type { Tag, TagForm } from "./types.ts";

export const tagsCache = pagedCache<Tag, "tags">({
  root: "tags",
  field: "tags",
  matches: (tag, s) => !s || tag.name.toLowerCase().includes(s.toLowerCase()),
  withList: true,
});
export const tagsKeys = tagsCache.keys;

export const useTagPages = (search: string) => useNumberedPages(tagsCache, search, (query) => call("GET /api/tags", { query }));

export function useTagList(enabled = true) {
  return useQuery({
    queryKey: tagsKeys.list,
    enabled,
    queryFn: () => call("GET /api/tags/list"),
  });
}

export const tagCalls: CrudCalls<Tag, TagForm> = {
  create: (form) => call("POST /api/tags", { body: form }),
  update: (id, form) => call("PUT /api/tags/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/tags/{id}", { params: { id } }),
};

export const useTagMutations = () => useCrudMutations(tagCalls, tagsCache);

/** Replaces the tags of a ticket with `tagIds` (POST /api/tags/sync). */
export const syncTicketTags = (ticketId: number, tagIds: number[]) => call("POST /api/tags/sync", { body: { ticketId, tags: tagIds.map((id) => ({ id })) } });
