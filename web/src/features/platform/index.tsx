/**
 * The super user's platform settings: the Global tab of /settings (sign-up allowed and visible, trial days, the
 * integrations' credentials; docs/product/settings.md), through the settings-tabs slot.
 */
import { lazyPart } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { platformSettingsTexts, platformTexts } from "./i18n.ts";

export const platformFeature: Feature = {
  id: "platform",
  routes: [],
  texts: { platform: platformTexts, settings: platformSettingsTexts },
  slots: {
    settingsTabs: [{ id: "global", order: 30, labelKey: "settings.tabGlobal", access: { super: true }, Component: lazyPart(() => import("./GlobalTab.tsx"), "GlobalTab") }],
  },
};
