/**
 * Contacts data (attendance.md §2 Contacts page, §7 `/contacts` calls): `useContactPages(search)` (GET /api/contacts,
 * cursor pages `{contacts, count, hasMore, nextCursor}`), `useSaveContact()` (POST / PUT), `useDeleteContact()`.
 * `upsertContact`/`removeContact` keep every loaded page current for mutations and `company-{id}-contact` events.
 */
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import type { ContactItem } from "@atende/shared/contacts/schema";
import { call } from "../../api/operations.ts";

export type Contact = ContactItem;
export interface ContactsPage {
  contacts: Contact[];
  count: number;
  hasMore: boolean;
  nextCursor?: string;
}
export interface ContactForm {
  name: string;
  number: string;
  email: string;
  disableBot: boolean;
  extraInfo: { name: string; value: string }[];
}

export const contactsKeys = { all: ["contacts"] as const, pagesAll: ["contacts", "pages"] as const, pages: (s: string) => ["contacts", "pages", s] as const };

export function useContactPages(search: string) {
  return useInfiniteQuery({
    queryKey: contactsKeys.pages(search),
    queryFn: ({ pageParam }) => call("GET /api/contacts", { query: { searchParam: search, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
  });
}

const matches = (c: Contact, s: string) => !s || c.name.toLowerCase().includes(s.toLowerCase()) || c.number.includes(s.replace(/\D/g, "") || "\u0000");

/** Inserts or replaces a contact in every loaded page (new ones first where they match the search); stale updates dropped. */
export function upsertContact(qc: QueryClient, c: Contact): void {
  for (const [key, data] of qc.getQueriesData<InfiniteData<ContactsPage>>({ queryKey: contactsKeys.pagesAll })) {
    if (!data) continue;
    const cur = data.pages.flatMap((p) => p.contacts).find((x) => x.id === c.id);
    if (cur && cur.updatedAt && c.updatedAt && c.updatedAt < cur.updatedAt) continue;
    let pages: ContactsPage[];
    if (cur) pages = data.pages.map((p) => ({ ...p, contacts: p.contacts.map((x) => (x.id === c.id ? { ...x, ...c } : x)) }));
    else if (matches(c, String(key[2] ?? ""))) pages = data.pages.map((p, i) => (i === 0 ? { ...p, contacts: [c, ...p.contacts], count: p.count + 1 } : p));
    else continue;
    qc.setQueryData<InfiniteData<ContactsPage>>(key, { ...data, pages });
  }
}

export function removeContact(qc: QueryClient, id: number): void {
  for (const [key, data] of qc.getQueriesData<InfiniteData<ContactsPage>>({ queryKey: contactsKeys.pagesAll })) {
    if (!data?.pages.some((p) => p.contacts.some((x) => x.id === id))) continue;
    qc.setQueryData<InfiniteData<ContactsPage>>(key, { ...data, pages: data.pages.map((p) => ({ ...p, contacts: p.contacts.filter((x) => x.id !== id) })) });
  }
}

export function useSaveContact() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id?: number; form: ContactForm }) =>
      id ? call("PUT /api/contacts/{id}", { params: { id }, body: form }) : call("POST /api/contacts", { body: form }),
    onSuccess: (c) => {
      if (c && typeof c === "object" && "id" in c) upsertContact(qc, c);
    },
  });
}

export function useDeleteContact() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => call("DELETE /api/contacts/{id}", { params: { id } }), onSuccess: (_r, id) => removeContact(qc, id) });
}
