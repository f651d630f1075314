/**
 * Logos (docs/product/logos.md): the super user's Logo tab of /settings, through the settings-tabs slot. The logos
 * themselves show on the login and sign-up pages, in the side menu and as the head's icons (`Logo.tsx`); a
 * `company-{id}-logo` frame (a super user uploaded one) makes every open tab read them again.
 */
import { lazyPart } from "../lazy.tsx";
import { logosKey } from "./api.ts";
import type { Feature } from "../types.ts";
import { logosSettingsTexts, logosTexts } from "./i18n.ts";

/** A user who is not super and opens the Logo tab by its address: 'Sem permissão para acessar!', then "/" after 0.5 s. */
const LOGO_TAB_REFUSED = { messageKey: "logos.noPermission", redirectMs: 500 };

export const logosFeature: Feature = {
  id: "logos",
  routes: [],
  texts: { logos: logosTexts, settings: logosSettingsTexts },
  realtime: { logo: (_d, { queryClient }) => void queryClient.invalidateQueries({ queryKey: logosKey }) },
  slots: {
    settingsTabs: [{ id: "logo", order: 35, labelKey: "settings.tabLogo", access: { permission: "routes:super" }, refused: LOGO_TAB_REFUSED, Component: lazyPart(() => import("./LogoTab.tsx"), "LogoTab") }],
  },
};
