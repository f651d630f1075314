/**
 * Typebot's public chat API (docs/product/integrations.md#typebot): `POST {url}/api/v1/typebots/{slug}/startChat`
 * with the contact's number and name as prefilled variables, then `POST {url}/api/v1/sessions/{id}/continueChat`
 * per customer message; bubbles asked as rich text. {@link renderReply} turns an answer into what WhatsApp shows.
 */
import { z } from "zod";
import { getConfig } from "../config.ts";


/** Rich-text node of a Typebot text bubble (Slate-like: elements with children, leaves with marks). */
type RichNode = { type?: string; url?: string; text?: string; bold?: boolean; italic?: boolean; strikethrough?: boolean; children?: RichNode[] };
const RichNode: z.ZodType<RichNode> = z.lazy(() =>
  z
    .object({
      type: z.string().optional(),
      url: z.string().optional(),
      text: z.string().optional(),
      bold: z.boolean().optional(),
      italic: z.boolean().optional(),
      strikethrough: z.boolean().optional(),
      children: z.array(RichNode).optional(),
    })
    .passthrough(),
);

const Bubble = z
  .object({
    type: z.string(),
    content: z
      .object({ richText: z.array(RichNode).optional(), markdown: z.string().optional(), plainText: z.string().optional(), url: z.string().optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

const ChatAnswer = z
  .object({
    sessionId: z.string().optional(),
    messages: z.array(Bubble).default([]),
    input: z
      .object({ type: z.string(), items: z.array(z.object({ id: z.string().optional(), content: z.string().optional() }).passthrough()).optional() })
      .passthrough()
      .nullish(),
  })
  .passthrough();
export type ChatAnswer = z.infer<typeof ChatAnswer>;

/** A Typebot HTTP error (status kept: 404 on continueChat means the session is gone). */
export class TypebotError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function post(url: string, body: unknown): Promise<ChatAnswer> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(getConfig().PROVIDER_TIMEOUT_MS) });
  if (!res.ok) throw new TypebotError(`o Typebot respondeu HTTP ${res.status}`, res.status);
  const parsed = ChatAnswer.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new TypebotError("resposta do Typebot em formato inesperado", 502);
  return parsed.data;
}

const base = (url: string) => url.replace(/\/+$/, "");

/** Starts a session of bot `slug` at `url` with the contact's `number` and `name` (also `pushName`, the old variable). */
export async function startChat(url: string, slug: string, contact: { number: string; name: string }): Promise<ChatAnswer & { sessionId: string }> {
  const out = await post(`${base(url)}/api/v1/typebots/${encodeURIComponent(slug)}/startChat`, {
    prefilledVariables: { number: contact.number, name: contact.name, pushName: contact.name },
    textBubbleContentFormat: "richText",
  });
  if (!out.sessionId) throw new TypebotError("o Typebot não abriu a sessão", 502);
  return { ...out, sessionId: out.sessionId };
}

/** Sends the customer's `text` to session `sessionId`. A 404 ({@link TypebotError}) means the session is gone. */
export async function continueChat(url: string, sessionId: string, text: string): Promise<ChatAnswer> {
  return post(`${base(url)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, { message: { type: "text", text }, textBubbleContentFormat: "richText" });
}

// ---- rendering (pure) ----------------------------------------------------------------------------------------

/** A leaf's text with WhatsApp marks: bold `*x*`, italic `_x_`, strikethrough `~x~` (marks hug the words, not the spaces). */
function leaf(n: RichNode): string {
  const s = n.text ?? "";
  const m = /^(\s*)(.*?)(\s*)$/s.exec(s);
  if (!m?.[2]) return s;
  let core = m[2];
  if (n.bold) core = `*${core}*`;
  if (n.italic) core = `_${core}_`;
  if (n.strikethrough) core = `~${core}~`;
  return m[1] + core + m[3];
}

function inline(nodes: RichNode[]): string {
  return nodes
    .map((n) => {
      if (n.type === "a" && n.url) {
        const label = inline(n.children ?? []).trim();
        return label && label !== n.url ? `${label} (${n.url})` : n.url;
      }
      if (n.children) return inline(n.children);
      return leaf(n);
    })
    .join("");
}

/** Typebot rich text → WhatsApp text: one line per paragraph, list items as "• item". */
export function richTextToWhatsapp(nodes: RichNode[]): string {
  const lines: string[] = [];
  for (const n of nodes) {
    if (n.type === "ul" || n.type === "ol") {
      for (const [i, li] of (n.children ?? []).entries()) lines.push(`${n.type === "ol" ? `${i + 1}.` : "•"} ${inline(li.children ?? [li])}`);
    } else lines.push(n.children ? inline(n.children) : leaf(n));
  }
  return lines.join("\n");
}

/** One thing to send: a text, or a media file by URL. */
export type BotOut = { kind: "text"; body: string } | { kind: "media"; url: string; mediaType: "image" | "audio" | "video" };

/** The choice line the customer answers with its number: `*[ 1 ]* - Vendas`. */
export const choiceLine = (n: number, label: string) => `*[ ${n} ]* - ${label}`;

/**
 * What an answer becomes: each text bubble a text (rich text converted), images, audio and video as media by URL,
 * and a choice input's items as one message of numbered lines (`choices` keeps their texts, so an answer "2" is sent
 * back to Typebot as the second item's text).
 */
export function renderReply(answer: ChatAnswer): { outs: BotOut[]; choices: string[] } {
  const outs: BotOut[] = [];
  for (const b of answer.messages) {
    const c = b.content ?? {};
    if (b.type === "text") {
      const body = c.richText ? richTextToWhatsapp(c.richText) : (c.markdown ?? c.plainText ?? "");
      if (body.trim()) outs.push({ kind: "text", body });
    } else if ((b.type === "image" || b.type === "audio" || b.type === "video") && c.url) {
      outs.push({ kind: "media", url: c.url, mediaType: b.type });
    }
  }
  const choices = answer.input?.type === "choice input" ? (answer.input.items ?? []).map((i) => i.content ?? "").filter(Boolean) : [];
  if (choices.length) outs.push({ kind: "text", body: choices.map((label, i) => choiceLine(i + 1, label)).join("\n") });
  return { outs, choices };
}

/** The customer's answer as Typebot expects it: a number among the offered choices becomes that choice's text. */
export function answerFor(body: string, choices: string[]): string {
  const m = /^\s*(\d{1,3})\s*$/.exec(body);
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= choices.length ? choices[n - 1] : body;
}

/** A control command a bot message may carry: `#` followed by JSON. */
export type BotCommand = { kind: "stop" } | { kind: "transfer"; queueId: number; userId: number | null };
const Command = z.union([
  z.object({ stopBot: z.literal(true) }).passthrough(),
  z.object({ queueId: z.coerce.number().int().positive(), userId: z.coerce.number().int().positive().optional() }).passthrough(),
]);

/** The command in a bot text (`#{"queueId":2}`, `#{"queueId":2,"userId":5}`, `#{"stopBot":true}`), else null. */
export function commandOf(body: string): BotCommand | null {
  const t = body.trim();
  if (!t.startsWith("#")) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(t.slice(1));
  } catch {
    return null;
  }
  const c = Command.safeParse(raw);
  if (!c.success) return null;
  return "stopBot" in c.data ? { kind: "stop" } : { kind: "transfer", queueId: c.data.queueId, userId: c.data.userId ?? null };
}
