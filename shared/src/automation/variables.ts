/**
 * Message variables (docs/product/messages.md#variables): `{{firstName}}`, `{{name}}`, `{{ms}}` (Bom dia / Boa tarde /
 * Boa noite / Boa madrugada), `{{protocol}}` (yyyyMMddHHmmss + ticket id) and `{{hora}}` (HH:mm:ss), all in the
 * company's time zone. Parsed with mustache (logic-less); only these names are replaced: any other `{{...}}`,
 * section or partial an agent typed stays exactly as typed, and nothing is HTML-escaped (WhatsApp text).
 */
import Mustache from "mustache";

/** The company time zone used when none is known (administration: Company.timezone default). */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

/** Wall-clock parts of `d` in `timeZone` (IANA), 24-hour, zero-padded. */
export function zonedParts(d: Date, timeZone = DEFAULT_TIME_ZONE): Record<"year" | "month" | "day" | "hour" | "minute" | "second", string> {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(d);
  const o = Object.fromEntries(parts.map((p) => [p.type, p.value]));
  return { year: o.year, month: o.month, day: o.day, hour: o.hour, minute: o.minute, second: o.second };
}

/** Greeting of the day by the hour in `timeZone`: 6-11 "Bom dia", 12-17 "Boa tarde", 18-23 "Boa noite", 0-5 "Boa madrugada". */
export function greetingOfDay(d = new Date(), timeZone = DEFAULT_TIME_ZONE): string {
  const h = Number(zonedParts(d, timeZone).hour);
  if (h >= 6 && h < 12) return "Bom dia";
  if (h >= 12 && h < 18) return "Boa tarde";
  if (h >= 18) return "Boa noite";
  return "Boa madrugada";
}

export interface VariableContext {
  contactName: string;
  ticketId: number;
  now?: Date;
  /** IANA zone of the company (default America/Sao_Paulo). */
  timeZone?: string;
}

/** The values of the five variables for one message. */
export function variableValues(ctx: VariableContext): Record<string, string> {
  const now = ctx.now ?? new Date();
  const tz = ctx.timeZone ?? DEFAULT_TIME_ZONE;
  const p = zonedParts(now, tz);
  return {
    firstName: ctx.contactName.trim().split(/\s+/)[0] ?? "",
    name: ctx.contactName,
    ms: greetingOfDay(now, tz),
    protocol: `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}${ctx.ticketId}`,
    hora: `${p.hour}:${p.minute}:${p.second}`,
  };
}

/**
 * Renders `body` with the variables of {@link variableValues}. A template mustache cannot parse (e.g. an unclosed
 * `{{`) is returned unchanged. Never throws.
 */
export function renderVariables(body: string, ctx: VariableContext): string {
  if (!body.includes("{{")) return body;
  let tokens: ReturnType<typeof Mustache.parse>;
  try {
    tokens = Mustache.parse(body);
  } catch {
    return body;
  }
  const values = variableValues(ctx);
  let out = "";
  let pos = 0;
  for (const token of tokens as [string, string, number, number, unknown?, number?][]) {
    const [type, value, start] = token;
    let end = token[3];
    if ((type === "#" || type === "^") && typeof token[5] === "number") end = body.indexOf("}}", token[5]) + 2; // up to the closing tag's end
    if (type === "text") out += value;
    else if ((type === "name" || type === "&") && Object.hasOwn(values, value.trim())) out += values[value.trim()];
    else out += body.slice(start, end); // unknown names, sections, comments: as typed
    pos = end;
  }
  return out + body.slice(pos);
}
