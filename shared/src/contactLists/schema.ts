/**
 * Contact lists (the audiences of campaigns) and their items: a list has a name and the exact count of its items;
 * an item is a person to reach (name, number, email) with `isWhatsappValid` as the session runner last found it
 * (docs/product/contact-lists.md). Three blocks: stored items, requests (the edge parses every input with these),
 * responses and realtime shapes.
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";

/** Lists per page of `GET /api/contact-lists`. */
export const CONTACT_LISTS_PAGE_SIZE = 20;
/** Items per page of `GET /api/contact-list-items`. */
export const CONTACT_LIST_ITEMS_PAGE_SIZE = 40;

// ---------------------------------------------------------------------------------------------
// 1. Stored items

/** Contact list `C#<cid>` / `CLIST#<id>`: `contactsCount` moves in the same transaction as every item write. */
export const ContactListRow = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  contactsCount: z.number().int().min(0),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactListRow = z.infer<typeof ContactListRow>;

/**
 * Contact list item `C#<cid>#CLIST#<listId>` / `CLI#<id>`. `number` is the normalized number (country code, area
 * code, number; digits only; Brazilian mobiles with their ninth digit), unique in its list. `isWhatsappValid` is what
 * the last WhatsApp check answered (false until checked); `whatsappCheckedAt` when that was (null: not yet).
 */
export const ContactListItemRow = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  contactListId: z.number().int(),
  name: z.string(),
  number: z.string(),
  email: z.string().default(""),
  isWhatsappValid: z.boolean().default(false),
  whatsappCheckedAt: z.string().nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactListItemRow = z.infer<typeof ContactListItemRow>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

const required = (iss: { input?: unknown }) => (iss.input == null ? "Required" : "Invalid input");

/** A contact list's name: required, 2-50 characters (trimmed). */
const listName = z.string({ error: required }).trim().min(2, "Too Short!").max(50, "Too Long!");

/** `POST /api/contact-lists` and `PUT /api/contact-lists/{id}`: `{name}`; a `companyId` in the body is ignored. */
export const ContactListBody = z.object({ name: listName });
export type ContactListBody = z.infer<typeof ContactListBody>;

/** `GET /api/contact-lists`: `searchParam` (name contains, accent- and case-insensitive), `pageNumber`. */
export const PageContactListsQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber: zPageNumber });
export type PageContactListsQuery = z.infer<typeof PageContactListsQuery>;

/** `GET /api/contact-lists/list`: the spec's `companyId` is accepted; the company is always the caller's. */
export const ListContactListsQuery = z.object({ companyId: z.string().max(20).optional() });

export const ContactListIdParams = z.object({ id: zId });

const itemFields = {
  name: z.string({ error: required }).trim().min(2, "Too Short!").max(50, "Too Long!"),
  number: z.string({ error: required }).trim().min(8, "Too Short!").max(50, "Too Long!"),
  email: z.string().trim().toLowerCase().email("Invalid email").or(z.literal("")),
};

/** `POST /api/contact-list-items`: name 2-50, number 8-50 characters, email valid or empty, the list. `companyId` ignored. */
export const CreateContactListItemBody = z.object({
  name: itemFields.name,
  number: itemFields.number,
  email: itemFields.email.default(""),
  contactListId: zId,
});
export type CreateContactListItemBody = z.infer<typeof CreateContactListItemBody>;

/** `PUT /api/contact-list-items/{id}`: every field optional (absent = unchanged); the list never changes. */
export const UpdateContactListItemBody = z.object({
  name: itemFields.name.optional(),
  number: itemFields.number.optional(),
  email: itemFields.email.optional(),
});
export type UpdateContactListItemBody = z.infer<typeof UpdateContactListItemBody>;

/** `GET /api/contact-list-items`: the list (required), `searchParam` (name, number or email contains), `pageNumber`. */
export const PageContactListItemsQuery = z.object({
  contactListId: zId,
  searchParam: z.string().max(100).optional(),
  pageNumber: zPageNumber,
});
export type PageContactListItemsQuery = z.infer<typeof PageContactListItemsQuery>;

export const ContactListItemIdParams = z.object({ id: zId });

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/** A contact list as every route answers it. */
export const ContactList = ContactListRow;
export type ContactList = ContactListRow;

/** A contact list item as every route answers it. */
export const ContactListItem = ContactListItemRow;
export type ContactListItem = ContactListItemRow;

/** `GET /api/contact-lists`: one page by name; `count` = the lists matching the search. */
export const ContactListsPage = z.object({ records: z.array(ContactList), count: z.number().int(), hasMore: z.boolean() });
export type ContactListsPage = z.infer<typeof ContactListsPage>;

/** `GET /api/contact-lists/list`: every list of the company, by name. */
export const ContactListList = z.array(ContactList);

/** `GET /api/contact-list-items`: one page by name; `count` = the list's items matching the search. */
export const ContactListItemsPage = z.object({ contacts: z.array(ContactListItem), count: z.number().int(), hasMore: z.boolean() });
export type ContactListItemsPage = z.infer<typeof ContactListItemsPage>;

/** `DELETE` answers. */
export const ContactListDeleted = z.object({ message: z.string() });

/** `company-{id}-ContactList` frames. */
export const ContactListEvent = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), record: ContactList }),
  z.object({ action: z.literal("update"), record: ContactList }),
  z.object({ action: z.literal("delete"), id: z.number().int() }),
]);
export type ContactListEvent = z.infer<typeof ContactListEvent>;

/** `company-{id}-ContactListItem` frames (the list's id rides along so a page of another list ignores them). */
export const ContactListItemEvent = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), record: ContactListItem }),
  z.object({ action: z.literal("update"), record: ContactListItem }),
  z.object({ action: z.literal("delete"), id: z.number().int(), contactListId: z.number().int() }),
  /** Many items changed at once (an import, a WhatsApp check): reload the list's page. */
  z.object({ action: z.literal("reload"), contactListId: z.number().int() }),
]);
export type ContactListItemEvent = z.infer<typeof ContactListItemEvent>;
