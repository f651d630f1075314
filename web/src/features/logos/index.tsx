/**
 * Logos (docs/product/logos.md): the super user's Logo tab of /settings, through the settings-tabs slot. The logos
 * themselves show on the login page, in the side menu and as the favicon (`Logo.tsx`).
 */
import { lazyPart } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { logosSettingsTexts, logosTexts } from "./i18n.ts";

export const logosFeature: Feature = {
  id: "logos",
  routes: [],
  texts: { logos: logosTexts, settings: logosSettingsTexts },
  slots: {
    settingsTabs: [{ id: "logo", order: 35, labelKey: "settings.tabLogo", access: { permission: "routes:super" }, Component: lazyPart(() => import("./LogoTab.tsx"), "LogoTab") }],
  },
};
