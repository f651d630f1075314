/**
 * Contact lists area (docs/product/contact-lists.md): /contact-lists and /contact-lists/:contactListId/contacts for
 * admins of companies whose plan has campaigns, the menu entry in the management group, texts, and the
 * `company-{id}-ContactList` / `company-{id}-ContactListItem` frames (a reload included).
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { contactListItemsCache, contactListsCache, upsertContactList } from "./api.ts";
import { contactListItemsTexts, contactListsErrorTexts, contactListsMenuTexts, contactListsTexts } from "./i18n.ts";

const ContactListsPage = lazyPage(() => import("./ContactListsPage.tsx"), "ContactListsPage");
const ContactListItemsPage = lazyPage(() => import("./ContactListItemsPage.tsx"), "ContactListItemsPage");

const onList: RealtimeHandler<"ContactList"> = (data, { queryClient }) => {
  if (data.action === "delete") contactListsCache.remove(queryClient, data.id);
  else upsertContactList(queryClient, data.record);
};

const onItem: RealtimeHandler<"ContactListItem"> = (data, { queryClient }) => {
  if (data.action === "delete") contactListItemsCache(data.contactListId).remove(queryClient, data.id);
  else if (data.action === "reload") contactListItemsCache(data.contactListId).reload(queryClient);
  else contactListItemsCache(data.record.contactListId).upsert(queryClient, data.record);
};

export const contactListsFeature: Feature = {
  id: "contact-lists",
  access: { ...ADMIN_ONLY, planFlag: "useCampaigns" },
  routes: [
    { path: "/contact-lists", element: <ContactListsPage /> },
    { path: "/contact-lists/:contactListId/contacts", element: <ContactListItemsPage /> },
  ],
  menu: { path: "/contact-lists", labelKey: "menu.contact-lists", group: "management", order: 40 },
  texts: { contactLists: contactListsTexts, contactListItems: contactListItemsTexts, menu: contactListsMenuTexts, errors: contactListsErrorTexts },
  realtime: { ContactList: onList, ContactListItem: onItem },
};
