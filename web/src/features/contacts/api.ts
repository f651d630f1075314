/**
 * Contacts data (the Contacts page's `/contacts` calls): `useContactPages(search)` (GET /api/contacts,
 * cursor pages `{contacts, count, hasMore, nextCursor}`), `useContact(id)` (GET /api/contacts/{id}), and
 * `useContactMutations()` (POST / PUT / DELETE through the kit). `contactsCache` keeps every loaded page and single
 * contact current for mutations and `company-{id}-contact` events.
 */
import { useInfiniteQuery, useQuery, type QueryClient } from "@tanstack/react-query";
import type { ContactItem } from "@atende/shared/contacts/schema";
import { call, type ResponseOf } from "../../api/operations.ts";
import { isStale, pagedCache, useCrudMutations, type CrudCalls, type EntityCache } from "../../ui/kit/crud.ts";

export type Contact = ContactItem;
export type ContactsPage = ResponseOf<"GET /api/contacts">;
export interface ContactForm {
  name: string;
  number: string;
  email: string;
  disableBot: boolean;
  extraInfo: { name: string; value: string }[];
}

const contactsPages = pagedCache<Contact, "contacts">({ root: "contacts", field: "contacts", matches: (c, s) => !s || c.name.toLowerCase().includes(s.toLowerCase()) || c.number.includes(s.replace(/\D/g, "") || "\u0000") });

export const contactsKeys = { ...contactsPages.keys, one: (id: number) => ["contacts", "one", id] as const };

export function useContactPages(search: string) {
  return useInfiniteQuery({
    queryKey: contactsKeys.pages(search),
    queryFn: ({ pageParam }) => call("GET /api/contacts", { query: { searchParam: search, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
  });
}

/** One contact (GET /api/contacts/{id}), kept current by the same cache updates as the pages (the contact drawer). */
export function useContact(id: number | undefined) {
  return useQuery({ queryKey: contactsKeys.one(id ?? 0), enabled: !!id, queryFn: () => call("GET /api/contacts/{id}", { params: { id: id ?? 0 } }) });
}

/** The contacts pages and each loaded single contact, for mutations and `company-{id}-contact` frames. */
export const contactsCache: EntityCache<Contact> = {
  upsert(qc, c) {
    contactsPages.upsert(qc, c);
    qc.setQueryData<Contact>(contactsKeys.one(c.id), (cur) => (cur && !isStale(cur, c) ? { ...cur, ...c } : cur));
  },
  remove(qc, id) {
    contactsPages.remove(qc, id);
    qc.removeQueries({ queryKey: contactsKeys.one(id) });
  },
  reload: (qc) => contactsPages.reload(qc),
};

/** Inserts or replaces a contact in every loaded page (new ones first where they match the search); stale updates dropped. */
export const upsertContact = (qc: QueryClient, c: Contact) => contactsCache.upsert(qc, c);
export const removeContact = (qc: QueryClient, id: number) => contactsCache.remove(qc, id);

export const contactCalls: CrudCalls<Contact, ContactForm> = {
  create: (form) => call("POST /api/contacts", { body: form }),
  update: (id, form) => call("PUT /api/contacts/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/contacts/{id}", { params: { id } }),
};

export const useContactMutations = () => useCrudMutations(contactCalls, contactsCache);
