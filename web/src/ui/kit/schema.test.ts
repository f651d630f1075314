/** The kit's form rules give the product's validation messages (as i18n keys), first failing rule per field. */
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { fieldErrors } from "./FormDialog.tsx";
import * as rules from "./schema.ts";

const { z } = rules;
const errorsOf = (schema: ZodType, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? {} : fieldErrors(r.error);
};

describe("form rules", () => {
  const user = z.object({ name: rules.name(2, 50), email: rules.email(), password: rules.optionalLength(5, 50) });

  it("reports 'Required' for an empty name and email, not every rule they break", () => {
    expect(errorsOf(user, { name: " ", email: "", password: "" })).toEqual({ name: "validation.required", email: "validation.required" });
  });

  it("reports too short, too long and an invalid email", () => {
    expect(errorsOf(user, { name: "A", email: "x@", password: "123" })).toEqual({ name: "validation.tooShort", email: "validation.invalidEmail", password: "validation.tooShort" });
    expect(errorsOf(user, { name: "A".repeat(51), email: "a@b.co", password: "" })).toEqual({ name: "validation.tooLong" });
  });

  it("accepts valid values, trimmed", () => {
    expect(user.parse({ name: "  Ana  ", email: " ana@example.com ", password: "" })).toEqual({ name: "Ana", email: "ana@example.com", password: "" });
  });

  it("refuses a colour outside 3 to 9 characters", () => {
    const s = z.object({ color: rules.color() });
    expect(errorsOf(s, { color: "" })).toEqual({ color: "validation.required" });
    expect(errorsOf(s, { color: "#1" })).toEqual({ color: "validation.tooShort" });
    expect(errorsOf(s, { color: "#1e88e5" })).toEqual({});
  });

  it("reads a whole number typed as text, refusing anything but digits", () => {
    const s = z.object({ minutes: rules.numberText(), order: rules.numberText(null) });
    expect(s.parse({ minutes: " 15 ", order: "" })).toEqual({ minutes: 15, order: null });
    expect(s.parse({ minutes: "", order: "2" })).toEqual({ minutes: 0, order: 2 });
    expect(errorsOf(s, { minutes: "1.5", order: "-1" })).toEqual({ minutes: "validation.invalidNumber", order: "validation.invalidNumber" });
  });
});
