/**
 * Contacts area (docs/product/contacts.md): /contacts in the attendance menu for every user, its texts and the
 * `company-{id}-contact` frames (pages and the contact drawer).
 */
import { crudRealtime } from "../../ui/kit/crud.ts";
import { lazyPage } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { contactsCache } from "./api.ts";
import { contactsTexts } from "./i18n.ts";

const ContactsPage = lazyPage(() => import("./ContactsPage.tsx"), "ContactsPage");

export const contactsFeature: Feature = {
  id: "contacts",
  routes: [{ path: "/contacts", element: <ContactsPage /> }],
  menu: { path: "/contacts", labelKey: "menu.contacts", group: "attendance", order: 50 },
  texts: { contacts: contactsTexts },
  realtime: { contact: crudRealtime("contact", contactsCache) },
};
