/**
 * Words, grams and query tokens of the search index (docs/product/search.md). Pure functions, no I/O.
 *
 * Normalization (everywhere): Unicode NFD, combining marks removed, lowercase; words are maximal runs of letters and
 * digits (`\p{L}\p{N}`), so "João Conceição" → ["joao", "conceicao"], "ana.lima@exemplo.com.br" →
 * ["ana", "lima", "exemplo", "com", "br"], "+55 (11) 9777-1234" → ["55", "11", "9777", "1234"].
 */

/** Shortest and longest indexed prefix of a contact word (longer query words are found by their 8-char prefix, then verified). */
export const GRAM_MIN = 3;
export const GRAM_MAX = 8;
/** Length of the digit runs of a number that are indexed (any run of ≥ 4 digits contains one). */
export const DIGIT_GRAM = 4;
/** At most this many grams per contact (number runs first, then name, then email), so a contact write stays one transaction. */
export const MAX_CONTACT_GRAMS = 44;
/** At most this many distinct words per message (the first ones), so a message write stays one transaction. */
export const MAX_MESSAGE_WORDS = 40;
/** Indexed message words are 2 to 40 characters. */
const WORD_MIN = 2;
const WORD_MAX = 40;

/**
 * Very frequent function words of pt/es/en left out of the message index (they would make one hot, useless key per
 * company). A query made only of them finds no message (contacts are still searched).
 */
const STOP = new Set(
  (
    "de da do das dos em no na nos nas um uma uns umas os as ao aos que se por para com nao sim ja eu ele ela voce vc " +
    "meu minha seu sua me te lhe isso isto esse essa este esta ou mas mais muito bem tem ter foi ser sao e o a " +
    "el la los las del al en es y lo le su por con para una uno mi tu si no yo " +
    "the and of to in is it you for on that this are be at or an my me we"
  ).split(" "),
);

/** Lowercase, accents removed (NFD without combining marks). */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** The normalized words of a text, in order, duplicates kept. */
export function words(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Longest snippet a word item carries, in characters (about one list row's line). */
export const SNIPPET_MAX = 120;
/** Characters of context kept before the word in a snippet. */
const SNIPPET_BEFORE = 30;

/**
 * The text around the first occurrence of normalized word `word` in `body` (whitespace collapsed, at most
 * {@link SNIPPET_MAX} characters, "…" where it was cut), or "" when the body does not hold the word. The list shows
 * it for a ticket found by that word, with the word marked.
 */
export function snippetOf(body: string, word: string): string {
  const text = body.replace(/\s+/g, " ").trim();
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    if (fold(m[0]) !== word) continue;
    const at = m.index ?? 0;
    const start = at <= SNIPPET_BEFORE ? 0 : text.lastIndexOf(" ", at - SNIPPET_BEFORE) + 1 || at - SNIPPET_BEFORE;
    const head = start > 0 ? "…" : "";
    const room = SNIPPET_MAX - head.length;
    const cut = text.length - start > room;
    return head + text.slice(start, start + (cut ? room - 1 : room)).trimEnd() + (cut ? "…" : "");
  }
  return "";
}

/** Digits only. */
export const digitsOnly = (s: string) => s.replace(/\D+/g, "");

/** Every distinct run of {@link DIGIT_GRAM} digits of `digits`, left to right. */
export function digitGrams(digits: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + DIGIT_GRAM <= digits.length; i++) out.add(digits.slice(i, i + DIGIT_GRAM));
  return [...out];
}

function prefixGrams(ws: string[], out: Set<string>): void {
  for (const w of ws) {
    for (let n = GRAM_MIN; n <= Math.min(GRAM_MAX, w.length); n++) out.add(w.slice(0, n));
    // A word of digits is also found by its 4-digit runs (number fragments are looked up by their last 4 digits).
    if (/^\d+$/.test(w)) for (const g of digitGrams(w)) out.add(g);
  }
}

/** The fields of a contact the index reads. */
export interface ContactFields {
  name: string;
  number?: string | null;
  email?: string | null;
}

/**
 * The distinct grams of a contact, at most {@link MAX_CONTACT_GRAMS}: every 4-digit run of the number, then the 3-8
 * character prefixes of each name word, then of each email word (words shorter than 3 characters are not indexed;
 * a query word of 1-2 characters is only checked against a found contact).
 */
export function contactGrams(c: ContactFields): string[] {
  const out = new Set<string>(digitGrams(digitsOnly(c.number ?? "")));
  prefixGrams(words(c.name), out);
  prefixGrams(words(c.email ?? ""), out);
  return [...out].slice(0, MAX_CONTACT_GRAMS);
}

/** The contact's normalized name as used in the grams' sort key (at most 60 characters). */
export function sortName(name: string): string {
  return words(name).join(" ").slice(0, 60);
}

/** True when a query word can be in the message index (2-40 characters, not a stop word). */
export const isIndexedWord = (w: string) => w.length >= WORD_MIN && w.length <= WORD_MAX && !STOP.has(w);

/** The distinct words of a message body that are indexed, at most {@link MAX_MESSAGE_WORDS}, in order of appearance. */
export function messageWords(body: string): string[] {
  const out = new Set<string>();
  for (const w of words(body)) {
    if (w.length < WORD_MIN || w.length > WORD_MAX || STOP.has(w)) continue;
    out.add(w);
    if (out.size >= MAX_MESSAGE_WORDS) break;
  }
  return [...out];
}

/** One word of a query. `digits`: only digits (a number fragment when ≥ 4 long). */
export interface QueryToken {
  text: string;
  digits: boolean;
}

/**
 * The tokens of a search text: its normalized words; a text that looks like a phone number (digits with `+ ( ) - .`
 * and spaces) becomes ONE digits token ("+55 (11) 9777" → "55119777").
 */
export function queryTokens(term: string): QueryToken[] {
  const t = term.trim();
  if (/^[\d\s+().-]+$/.test(t) && /\d/.test(t)) return [{ text: digitsOnly(t), digits: true }];
  return [...new Set(words(t))].map((text) => ({ text, digits: /^\d+$/.test(text) }));
}

/**
 * The gram a token is looked up by in the contact index, or null when it is too short to be indexed. A number
 * fragment is looked up by its LAST 4 digits: the leading digits (country and area codes) are shared by most numbers.
 */
export function gramOf(tok: QueryToken): string | null {
  if (tok.digits && tok.text.length >= DIGIT_GRAM) return tok.text.slice(-DIGIT_GRAM);
  if (tok.text.length >= GRAM_MIN) return tok.text.slice(0, GRAM_MAX);
  return null;
}

/**
 * True when the contact matches the token: a word of its name or email starts with it, or (a run of ≥ 4 digits) its
 * number contains it.
 */
export function contactMatchesToken(c: ContactFields, tok: QueryToken): boolean {
  if (tok.digits && tok.text.length >= DIGIT_GRAM && digitsOnly(c.number ?? "").includes(tok.text)) return true;
  return [...words(c.name), ...words(c.email ?? "")].some((w) => w.startsWith(tok.text));
}

/** True when the contact matches every token. */
export const contactMatchesAll = (c: ContactFields, toks: QueryToken[]) => toks.every((t) => contactMatchesToken(c, t));
