/**
 * Search keys for contacts (docs/product/search.md): names are matched by a normalized prefix
 * (lowercase, accents stripped with NFD, spaces collapsed), numbers by a digits-only prefix.
 */

/** `"  José  da SILVA "` → `"jose da silva"`. Used in GSI1 (`N#<normalized>#<id>`) and for search terms. */
export function normalizeName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** Keeps only the digits of a phone number (`"+55 (11) 9999-0000"` → `"551199990000"`). */
export function digitsOf(value: string): string {
  return value.replace(/\D+/g, "");
}

/**
 * True when a search term looks like a phone number (digits with optional `+ ( ) - .` and spaces),
 * so the number index is worth querying.
 */
export function looksLikeNumber(term: string): boolean {
  return /^[\d\s+().-]+$/.test(term) && digitsOf(term).length > 0;
}
