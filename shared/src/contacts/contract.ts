/** Contacts operations (the Contacts page; docs/product/contacts.md). */
import { z } from "zod";
import { zPageNumber } from "../common.ts";
import { defineRoutes, IdParams, MessageReply, page } from "../contract.ts";
import { ContactBody, ContactItem, ContactPatch } from "./schema.ts";

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
});
