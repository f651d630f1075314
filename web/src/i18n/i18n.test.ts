/** The three languages stay complete: same keys as Portuguese, every error code translated, fixed texts verbatim. */
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@atende/shared/errors";
import { en, es, pt } from "./texts.ts";

function leaves(o: unknown, prefix = ""): string[] {
  if (typeof o !== "object" || o === null) return [prefix];
  return Object.entries(o).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

describe("translations", () => {
  it("has the same keys in English and Spanish as in Portuguese", () => {
    expect(leaves(en).sort()).toEqual(leaves(pt).sort());
    expect(leaves(es).sort()).toEqual(leaves(pt).sort());
  });

  it("translates every error code of the catalogue in every language", () => {
    for (const lang of [pt, en, es]) {
      const errors = lang.errors as Record<string, string>;
      for (const code of ERROR_CODES) expect(errors[code], code).toMatch(/\S/);
    }
  });

  it("uses the product's fixed Portuguese texts verbatim", () => {
    expect(pt.session.otherComputer).toBe("Sua conta foi acessada em outro computador.");
    expect(pt.common.confirmDelete).toBe("Deseja realmente excluir este registro?");
    expect(pt.login.forgot).toBe("Esqueceu sua senha?");
    expect(pt.shell.activeUntil).toBe("Ativo até {{date}}");
    expect(pt.login.dueDateWarning).toBe("Sua assinatura vence em {{count}} dia(s)");
    expect(pt.errors.ERR_SUBSCRIPTION_EXPIRED).toBe("Opss! Sua assinatura venceu {{date}}. Entre em contato com o Suporte para mais informações!");
    expect(pt.errors.generic).toBe("An error occurred!");
    expect([pt.validation.required, pt.validation.tooShort, pt.validation.tooLong, pt.validation.invalidEmail]).toEqual(["Required", "Too Short!", "Too Long!", "Invalid email"]);
  });
});
