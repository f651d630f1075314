/** Contacts area (attendance.md §2 Contacts page): /contacts, in the attendance menu for every user. */
import { lazyPage } from "../lazy.tsx";
import type { Feature } from "../types.ts";

const ContactsPage = lazyPage(() => import("./ContactsPage.tsx"), "ContactsPage");

export const contactsFeature: Feature = {
  id: "contacts",
  routes: [{ path: "/contacts", element: <ContactsPage /> }],
  menu: { path: "/contacts", labelKey: "menu.contacts", group: "attendance", order: 50, access: "all" },
};
