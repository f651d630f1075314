/**
 * Queue integrations area (docs/product/integrations.md; an administration item for admins of companies whose plan
 * has `useIntegrations`): /queue-integration, its menu entry, texts and the `company-{id}-queueIntegration` frames.
 */
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { onIntegrationFrame } from "./api.ts";
import { queueIntegrationsErrorTexts, queueIntegrationsMenuTexts, queueIntegrationsTexts } from "./i18n.ts";
import "./queueIntegrations.css";

const QueueIntegrationsPage = lazyPage(() => import("./QueueIntegrationsPage.tsx"), "QueueIntegrationsPage");

export const queueIntegrationsFeature: Feature = {
  id: "queue-integration",
  access: { ...ADMIN_ONLY, planFlag: "useIntegrations" },
  routes: [{ path: "/queue-integration", element: <QueueIntegrationsPage /> }],
  menu: { path: "/queue-integration", labelKey: "menu.queue-integration", group: "administration", order: 95 },
  texts: { queueIntegrations: queueIntegrationsTexts, menu: queueIntegrationsMenuTexts, errors: queueIntegrationsErrorTexts },
  realtime: { queueIntegration: onIntegrationFrame },
};
