/**
 * Help videos (docs/product/helps.md): /helps, the platform's video cards for every logged-in user (an attendance
 * item of the side menu), and, through the settings-tabs slot, the super users' Ajuda tab of /settings (form and
 * table of the helps). Helps send no realtime frame: they are platform-wide, not a company's.
 */
import { lazyPage, lazyPart } from "../lazy.tsx";
import { type Feature, onePage } from "../types.ts";
import { helpsErrorTexts, helpsMenuTexts, helpsSettingsTexts, helpsTexts } from "./i18n.ts";
import "./helps.css";

const HelpsPage = lazyPage(() => import("./HelpsPage.tsx"), "HelpsPage");

export const helpsFeature: Feature = {
  ...onePage("helps", <HelpsPage />, "attendance", 90),
  texts: { helps: helpsTexts, menu: helpsMenuTexts, settings: helpsSettingsTexts, errors: helpsErrorTexts },
  slots: {
    settingsTabs: [{ id: "helps", order: 90, labelKey: "settings.tabHelps", access: { super: true }, Component: lazyPart(() => import("./HelpsTab.tsx"), "HelpsTab") }],
  },
};
