/**
 * Messages API area (docs/product/messages-api.md; an administration item of the side menu, for admins of companies
 * whose plan has `useExternalApi`; anyone else gets the plan toast and the redirect): /messages-api, its menu entry
 * and texts.
 */
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { messagesApiErrorTexts, messagesApiMenuTexts, messagesApiTexts } from "./i18n.ts";

const MessagesApiPage = lazyPage(() => import("./MessagesApiPage.tsx"), "MessagesApiPage");

export const messagesApiFeature: Feature = {
  id: "messages-api",
  access: { ...ADMIN_ONLY, planFlag: "useExternalApi" },
  routes: [{ path: "/messages-api", element: <MessagesApiPage /> }],
  menu: { path: "/messages-api", labelKey: "menu.messages-api", group: "administration", order: 80 },
  texts: { messagesApi: messagesApiTexts, menu: messagesApiMenuTexts, errors: messagesApiErrorTexts },
};
