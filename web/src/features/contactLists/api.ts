/**
 * Contact lists data:
 * - `useContactListPages(search)`: GET /api/contact-lists → pages of `{records, count, hasMore}`; `contactListCalls`
 *   (POST, PUT /{id}, DELETE /{id}) run by `useContactListMutations()`;
 * - `useContactList(id)`: GET /api/contact-lists/{id} (the items page's title and count);
 * - `useContactListItemPages(listId, search)`: GET /api/contact-list-items?contactListId → pages of `{contacts, count,
 *   hasMore}`; `useContactListItemMutations(listId)`;
 * - `importContactList(listId, file, preview)`: POST /api/contact-lists/{id}/upload → the preview's report, or the
 *   import's background job (`{jobId, job}`, followed with `features/jobs`).
 * `contactListsCache` and `contactListItemsCache(listId)` keep pages current for mutations and frames.
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls, type PagedCache } from "../../ui/kit/crud.ts";

export type ContactList = ResponseOf<"GET /api/contact-lists/{id}">;
export type ContactListForm = BodyOf<"POST /api/contact-lists">;
export type ContactListItem = ResponseOf<"GET /api/contact-list-items/{id}">;
export type ContactListItemForm = BodyOf<"POST /api/contact-list-items">;
export type ImportAnswer = ResponseOf<"POST /api/contact-lists/{id}/upload">;
export type ImportReport = ResponseOf<"POST /api/contacts/upload">;

export const contactListsCache = pagedCache<ContactList, "records">({
  root: "contactLists",
  field: "records",
  matches: (l, s) => !s || l.name.toLowerCase().includes(s.toLowerCase()),
});
export const contactListKey = (id: number) => ["contactLists", "one", id] as const;

export const useContactListPages = (search: string) => useNumberedPages(contactListsCache, search, (query) => call("GET /api/contact-lists", { query }));

export const useContactList = (id: number) => useQuery({ queryKey: contactListKey(id), queryFn: () => call("GET /api/contact-lists/{id}", { params: { id } }) });

/** Keeps the one-list query (the items page's header) current with a list's frames. */
export function upsertContactList(qc: QueryClient, list: ContactList): void {
  contactListsCache.upsert(qc, list);
  qc.setQueryData(contactListKey(list.id), list);
}

export const contactListCalls: CrudCalls<ContactList, ContactListForm> = {
  create: (form) => call("POST /api/contact-lists", { body: form }),
  update: (id, form) => call("PUT /api/contact-lists/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/contact-lists/{id}", { params: { id } }),
};
export const useContactListMutations = () => useCrudMutations(contactListCalls, contactListsCache);

const itemCaches = new Map<number, PagedCache<ContactListItem>>();
/** The pages of one list's items (one cache per list). */
export function contactListItemsCache(listId: number): PagedCache<ContactListItem> {
  let c = itemCaches.get(listId);
  if (!c) {
    c = pagedCache<ContactListItem, "contacts">({
      root: `contactListItems-${listId}`,
      field: "contacts",
      matches: (i, s) => !s || `${i.name} ${i.number} ${i.email}`.toLowerCase().includes(s.toLowerCase()),
    });
    itemCaches.set(listId, c);
  }
  return c;
}

export const useContactListItemPages = (listId: number, search: string) =>
  useNumberedPages(contactListItemsCache(listId), search, (query) => call("GET /api/contact-list-items", { query: { ...query, contactListId: listId } }));

export const useContactListItemMutations = (listId: number) =>
  useCrudMutations<ContactListItem, ContactListItemForm>(
    {
      create: (form) => call("POST /api/contact-list-items", { body: form }),
      update: (id, form) => call("PUT /api/contact-list-items/{id}", { params: { id }, body: { name: form.name, number: form.number, email: form.email } }),
      remove: (id) => call("DELETE /api/contact-list-items/{id}", { params: { id } }),
    },
    contactListItemsCache(listId),
  );

/** Uploads a spreadsheet into a list: `preview` reads and reports without writing; otherwise a job imports it. */
export function importContactList(listId: number, file: File, preview: boolean): Promise<ImportAnswer> {
  const form = new FormData();
  form.append("file", file, file.name);
  return call("POST /api/contact-lists/{id}/upload", { params: { id: listId }, query: { preview: String(preview) }, form });
}
