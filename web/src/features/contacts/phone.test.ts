/** The contacts page shows stored numbers as `+CC (AA) number` (docs/product/contacts.md#numbers). */
import { describe, expect, it } from "vitest";
import { formatContactNumber } from "./phone.ts";

describe("formatContactNumber", () => {
  it("shows a 13-digit Brazilian mobile as +55 (AA) 99999-9999", () => {
    expect(formatContactNumber("5511987654321")).toBe("+55 (11) 98765-4321");
    expect(formatContactNumber("5521999998888")).toBe("+55 (21) 99999-8888");
  });

  it("shows a 12-digit Brazilian landline or legacy mobile as +55 (AA) 9999-9999", () => {
    expect(formatContactNumber("551133334444")).toBe("+55 (11) 3333-4444");
    expect(formatContactNumber("551198765432")).toBe("+55 (11) 9876-5432");
  });

  it("keeps a three-digit country code whole instead of cutting it after two digits", () => {
    expect(formatContactNumber("351912345678")).toBe("+351 912 345 678");
  });

  it("uses the literal rule for a 12 or 13 digit number no country validates", () => {
    expect(formatContactNumber("5411987654321")).toBe("+54 (11) 98765-4321");
  });

  it("leaves other lengths, group ids and empty values unchanged", () => {
    expect(formatContactNumber("12345678")).toBe("12345678");
    expect(formatContactNumber("120363025246125486")).toBe("120363025246125486");
    expect(formatContactNumber("")).toBe("");
    expect(formatContactNumber(undefined)).toBe("");
  });

  it("reads numbers typed with punctuation", () => {
    expect(formatContactNumber("+55 11 98765-4321")).toBe("+55 (11) 98765-4321");
  });
});
