/**
 * WhatsApp's text formatting, parsed for display (the phone shows `*bold*`, `_italic_`, `~strikethrough~` and
 * ```` ```monospace``` ````; the signature prefix `*Name:*` is bold there too), plus clickable web links.
 * A marker pair formats only when it opens at the start or after a space or punctuation, closes before the end or a
 * space or punctuation, and its content neither starts nor ends with a space and stays on one line (monospace may
 * span lines) — so `a_b_c`, `2*3*4` and `snake_case` stay as typed. Links are found first; formatting applies to the
 * text between them. Pure: returns segments, the React rendering lives in `WhatsappText.tsx`.
 */

export type Segment =
  | { kind: "text"; text: string }
  | { kind: "link"; text: string; href: string }
  | { kind: "mono"; text: string }
  | { kind: "bold" | "italic" | "strike"; children: Segment[] };

const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"]+[^\s<>".,;:!?)\]}'"]/gi;
const MARKERS: Record<string, "bold" | "italic" | "strike"> = { "*": "bold", _: "italic", "~": "strike" };
/** Characters that may stand just outside a marker (besides the start/end of the text and whitespace). */
const BOUNDARY = /[\s.,;:!?()[\]{}"'«»¿¡\-—–/\\]/;

const isBoundary = (ch: string | undefined) => ch === undefined || BOUNDARY.test(ch);

/** Splits `text` into formatted segments (see the module comment for the rules). */
export function parseWhatsappText(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    const i = m.index ?? 0;
    if (i > last) out.push(...formatRun(text.slice(last, i)));
    const raw = m[0];
    out.push({ kind: "link", text: raw, href: /^https?:/i.test(raw) ? raw : `https://${raw}` });
    last = i + raw.length;
  }
  if (last < text.length) out.push(...formatRun(text.slice(last)));
  return merge(out);
}

/** Formatting markers inside a run of text without links. */
function formatRun(s: string): Segment[] {
  const out: Segment[] = [];
  let plain = "";
  let i = 0;
  while (i < s.length) {
    if (s.startsWith("```", i) && isBoundary(s[i - 1])) {
      const end = s.indexOf("```", i + 3);
      if (end > i + 3 && isBoundary(s[end + 3])) {
        if (plain) out.push({ kind: "text", text: plain });
        plain = "";
        out.push({ kind: "mono", text: s.slice(i + 3, end) });
        i = end + 3;
        continue;
      }
    }
    const kind = MARKERS[s[i]];
    if (kind && isBoundary(s[i - 1]) && s[i + 1] !== undefined && !/\s/.test(s[i + 1]) && s[i + 1] !== s[i]) {
      const close = findClose(s, i);
      if (close > 0) {
        if (plain) out.push({ kind: "text", text: plain });
        plain = "";
        out.push({ kind, children: formatRun(s.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    plain += s[i];
    i++;
  }
  if (plain) out.push({ kind: "text", text: plain });
  return out;
}

/** Index of the marker closing the one at `open` on the same line, or -1. */
function findClose(s: string, open: number): number {
  const marker = s[open];
  for (let j = open + 2; j < s.length; j++) {
    if (s[j] === "\n") return -1;
    if (s[j] === marker && !/\s/.test(s[j - 1]) && isBoundary(s[j + 1])) return j;
  }
  return -1;
}

/** Joins neighbouring plain-text segments. */
function merge(segs: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segs) {
    const prev = out[out.length - 1];
    if (s.kind === "text" && prev?.kind === "text") prev.text += s.text;
    else out.push(s);
  }
  return out;
}

/**
 * The start of the old system's automatic texts as the customer reads them on the phone ("*Mensagem automática*:",
 * "*Mensagem Automática:*"), then the line break or spaces after it.
 */
const AUTOMATIC_MARK = /^\s*\*\s*mensagem autom[aá]tica\s*(?::\s*\*|\*\s*:)[ \t]*\n?/i;

/**
 * The body of an automatic message as the conversation shows it under its "Mensagem automática" label: without the
 * same words at its start (the customer's phone has no label, so the sent text keeps them). Other texts unchanged.
 */
export function withoutAutomaticMark(body: string): string {
  const rest = body.replace(AUTOMATIC_MARK, "");
  return rest.trim() ? rest : body;
}
