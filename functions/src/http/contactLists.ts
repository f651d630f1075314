/**
 * Contact lists area. Thin: call the contact lists service. Contract: `shared/src/contactLists/contract.ts`.
 */
import {
  allContactLists,
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  importContactListFile,
  pageContactListItems,
  pageContactLists,
  showContactList,
  showContactListItem,
  updateContactList,
  updateContactListItem,
} from "@atende/shared/contactLists/service";
import { answering, areaHandler, started } from "./core/http.ts";

export const handler = areaHandler("contactLists", {
  "GET /api/contact-lists": async (ctx) => pageContactLists(ctx.auth, ctx.query),
  "GET /api/contact-lists/list": async (ctx) => allContactLists(ctx.auth),
  "GET /api/contact-lists/{id}": async (ctx) => showContactList(ctx.auth, ctx.params.id),
  "POST /api/contact-lists": async (ctx) => createContactList(ctx.auth, ctx.body),
  "PUT /api/contact-lists/{id}": async (ctx) => updateContactList(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/contact-lists/{id}": answering("Contact list deleted", (ctx) => deleteContactList(ctx.auth, ctx.params.id)),
  "POST /api/contact-lists/{id}/upload": async (ctx) => {
    const out = await importContactListFile(ctx.auth, ctx.params.id, ctx.upload, ctx.query.preview);
    return "job" in out ? started("Import started", out.job) : out;
  },
  "GET /api/contact-list-items": async (ctx) => pageContactListItems(ctx.auth, ctx.query),
  "GET /api/contact-list-items/{id}": async (ctx) => showContactListItem(ctx.auth, ctx.params.id),
  "POST /api/contact-list-items": async (ctx) => createContactListItem(ctx.auth, ctx.body),
  "PUT /api/contact-list-items/{id}": async (ctx) => updateContactListItem(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/contact-list-items/{id}": answering("Contact list item deleted", (ctx) => deleteContactListItem(ctx.auth, ctx.params.id)),
});
