/**
 * A campaign's audience (docs/product/campaigns.md#audience): the valid numbers of a contact list, or the contacts of
 * the tickets that carry a tag (each contact once). Read once when the campaign starts; the shippings keep it.
 */
import { requireContactList, validContactListItems } from "../contactLists/service.ts";
import { batchGetContacts } from "../contacts/repository.ts";
import { AppError } from "../errors.ts";
import { pagesFrom } from "../db/query.ts";
import { queryTagEdges } from "../tags/repository.ts";
import { getTicketItem } from "../tickets/repository.ts";

/** One member of an audience. */
export interface AudienceMember {
  name: string;
  number: string;
  email: string;
}

/** True when the company has that contact list. */
export async function contactListExists(companyId: number, contactListId: number): Promise<boolean> {
  try {
    await requireContactList(companyId, contactListId);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_NO_CONTACT_LIST_FOUND") return false;
    throw err;
  }
}

/** The list's valid numbers (those on WhatsApp), in pages of 100. */
async function* listAudience(companyId: number, contactListId: number): AsyncGenerator<AudienceMember[]> {
  let page: AudienceMember[] = [];
  for await (const item of validContactListItems(companyId, contactListId)) {
    page.push({ name: item.name, number: item.number, email: item.email });
    if (page.length >= 100) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

/** The contacts of every ticket tagged `tagId`, each contact once (groups left out), in pages. */
async function* tagAudience(companyId: number, tagId: number): AsyncGenerator<AudienceMember[]> {
  const seen = new Set<number>();
  for await (const page of pagesFrom((startKey) => queryTagEdges(companyId, tagId, { limit: 100, startKey }))) {
    const tickets = await Promise.all(page.edges.map((e) => getTicketItem(companyId, e.ticketId)));
    const ids = [...new Set(tickets.flatMap((t) => (t && !t.isGroup && !seen.has(t.contactId) ? [t.contactId] : [])))];
    for (const id of ids) seen.add(id);
    const contacts = await batchGetContacts(companyId, ids);
    yield ids.flatMap((id) => {
      const c = contacts.get(id);
      return c?.number && !c.isGroup ? [{ name: c.name, number: c.number, email: c.email ?? "" }] : [];
    });
  }
}

/** The campaign's audience in pages: its contact list's valid numbers, else its tag's contacts. */
export async function* audienceOf(c: { companyId: number; contactListId: number | null; tagListId: number | null }): AsyncGenerator<AudienceMember[]> {
  if (c.contactListId != null) yield* listAudience(c.companyId, c.contactListId);
  else if (c.tagListId != null) yield* tagAudience(c.companyId, c.tagListId);
}
