/**
 * Contact number display (docs/product/contacts.md#numbers: 12 or 13 digit numbers shown as +CC (AA) number).
 * Contacts store digits only with the country code (E.164 without `+`); libphonenumber-js finds where
 * the country code ends and how the country groups its numbers.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js";

/** Country whose numbers the literal `+CC (AA) xxxxx-xxxx` rule describes (also its 8-digit legacy mobiles). */
const BRAZIL = "55";

/**
 * Formats a stored contact number for display:
 * - 12 or 13 digits → `+CC (AA) number`: `5511987654321` → `+55 (11) 98765-4321`, `551133334444` → `+55 (11) 3333-4444`;
 *   a valid number of a country that writes its area code in parentheses keeps that country's grouping
 *   (`+1 (201) 555-0123` style); a valid number of a country without parentheses is shown in international format
 *   (`351912345678` → `+351 912 345 678`) instead of cutting its country code wrongly; anything else uses the literal
 *   rule (two-digit country code, two-digit area code, last four digits after a hyphen).
 * - any other length (short numbers, group ids, empty) → returned unchanged.
 */
export function formatContactNumber(number: string | null | undefined): string {
  const raw = number ?? "";
  const digits = raw.replace(/\D/g, "");
  if (digits.length !== 12 && digits.length !== 13) return raw;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (parsed?.isValid()) {
    const national = parsed.formatNational();
    if (national.startsWith("(")) return `+${parsed.countryCallingCode} ${national}`;
    if (parsed.countryCallingCode !== BRAZIL) return parsed.formatInternational();
  }
  return `+${digits.slice(0, 2)} (${digits.slice(2, 4)}) ${digits.slice(4, -4)}-${digits.slice(-4)}`;
}
