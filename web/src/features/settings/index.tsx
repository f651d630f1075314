/**
 * Company settings (docs/product/settings.md): the /settings page for admins (menu entry, texts) and
 * the `company-{id}-settings` handler that keeps the cached settings current for every open tab (viewclosed,
 * viewgroups, scheduleType, ...): the changed key is applied in place.
 */
import { lazyPage, lazyPart } from "../lazy.tsx";
import { ADMIN_ONLY, onePage, type Feature } from "../types.ts";
import { upsertSetting } from "./api.ts";
import { settingsMenuTexts, settingsTexts } from "./i18n.ts";
import "./settings.css";

const loadPage = () => import("./SettingsPage.tsx");
const SettingsPage = lazyPage(loadPage, "SettingsPage");

export const settingsFeature: Feature = {
  ...onePage("settings", <SettingsPage />, "administration", 80),
  access: ADMIN_ONLY,
  texts: { settings: settingsTexts, menu: settingsMenuTexts },
  slots: {
    settingsTabs: [
      { id: "options", order: 10, labelKey: "settings.tabOptions", Component: lazyPart(loadPage, "OptionsTab") },
      { id: "hours", order: 20, labelKey: "settings.tabHours", shown: (all) => all.some((s) => s.key === "scheduleType" && s.value === "company"), Component: lazyPart(loadPage, "HoursTab") },
    ],
  },
  realtime: {
    settings: (data, { queryClient }) => upsertSetting(queryClient, data.setting),
  },
};
