/**
 * Summaries stored on ticket items: what a ticket-list row shows of the ticket's contact, queue,
 * connection, user and tags, denormalized so a page of a tab is ONE Query (`views.ts` builds the API's nested objects
 * from them). Stored attributes of the ticket item (never returned raw: `TicketItem` does not carry them):
 * - `sumContact` `{id, name, number, profilePicUrl, email, extraInfo, isGroup, presence, disableBot, uuid}`;
 * - `sumQueue` `{id, name, color} | null`, `sumUser` `{id, name} | null`, `sumWhatsapp` `{id, name, status} | null`;
 * - `sumTags` `{"<tagId>": {id, name, color}}` (a map, so one tag's entry is updated in place).
 *
 * Written whole when a ticket is created (`createTicketItem`) and, for the parts whose id changes, by every
 * transition (`writeTicketTransition`). Kept current by {@link ticketSummariesListener} when the entities change.
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
import { ticketGramWrites } from "../search/writes.ts";
import { keys } from "../db/keys.ts";
import { pagesFrom, queryPagesFrom } from "../db/query.ts";
import { ContactItem } from "../contacts/schema.ts";
import type { Listener } from "../events/registry.ts";
import { log } from "../log.ts";
import { queryTagEdges } from "../tags/repository.ts";
import type {} from "../tags/events.ts"; // the tag.* event types this listener handles (types only: no import cycle)
import { setTicketSummaryPart, setTicketTagSummary } from "./repository.ts";
import { TicketItem } from "./schema.ts";

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
/** Concurrent ticket updates of one refresh. */
const PARALLEL = 8;

/** The nested contact from a stored contact item. */
/** The contact fields a ticket's `sumContact` holds (see {@link contactSummaryOf}). */
const CONTACT_SUMMARY_FIELDS = new Set(["id", "name", "number", "profilePicUrl", "email", "extraInfo", "isGroup", "presence", "disableBot", "uuid"]);

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
  for (const k of REQUIRED_NUMBERS) if (typeof raw[k] !== "number") return TicketItem.parse(raw);
  if (raw.status !== "open" && raw.status !== "pending" && raw.status !== "closed") return TicketItem.parse(raw);
  if (typeof raw.uuid !== "string" || typeof raw.createdAt !== "string" || typeof raw.updatedAt !== "string") return TicketItem.parse(raw);
  const out: Record<string, unknown> = {};
  for (const [k, d] of FIELDS) {
    const v = raw[k];
    out[k] = v !== undefined ? v : Array.isArray(d) ? [] : d;
  }
  return out as TicketItem;
}

/** Parses a stored ticket item ONCE (no schema parse for well-formed items) and keeps its summaries beside it. */
export function parseTicket(raw: Record<string, unknown>): TicketItem {
  return attachSummaries(ticketFromStored(raw), storedSummaries(raw));
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

// ---------------------------------------------------------------------------------------------
// Keeping them current: the listener

type Part = "sumContact" | "sumQueue" | "sumUser" | "sumWhatsapp";
/** The ticket attribute a part's summary must match (a ticket moved meanwhile is left alone). */
const OWNER: Record<Part, string> = { sumContact: "contactId", sumQueue: "queueId", sumUser: "userId", sumWhatsapp: "whatsappId" };

/** One source of affected tickets: an index partition (newest first), optionally narrowed by the owner id. */
type Source = { index: "GSI1" | "GSI2" | "GSI3" | "GSI4"; pk: string; skPrefix?: string; filterOwner?: boolean };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Runs `fn` over `xs` with at most {@link PARALLEL} at once. */
async function eachLimited<T>(xs: T[], fn: (x: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < xs.length; i += PARALLEL) await Promise.all(xs.slice(i, i + PARALLEL).map(fn));
}

/**
 * Sets `part` = `value` on the tickets of each source whose `OWNER[part]` is `ownerId` and whose stored value differs,
 * at most {@link SUMMARY_REFRESH_LIMIT} tickets read per source. Each write is conditioned on the owner id still being
 * `ownerId`. Returns how many tickets were updated.
 */
async function refreshPart(
  part: Part,
  ownerId: number,
  value: unknown,
  sources: Source[],
  alsoWrite?: (ticketId: number, stored: unknown) => ReturnType<typeof ticketGramWrites>,
): Promise<number> {
  let updated = 0;
  const owner = OWNER[part];
  for (const src of sources) {
    let read = 0;
    const values: Record<string, unknown> = { ":pk": src.pk };
    let cond = `${src.index}PK = :pk`;
    if (src.skPrefix) {
      cond += ` AND begins_with(${src.index}SK, :sp)`;
      values[":sp"] = src.skPrefix;
    }
    if (src.filterOwner) values[":o"] = ownerId;
    const input = {
      IndexName: src.index,
      KeyConditionExpression: cond,
      ExpressionAttributeValues: values,
      ProjectionExpression: "PK, SK, id, #o, #p",
      ExpressionAttributeNames: { "#o": owner, "#p": part },
      ...(src.filterOwner ? { FilterExpression: "#o = :o" } : {}),
      ScanIndexForward: false,
    };
    // Pages of at most 100, until SUMMARY_REFRESH_LIMIT items were read (a filtered read counts what it scanned).
    for await (const page of queryPagesFrom(input, undefined, () => (read < SUMMARY_REFRESH_LIMIT ? Math.min(100, SUMMARY_REFRESH_LIMIT - read) : null))) {
      read += page.scanned;
      const stale = page.items.filter((it) => Number(it[owner]) === ownerId && it[part] !== undefined && !same(it[part], value));
      await eachLimited(stale, async (it) => {
        if (await setTicketSummaryPart({ PK: String(it.PK), SK: String(it.SK) }, part, owner, ownerId, value, alsoWrite?.(Number(it.id), it[part]) ?? [])) updated++;
      });
    }
  }
  return updated;
}

const STATUSES = ["open", "pending", "closed"] as const;

/** Sets one tag's entry in `sumTags` on the tickets carrying it (tag edges on GSI4), at most {@link SUMMARY_REFRESH_LIMIT}. */
async function refreshTag(companyId: number, tag: NamedColored): Promise<number> {
  let updated = 0;
  let read = 0;
  const pages = pagesFrom((startKey) =>
    read < SUMMARY_REFRESH_LIMIT ? queryTagEdges(companyId, tag.id, { limit: Math.min(100, SUMMARY_REFRESH_LIMIT - read), startKey }) : null,
  );
  for await (const page of pages) {
    read += page.edges.length;
    await eachLimited(page.edges, async (e) => {
      if (await setTicketTagSummary(companyId, e.ticketId, tag)) updated++;
    });
  }
  return updated;
}

/**
 * Keeps the stored summaries current (events pattern, `shared/src/events/README.md`): `contact.updated` → the
 * contact's tickets (GSI4 `C#<cid>#CT#<contactId>`); `queue.updated` → GSI2 `S#<status>#Q#<qid>` per status;
 * `user.updated` → GSI3 `S#<status>#U#<uid>` per status; `whatsapp.updated|session` → GSI1 `S#<status>` per status,
 * narrowed to that connection; `tag.updated` → the tag's edges (GSI4 `C#<cid>#TAG#<tagId>`). Only tickets whose
 * stored summary differs are written; bounded by {@link SUMMARY_REFRESH_LIMIT} per partition; never a scan. Deleted
 * entities need nothing: the ticket's id no longer names them (or views fall back to a read that finds nothing).
 * Eventually consistent: see the module doc.
 */
export const ticketSummariesListener: Listener = {
  name: "ticketSummaries",
  async handle(event) {
    const cid = event.companyId;
    try {
      switch (event.type) {
        case "contact.updated": {
          const c = event.contact;
          // Only "Última interação" moved (one write a minute per chatting contact): no summary field changed.
          if (event.changed && !event.changed.some((f) => CONTACT_SUMMARY_FIELDS.has(f))) break;
          const next = contactSummaryOf(c);
          // With the summary, the ticket-side search grams move to the contact's new words (search/writes.ts).
          await refreshPart("sumContact", c.id, next, [{ index: "GSI4", pk: keys.contactTicketsPK(cid, c.id), skPrefix: keys.ticketEdgePrefix }], (tid, stored) =>
            ticketGramWrites(cid, tid, stored as ContactSummary, next),
          );
          break;
        }
        case "queue.updated": {
          const q = event.queue as unknown as Record<string, unknown>;
          const id = Number(q.id);
          await refreshPart("sumQueue", id, queueSummaryOf(q), STATUSES.map((s) => ({ index: "GSI2" as const, pk: keys.ticketQueuePK(cid, s, id) })));
          break;
        }
        case "user.updated": {
          const u = event.user as unknown as Record<string, unknown>;
          const id = Number(u.id);
          await refreshPart("sumUser", id, userSummaryOf(u), STATUSES.map((s) => ({ index: "GSI3" as const, pk: keys.ticketUserPK(cid, s, id) })));
          break;
        }
        case "whatsapp.updated":
        case "whatsapp.session": {
          const w = event.whatsapp as unknown as Record<string, unknown>;
          const id = Number(w.id);
          await refreshPart("sumWhatsapp", id, whatsappSummaryOf(w), STATUSES.map((s) => ({ index: "GSI1" as const, pk: keys.ticketStatusPK(cid, s), filterOwner: true })));
          break;
        }
        case "tag.updated": {
          const g = event.tag as unknown as Record<string, unknown>;
          await refreshTag(cid, tagSummaryOf(g));
          break;
        }
      }
    } catch (err) {
      log("warn", "ticket summaries refresh failed", { companyId: cid, type: event.type, err });
    }
  },
};
