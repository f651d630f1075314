/**
 * Summaries stored on ticket items: what a ticket-list row shows of the ticket's contact, queue,
 * connection, user and tags, denormalized so a page of a tab is ONE Query (`views.ts` builds the API's nested objects
 * from them). Stored attributes of the ticket item (never returned raw: `TicketItem` does not carry them):
 * - `sumContact` `{id, name, number, profilePicUrl, email, extraInfo, isGroup, presence, disableBot, uuid}`;
 * - `sumQueue` `{id, name, color} | null`, `sumUser` `{id, name} | null`, `sumWhatsapp` `{id, name, status} | null`;
 * - `sumTags` `{"<tagId>": {id, name, color}}` (a map, so one tag's entry is updated in place).
 *
 * Written whole when a ticket is created (`createTicketItem`) and, for the parts whose id changes, by every
 * transition (`writeTicketTransition`). Kept current by the `ticketSummaries` listener (`./summaries-listener.ts`) when the entities change.
 *
 * ## What is eventually consistent
 * The listener runs inside `dispatch`, right after the entity's own write: a list read in between shows the old name,
 * colour or connection status. It refreshes, per affected index partition (newest tickets first), at most
 * {@link SUMMARY_REFRESH_LIMIT} tickets: a queue, user or connection with more tickets than that in one status keeps the
 * old summary on its older tickets until their next transition rewrites it. A summary that names another id than the
 * ticket's (a writer outside this folder changed `queueId`, or tagged the ticket) is never shown: `views.ts` reads
 * that related item instead, so ids are always exact; only names, colours, pictures and statuses can lag.
 */
import { batchGetRaw } from "../db/batch.ts";
import { keys } from "../db/keys.ts";
import { ContactItem } from "../contacts/schema.ts";
import { TicketItem } from "./schema.ts";
import { parseStored } from "../db/items.ts";
import { rowKnownCurrent } from "./row.ts";

/** `{id, name, color}`: a queue or tag as a row shows it. */
export type NamedColored = { id: number; name: string; color: string };
/** The nested contact of a ticket view (the fields the API has always returned for it). */
export type ContactSummary = {
  id: number;
  name: string;
  number: string;
  profilePicUrl: string;
  email: string;
  extraInfo: unknown[];
  isGroup?: boolean;
  presence?: string;
  disableBot?: boolean;
  uuid?: string;
};
export type WhatsappSummary = { id: number; name: string; status: string };
export type UserSummary = { id: number; name: string };

/** The summaries of one ticket; a part is `undefined` when the stored item has none (older items). */
export interface TicketSummaries {
  contact?: ContactSummary;
  queue?: NamedColored | null;
  whatsapp?: WhatsappSummary | null;
  user?: UserSummary | null;
  tags?: NamedColored[];
}

/** Tickets refreshed per index partition and event, newest first (see the module doc). */
export const SUMMARY_REFRESH_LIMIT = 500;

/** The nested contact from a stored contact item. */
/** The contact fields a ticket's `sumContact` holds (see {@link contactSummaryOf}). */
export const CONTACT_SUMMARY_FIELDS = new Set(["id", "name", "number", "profilePicUrl", "email", "extraInfo", "isGroup", "presence", "disableBot", "uuid"]);

export function contactSummaryOf(c: ContactItem): ContactSummary {
  return {
    id: c.id,
    name: c.name,
    number: c.number,
    profilePicUrl: c.profilePicUrl,
    email: c.email,
    extraInfo: c.extraInfo,
    isGroup: c.isGroup,
    presence: c.presence,
    disableBot: c.disableBot,
    uuid: c.uuid,
  };
}
/** The nested queue (or tag) from a raw item. */
export const queueSummaryOf = (q: Record<string, unknown>): NamedColored => ({ id: Number(q.id), name: String(q.name ?? ""), color: String(q.color ?? "") });
/** The nested connection from a raw connection item. */
export const whatsappSummaryOf = (w: Record<string, unknown>): WhatsappSummary => ({ id: Number(w.id), name: String(w.name ?? ""), status: String(w.status ?? "DISCONNECTED") });
/** The nested user from a raw user item (id and name only: never email, profile or password hash). */
export const userSummaryOf = (u: Record<string, unknown>): UserSummary => ({ id: Number(u.id), name: String(u.name ?? "") });
/** The nested tag from a raw tag item. */
export const tagSummaryOf = queueSummaryOf;

// ---------------------------------------------------------------------------------------------
// Reading: a parsed ticket keeps its stored summaries beside it (not on it: responses keep their shape).

const attached = new WeakMap<object, TicketSummaries>();

/** The summaries read with this ticket object, if any (a spread copy has none). */
export function summariesOf(t: TicketItem): TicketSummaries | undefined {
  return attached.get(t);
}

/** Attaches summaries to a ticket object (returns it). */
export function attachSummaries<T extends TicketItem>(t: T, s: TicketSummaries | undefined): T {
  if (s) attached.set(t, s);
  return t;
}

/** The summaries stored on a raw ticket item (undefined when it has none). */
export function storedSummaries(raw: Record<string, unknown>): TicketSummaries | undefined {
  if (!("sumContact" in raw) && !("sumWhatsapp" in raw)) return undefined;
  const s: TicketSummaries = {};
  if (raw.sumContact && typeof raw.sumContact === "object") s.contact = raw.sumContact as ContactSummary;
  if ("sumQueue" in raw) s.queue = (raw.sumQueue as NamedColored | null) ?? null;
  if ("sumWhatsapp" in raw) s.whatsapp = (raw.sumWhatsapp as WhatsappSummary | null) ?? null;
  if ("sumUser" in raw) s.user = (raw.sumUser as UserSummary | null) ?? null;
  if (raw.sumTags && typeof raw.sumTags === "object") s.tags = Object.values(raw.sumTags as Record<string, NamedColored>);
  return s;
}

/** Each `TicketItem` field with its default (computed once from the schema; `undefined`: required). */
const FIELDS: [string, unknown][] = Object.keys(TicketItem.shape).map((k) => {
  const d = (TicketItem.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>)[k].safeParse(undefined);
  return [k, d.success ? d.data : undefined];
});
const REQUIRED_NUMBERS = ["id", "companyId", "contactId", "whatsappId"];

/**
 * A stored ticket item as a `TicketItem` without a schema parse on the hot path (the list's CPU): items are written only by
 * this folder's repository from parsed tickets, so each field is copied in schema order with the schema's default when
 * absent (the same object `TicketItem.parse` gives). An item that lacks a required field or has an unknown status goes
 * through `TicketItem.parse` (and its error).
 */
function ticketFromStored(raw: Record<string, unknown>): TicketItem {
  for (const k of REQUIRED_NUMBERS) if (typeof raw[k] !== "number") return parseStored(TicketItem, raw);
  if (raw.status !== "open" && raw.status !== "pending" && raw.status !== "closed") return parseStored(TicketItem, raw);
  if (typeof raw.uuid !== "string" || typeof raw.createdAt !== "string" || typeof raw.updatedAt !== "string") return parseStored(TicketItem, raw);
  const out: Record<string, unknown> = {};
  for (const [k, d] of FIELDS) {
    const v = raw[k];
    out[k] = v !== undefined ? v : Array.isArray(d) ? [] : d;
  }
  return out as TicketItem;
}

/** Parses a stored ticket item ONCE (no schema parse for well-formed items) and keeps its summaries beside it. */
export function parseTicket(raw: Record<string, unknown>): TicketItem {
  const t = attachSummaries(ticketFromStored(raw), storedSummaries(raw));
  if (typeof raw.row === "string") rowKnownCurrent.set(t, raw.rowRev === (raw.rev ?? 0));
  return t;
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The item attributes of summaries (only the parts present). */
export function summaryAttributes(s: TicketSummaries): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.contact) out.sumContact = s.contact;
  if (s.queue !== undefined) out.sumQueue = s.queue;
  if (s.whatsapp !== undefined) out.sumWhatsapp = s.whatsapp;
  if (s.user !== undefined) out.sumUser = s.user;
  if (s.tags) out.sumTags = Object.fromEntries(s.tags.map((g) => [String(g.id), g]));
  return out;
}

/**
 * Reads the summaries of the given related ids in ONE BatchGet (only the parts asked for: `undefined` fields are
 * skipped, `null` ids give `null`). A related item that does not exist gives no summary for that part (the view then
 * reads it, as before).
 */
export async function loadSummaries(
  companyId: number,
  want: { contactId?: number; queueId?: number | null; userId?: number | null; whatsappId?: number; tagIds?: number[] },
): Promise<TicketSummaries> {
  const k: { PK: string; SK: string }[] = [];
  if (want.contactId !== undefined) k.push(keys.contact(companyId, want.contactId));
  if (want.queueId != null) k.push(keys.queue(companyId, want.queueId));
  if (want.userId != null) k.push(keys.user(companyId, want.userId));
  if (want.whatsappId !== undefined) k.push(keys.whatsapp(companyId, want.whatsappId));
  for (const id of want.tagIds ?? []) k.push(keys.tag(companyId, id));
  const got = k.length ? await batchGetRaw(k) : new Map<string, Record<string, unknown>>();
  const item = (key: { PK: string; SK: string }) => got.get(`${key.PK}|${key.SK}`);
  const s: TicketSummaries = {};
  if (want.contactId !== undefined) {
    const raw = item(keys.contact(companyId, want.contactId));
    const c = raw ? ContactItem.safeParse(raw) : null;
    if (c?.success) s.contact = contactSummaryOf(c.data);
  }
  if (want.queueId === null) s.queue = null;
  else if (want.queueId !== undefined) {
    const raw = item(keys.queue(companyId, want.queueId));
    if (raw) s.queue = queueSummaryOf(raw);
  }
  if (want.userId === null) s.user = null;
  else if (want.userId !== undefined) {
    const raw = item(keys.user(companyId, want.userId));
    if (raw) s.user = userSummaryOf(raw);
  }
  if (want.whatsappId !== undefined) {
    const raw = item(keys.whatsapp(companyId, want.whatsappId));
    if (raw) s.whatsapp = whatsappSummaryOf(raw);
  }
  if (want.tagIds) {
    s.tags = want.tagIds.map((id) => item(keys.tag(companyId, id))).filter((x): x is Record<string, unknown> => !!x).map(tagSummaryOf);
  }
  return s;
}
