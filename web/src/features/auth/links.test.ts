/** The login screen's links: driven by the pages that exist and the platform's register settings. */
import { describe, expect, it } from "vitest";
import { loginLinks } from "./links.ts";

const on = { viewregister: "enabled", allowregister: "enabled" };

describe("login links", () => {
  it("offers 'Cadastre-se!' only when the sign-up page exists and registration is both visible and allowed", () => {
    expect(loginLinks({ forgetpsw: false, signup: true }, on).signup).toBe(true);
    expect(loginLinks({ forgetpsw: false, signup: true }, { ...on, viewregister: "disabled" }).signup).toBe(false);
    // Visible but not allowed: the sign-up page would send the visitor straight back to /login.
    expect(loginLinks({ forgetpsw: false, signup: true }, { ...on, allowregister: "disabled" }).signup).toBe(false);
    // Settings still loading (or unreadable) count as disabled.
    expect(loginLinks({ forgetpsw: false, signup: true }, {}).signup).toBe(false);
    // No sign-up page yet: never a link, whatever the settings say.
    expect(loginLinks({ forgetpsw: false, signup: false }, on).signup).toBe(false);
  });

  it("offers 'Esqueceu sua senha?' exactly when the password-reset page exists", () => {
    expect(loginLinks({ forgetpsw: true, signup: false }, {}).forgot).toBe(true);
    expect(loginLinks({ forgetpsw: false, signup: true }, on).forgot).toBe(false);
  });
});
