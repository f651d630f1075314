/**
 * Campaigns area (docs/product/campaigns.md; admins of a plan with `useCampaigns`): /campaigns (list and dialog),
 * /campaign/{id}/report, /campaigns-config, the menu entry, texts, and the `company-{id}-campaign` frames
 * (`{action, record}` or `{action: "delete", id}`) that keep the list and an open report live.
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage } from "../lazy.tsx";
import type { Access, Feature } from "../types.ts";
import { campaignsCache } from "./api.ts";
import { campaignsErrorTexts, campaignsMenuTexts, campaignsTexts } from "./i18n.ts";

const CampaignsPage = lazyPage(() => import("./CampaignsPage.tsx"), "CampaignsPage");
const CampaignReportPage = lazyPage(() => import("./CampaignReportPage.tsx"), "CampaignReportPage");
const CampaignSettingsPage = lazyPage(() => import("./CampaignSettingsPage.tsx"), "CampaignSettingsPage");
const access: Access = { planFlag: "useCampaigns", permission: "routes:admin" };

const onFrame: RealtimeHandler<"campaign"> = (d, { queryClient }) => {
  if (d.action === "delete") campaignsCache.remove(queryClient, d.id);
  else campaignsCache.upsert(queryClient, d.record);
};

export const campaignsFeature: Feature = {
  id: "campaigns",
  access,
  routes: [
    { path: "/campaigns", element: <CampaignsPage /> },
    { path: "/campaign/:campaignId/report", element: <CampaignReportPage /> },
    { path: "/campaigns-config", element: <CampaignSettingsPage /> },
  ],
  menu: { path: "/campaigns", labelKey: "menu.campaigns", group: "management", order: 50 },
  texts: { campaigns: campaignsTexts, menu: campaignsMenuTexts, errors: campaignsErrorTexts },
  realtime: { campaign: onFrame },
};
