/**
 * Which links the login screen offers (/login links to /forgetpsw ('Esqueceu sua senha?') and /signup; the
 * platform's "registration allowed" and "registration visible" settings, read through the public
 * `GET /settings/allowregister`; a link must never silently land back on /login).
 *
 * - 'Esqueceu sua senha?' → /forgetpsw: shown once the password-reset page exists (no setting gates it).
 * - 'Cadastre-se!' → /signup: shown when the sign-up page exists, the platform's `viewregister` is `enabled`
 *   ("registration visible") and its `allowregister` is `enabled` ("registration allowed"; with it disabled the
 *   sign-up page sends the visitor back to /login, so the link would only bounce). Settings not known yet (loading or
 *   failed) count as disabled.
 */

/** The platform-wide values read from `GET /api/settings/{key}` (unset while loading). */
export interface RegisterSettings {
  viewregister?: string;
  allowregister?: string;
}

/** The pages that exist (a feature registers them as public routes). */
export interface PublicPages {
  forgetpsw: boolean;
  signup: boolean;
}

/** The links to show (see the module doc). */
export function loginLinks(pages: PublicPages, settings: RegisterSettings): { forgot: boolean; signup: boolean } {
  return {
    forgot: pages.forgetpsw,
    signup: pages.signup && settings.viewregister === "enabled" && settings.allowregister === "enabled",
  };
}
