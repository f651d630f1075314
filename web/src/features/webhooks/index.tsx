/**
 * Company webhooks (docs/product/webhooks.md; admins): /webhooks, its entry in the side menu's administration group,
 * texts and error codes. Webhooks send no realtime frame (the page refetches on focus; the delivery log every 5 s
 * while open).
 */
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { webhooksErrorTexts, webhooksMenuTexts, webhooksTexts } from "./i18n.ts";
import "./webhooks.css";

const WebhooksPage = lazyPage(() => import("./WebhooksPage.tsx"), "WebhooksPage");

export const webhooksFeature: Feature = {
  id: "webhooks",
  access: ADMIN_ONLY,
  routes: [{ path: "/webhooks", element: <WebhooksPage /> }],
  menu: { path: "/webhooks", labelKey: "menu.webhooks", group: "administration", order: 80 },
  texts: { webhooks: webhooksTexts, menu: webhooksMenuTexts, errors: webhooksErrorTexts },
};
