/**
 * Plans (docs/product/plans.md): the super user's Planos tab of /settings (form and table), through the settings-tabs
 * slot; the public plan list is read by the sign-up page.
 */
import { lazyPart } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { plansTexts } from "./i18n.ts";

export const plansFeature: Feature = {
  id: "plans",
  routes: [],
  texts: { plans: plansTexts },
  slots: {
    settingsTabs: [{ id: "plans", order: 60, labelKey: "plans.tab", access: { permission: "routes:super" }, Component: lazyPart(() => import("./PlansTab.tsx"), "PlansTab") }],
  },
};
