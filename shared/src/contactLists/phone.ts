/**
 * Phone numbers as imports and forms type them, normalized with libphonenumber-js (docs/product/contact-lists.md#numbers):
 * digits only, country code first. A number typed without a country code (10 or 11 digits, a Brazilian area code and
 * number) gets Brazil's 55; one typed with `+` keeps its own. A Brazilian mobile typed without its ninth digit
 * (area code + 8 digits starting with 6-9) gets it, so both spellings of one person are one number; landlines (8
 * digits starting with 2-5) never do. WhatsApp still knows some old accounts without the ninth digit: both spellings
 * are asked ({@link whatsappSpellings}).
 */
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { digitsOf } from "../contacts/normalize.ts";

export type NormalizedPhone = { number: string } | { error: "missing" | "invalid" };

/**
 * The normalized number of `typed` (a cell's text or a form's value): `{number}` (digits, country code first), or
 * `{error: "missing"}` (no digit at all) / `{error: "invalid"}` (not a possible phone number).
 */
export function normalizePhone(typed: string): NormalizedPhone {
  const text = typed.trim();
  let digits = digitsOf(text);
  if (!digits) return { error: "missing" };
  if (!text.startsWith("+") && (digits.length === 10 || digits.length === 11)) digits = `55${digits}`;
  const phone = parsePhoneNumberFromString(`+${digits}`);
  if (!phone?.isPossible()) return { error: "invalid" };
  let national = phone.nationalNumber as string;
  if (phone.countryCallingCode === "55" && national.length === 10 && /[6-9]/.test(national[2] ?? "")) {
    national = `${national.slice(0, 2)}9${national.slice(2)}`;
  }
  return { number: `${phone.countryCallingCode}${national}` };
}

/**
 * The spellings WhatsApp may know a normalized number by: the number itself, plus, for a Brazilian mobile
 * (55 + area code + 9 + 8 digits), the same without its ninth digit.
 */
export function whatsappSpellings(number: string): string[] {
  const m = /^55(\d{2})9(\d{8})$/.exec(number);
  return m ? [number, `55${m[1]}${m[2]}`] : [number];
}
