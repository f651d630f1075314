/**
 * Contacts area (docs/product/contacts.md). Thin: call the
 * contacts service. Every change dispatches a `contact.*` event (realtime `company-{id}-contact`). Contract: `shared/src/contacts/contract.ts`.
 */
import { createContact, deleteContact, getContact, listContacts, updateContact } from "@atende/shared/contacts/service";
import { deleteContacts, importContactsFile, importPhoneBook } from "@atende/shared/contacts/import";
import { answering, areaHandler, started } from "./core/http.ts";

export const handler = areaHandler("contacts", {
  "GET /api/contacts": async (ctx) => listContacts(ctx.auth.companyId, ctx.query),
  "GET /api/contacts/list": async (ctx) => (await listContacts(ctx.auth.companyId, { searchParam: ctx.query.searchParam, limit: 100 })).contacts,
  "GET /api/contacts/{id}": async (ctx) => getContact(ctx.auth.companyId, ctx.params.id),
  "POST /api/contacts": async (ctx) => createContact(ctx.auth.companyId, ctx.body),
  "PUT /api/contacts/{id}": async (ctx) => updateContact(ctx.auth.companyId, ctx.params.id, ctx.body),
  "DELETE /api/contacts/{id}": answering("Contact deleted", (ctx) => deleteContact(ctx.auth.companyId, ctx.params.id)),
  "POST /api/contacts/upload": async (ctx) => importContactsFile(ctx.auth.companyId, ctx.upload, ctx.query.preview),
  "POST /api/contacts/import": async (ctx) => {
    const out = await importPhoneBook(ctx.auth, ctx.body.whatsappId);
    return "job" in out ? started("Import started", out.job) : out;
  },
  "POST /api/contacts/delete": async (ctx) => deleteContacts(ctx.auth.companyId, ctx.body.contactIds),
});
