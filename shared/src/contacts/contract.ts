/** Contacts operations (the Contacts page; docs/product/contacts.md). */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";
import { ImportQuery, ImportReport } from "../contactLists/import-schema.ts";
import { defineRoutes, IdParams, MessageReply, page } from "../contract.ts";
import { JobStarted } from "../jobs/schema.ts";
import { ContactBody, ContactItem, ContactPatch, PhoneBookImportBody, PhoneBookImportCounts } from "./schema.ts";

/** Most contacts one bulk delete takes (`./import.ts`). */
export const BULK_DELETE_MAX = 500;

export const contactsRoutes = defineRoutes("contacts", {
  "GET /api/contacts": {
    auth: "user",
    query: z.object({
      searchParam: z.string().max(200).optional(),
      pageNumber: zPageNumber,
      cursor: z.string().max(4000).optional(),
      date: z.string().optional(),
      dateStart: z.string().optional(),
      dateEnd: z.string().optional(),
    }),
    response: page("contacts", ContactItem),
  },
  "GET /api/contacts/list": { auth: "user", query: z.object({ searchParam: z.string().max(200).optional() }), response: z.array(ContactItem) },
  "GET /api/contacts/{id}": { auth: "user", params: IdParams, response: ContactItem },
  "POST /api/contacts": { auth: "user", body: ContactBody, response: ContactItem },
  "PUT /api/contacts/{id}": { auth: "user", params: IdParams, body: ContactPatch, response: ContactItem },
  "DELETE /api/contacts/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  /** Multipart: one .xls, .xlsx or .csv in `file` (or `medias`); `?preview=true` writes nothing. Answers the import report. */
  "POST /api/contacts/upload": { auth: "user", query: ImportQuery, multipart: true, response: ImportReport },
  /** The connection's phone book into contacts: the counts, or 202 with a job for a large phone book. */
  "POST /api/contacts/import": {
    auth: "user",
    body: PhoneBookImportBody,
    response: z.union([PhoneBookImportCounts.extend({ total: z.number().int() }), JobStarted]),
  },
  /** Many contacts in one request (the page's "delete selected"). */
  "POST /api/contacts/delete": {
    auth: "admin",
    permission: "contacts-page:deleteContact",
    body: z.object({ contactIds: z.array(zId).min(1).max(BULK_DELETE_MAX) }),
    response: z.object({ deleted: z.number().int(), notFound: z.array(z.number().int()) }),
  },
});
