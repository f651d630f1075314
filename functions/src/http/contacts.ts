/**
 * Contacts area (attendance.md §2 Contacts page, §3 Contact, §5 validation, §7 calls; issue 3 §4). Thin: parse, call
 * the contacts service. Every change publishes `company-{id}-contact`.
 */
import { z } from "zod";
import { zId, zPageNumber } from "@atende/shared/common";
import { ContactBody, ContactPatch } from "@atende/shared/contacts/schema";
import { createContact, deleteContact, getContact, listContacts } from "@atende/shared/contacts/service";
import { updateContact } from "@atende/shared/contacts/service";
import { areaHandler, reply, route } from "./core/http.ts";

const IdParams = z.object({ id: zId });

export const handler = areaHandler("contacts", {
  "GET /api/contacts": route({
    query: z.object({
      searchParam: z.string().max(200).optional(),
      pageNumber: zPageNumber,
      cursor: z.string().max(4000).optional(),
      date: z.string().optional(),
      dateStart: z.string().optional(),
      dateEnd: z.string().optional(),
    }),
    handler: async (ctx) => listContacts(ctx.auth.companyId, ctx.query),
  }),
  "GET /api/contacts/list": route({
    query: z.object({ searchParam: z.string().max(200).optional() }),
    handler: async (ctx) => (await listContacts(ctx.auth.companyId, { searchParam: ctx.query.searchParam, limit: 100 })).contacts,
  }),
  "GET /api/contacts/{id}": route({
    params: IdParams,
    handler: async (ctx) => getContact(ctx.auth.companyId, ctx.params.id),
  }),
  "POST /api/contacts": route({
    body: ContactBody,
    handler: async (ctx) => reply(200, await createContact(ctx.auth.companyId, ctx.body)),
  }),
  "PUT /api/contacts/{id}": route({
    params: IdParams,
    body: ContactPatch,
    handler: async (ctx) => updateContact(ctx.auth.companyId, ctx.params.id, ctx.body),
  }),
  "DELETE /api/contacts/{id}": route({
    params: IdParams,
    handler: async (ctx) => {
      await deleteContact(ctx.auth.companyId, ctx.params.id);
      return reply(200, { message: "Contact deleted" });
    },
  }),
});
