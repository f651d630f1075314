/**
 * The reports' rules (docs/product/reports.md). A report is the list of attendances (service cycles) of a period,
 * newest first: the open and pending tickets' current cycles (from the tickets' status lists), then the finished
 * cycles (from their month partitions, or from the report entries of the most selective filter). Paged by keys: the
 * cursor names the source it is at and the sort key after which it goes on; a request reads at most
 * {@link READ_BUDGET} items, so a very selective mix of filters answers a short page with a cursor rather than a slow one.
 */
import { TZDate } from "@date-fns/tz";
import { addDays, differenceInCalendarDays, format, parseISO } from "date-fns";
import { can } from "../access/permissions.ts";
import { canSeeInCompany } from "../access/visibility.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { companyTimeZone } from "../companies/service.ts";
import { nextMonth } from "../db/counters.ts";
import { batchGetRaw, keyId } from "../db/batch.ts";
import { decodeCursor, encodeCursor } from "../db/cursor.ts";
import { keys } from "../db/keys.ts";
import { pagesFrom } from "../db/query.ts";
import { AppError } from "../errors.ts";
import { listQueues } from "../queues/repository.ts";
import { secondsBetween } from "../tickets/cycles.ts";
import { getAccessibleTicket, type TicketActor } from "../tickets/access.ts";
import { batchGetTickets, queryTicketIndex, type TicketIndex } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { summariesOf } from "../tickets/summaries.ts";
import { listUsers } from "../users/repository.ts";
import { listWhatsappItems } from "../whatsapp/repository.ts";
import { monthOf } from "./entries.ts";
import { type CyclePartition, cycleStartKey, queryCycles } from "./repository.ts";
import {
  type ContactAttendances,
  ReportCursor,
  type ReportEntry,
  type ReportFilters,
  type ReportPage,
  type ReportQuery,
  type ReportRow,
  REPORT_MAX_DAYS,
} from "./schema.ts";

/** Items one request examines at most (rows returned and rows another filter left out). */
export const READ_BUDGET = 2000;
/** Days of the period when none is given (today included). */
export const DEFAULT_DAYS = 30;
/** Attendances the Atendimentos tab lists at most. */
export const CONTACT_ATTENDANCES_MAX = 100;

/** A source of a report's rows, read newest first: a status list of current tickets, or a finished-cycle partition. */
export type Source = ({ kind: "tickets"; status: "open" | "pending"; index: TicketIndex; pk: string } | { kind: "cycles"; p: CyclePartition }) & {
  /** The filter the source's key holds (every row of it passes that one), beside the status. */
  holds?: Dimension;
};
/** The filters a source's partition may be of. */
type Dimension = "queueId" | "userId" | "whatsappId" | "contactId" | "tagId" | "rate";

/**
 * A row before the names are joined: the ids of a cycle, its times, the contact's name and number when its source
 * holds them, and where it sits in its source.
 */
type Raw = Omit<ReportEntry, "companyId" | "waitSeconds" | "handlingSeconds" | "finishedAt"> & {
  status: ReportRow["status"];
  finishedAt: string | null;
  waitSeconds: number;
  handlingSeconds: number;
  sk: string;
};

function requireViewer(auth: { profile: string; super?: boolean | null }): void {
  if (!can(auth, "reports:view")) throw new AppError("ERR_NO_PERMISSION");
}

/** The instant (ISO, UTC) local day `day` (`yyyy-mm-dd`) starts at in zone `tz`. */
const dayStart = (day: string, tz: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(new TZDate(y, m - 1, d, tz).getTime()).toISOString();
};

/**
 * The period of `f` as instants `[from, to)`: its local days in zone `tz` (the last {@link DEFAULT_DAYS} days when
 * none is given; one given: that day alone). More than {@link REPORT_MAX_DAYS} days is 400 `ERR_VALIDATION`.
 */
export function periodOf(f: Pick<ReportFilters, "initialDate" | "finalDate">, tz: string, now = Date.now()): { from: string; to: string } {
  const today = format(new TZDate(now, tz), "yyyy-MM-dd");
  const first = f.initialDate ?? f.finalDate ?? format(addDays(parseISO(today), 1 - DEFAULT_DAYS), "yyyy-MM-dd");
  const last = f.finalDate ?? f.initialDate ?? today;
  if (differenceInCalendarDays(parseISO(last), parseISO(first)) + 1 > REPORT_MAX_DAYS) {
    throw new AppError("ERR_VALIDATION", { message: `at most ${REPORT_MAX_DAYS} days` });
  }
  return { from: dayStart(first, tz), to: dayStart(format(addDays(parseISO(last), 1), "yyyy-MM-dd"), tz) };
}

/** The UTC months (`yyyy-mm`) of `[from, to)`, newest first. */
function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  const last = monthOf(new Date(Date.parse(to) - 1).toISOString());
  for (let m = monthOf(from); m <= last; m = nextMonth(m)) out.unshift(m);
  return out;
}

/**
 * The sources of a report, in reading order. Open and pending tickets come from their status list, narrowed to the
 * attendant's or the queue's when that filter is given. Finished cycles come from the partition of the most
 * selective filter given, in this order: contact (all its cycles in one partition), tag, attendant (GSI3), queue,
 * rate, connection; none of them: the company's month on GSI1. One source per month of the period.
 */
export function sourcesOf(cid: number, f: ReportFilters, period: { from: string; to: string }): Source[] {
  const out: Source[] = [];
  for (const status of ["open", "pending"] as const) {
    if ((f.status && f.status !== status) || f.rate != null) continue;
    if (f.userId != null) out.push({ kind: "tickets", status, index: "GSI3", pk: keys.ticketUserPK(cid, status, f.userId), holds: "userId" });
    else if (f.queueId != null) out.push({ kind: "tickets", status, index: "GSI2", pk: keys.ticketQueuePK(cid, status, f.queueId), holds: "queueId" });
    else out.push({ kind: "tickets", status, index: "GSI1", pk: keys.ticketStatusPK(cid, status) });
  }
  if (f.status && f.status !== "closed") return out;
  if (f.contactId != null) return [...out, { kind: "cycles", p: { pk: keys.reportEntryPK(cid, "CT", f.contactId, null) }, holds: "contactId" }];
  for (const m of monthsOf(period.from, period.to)) {
    const at = `${m}-01T00:00:00.000Z`;
    if (f.tagId != null) out.push({ kind: "cycles", p: { pk: keys.reportEntryPK(cid, "TG", f.tagId, m) }, holds: "tagId" });
    else if (f.userId != null) out.push({ kind: "cycles", p: { index: "GSI3", pk: keys.ticketCycleIndex(cid, 0, at, f.userId).GSI3PK as string }, holds: "userId" });
    else if (f.queueId != null) out.push({ kind: "cycles", p: { pk: keys.reportEntryPK(cid, "Q", f.queueId, m) }, holds: "queueId" });
    else if (f.rate != null) out.push({ kind: "cycles", p: { pk: keys.reportEntryPK(cid, "R", f.rate, m) }, holds: "rate" });
    else if (f.whatsappId != null) out.push({ kind: "cycles", p: { pk: keys.reportEntryPK(cid, "W", f.whatsappId, m) }, holds: "whatsappId" });
    else out.push({ kind: "cycles", p: { index: "GSI1", pk: keys.ticketCycleIndex(cid, 0, at, null).GSI1PK } });
  }
  return out;
}

/**
 * Whether rows of `src` may fail a filter of `f` its key does not hold (a source's partition holds the status and at
 * most one filter: {@link Source} `holds`), so that a page reads ahead of its room.
 */
function leftToCheck(f: ReportFilters, src: Source): boolean {
  return (["queueId", "userId", "whatsappId", "contactId", "tagId", "rate"] as const).some((k) => f[k] != null && k !== src.holds);
}

/** Whether a row read from a source passes every filter (the source's own key already holds one or two of them). */
function matches(r: Raw, f: ReportFilters, period: { from: string; to: string }): boolean {
  if (f.queueId != null && r.queueId !== f.queueId) return false;
  if (f.userId != null && r.userId !== f.userId) return false;
  if (f.whatsappId != null && r.whatsappId !== f.whatsappId) return false;
  if (f.contactId != null && r.contactId !== f.contactId) return false;
  if (f.tagId != null && !r.tagIds.includes(f.tagId)) return false;
  if (f.rate != null && r.rate !== f.rate) return false;
  if (f.status && r.status !== f.status) return false;
  const at = r.finishedAt ?? r.sk.slice(0, r.sk.lastIndexOf("#"));
  return at >= period.from && at < period.to;
}

/** The row of a finished cycle. */
const rawOfCycle = (c: ReportEntry & { sk: string }): Raw => ({ ...c, status: "closed" });

/** The row of an open or pending ticket's current cycle: its times so far. */
function rawOfTicket(t: TicketItem & { _sk: string }, now: string): Raw {
  const queuedAt = t.queuedAt ?? t.createdAt;
  const acceptedAt = t.status === "open" ? (t.acceptedAt ?? queuedAt) : null;
  // The ticket's contact summary, kept current by the tickets' summaries listener (a ticket without one reads it).
  const c = summariesOf(t)?.contact;
  return {
    ...(c?.id === t.contactId ? { contact: { name: c.name, number: c.number } } : {}),
    ticketId: t.id,
    contactId: t.contactId,
    queueId: t.queueId,
    whatsappId: t.whatsappId,
    queuedAt,
    acceptedAt,
    acceptedBy: t.acceptedBy,
    userId: t.userId,
    finishedAt: null,
    waitSeconds: secondsBetween(queuedAt, acceptedAt ?? now),
    handlingSeconds: acceptedAt ? secondsBetween(acceptedAt, now) : 0,
    ratedAt: null,
    rate: null,
    tagIds: t.tagIds,
    status: t.status,
    sk: t._sk,
  };
}

/** One page of `src` after sort key `startSk`: its rows and whether the source has more after them. */
async function* readSource(cid: number, src: Source, period: { from: string; to: string }, startSk: string | undefined, pageSize: () => number | null) {
  const range = { from: period.from, to: period.to };
  if (src.kind === "cycles") {
    const start = startSk ? cycleStartKey(cid, src.p, startSk) : undefined;
    // a contact's partition holds every cycle of the contact: the same range narrows it to the period
    for await (const page of pagesFrom((startKey) => {
      const n = pageSize();
      return n == null ? null : queryCycles(src.p, range, n, startKey);
    }, start)) {
      yield { rows: page.items.map(rawOfCycle), last: !page.lastKey };
    }
    return;
  }
  const start = startSk ? { ...keys.ticket(cid, Number(startSk.slice(startSk.lastIndexOf("#") + 1))), [`${src.index}PK`]: src.pk, [`${src.index}SK`]: startSk } : undefined;
  const now = new Date().toISOString();
  for await (const page of pagesFrom((startKey) => {
    const n = pageSize();
    return n == null ? null : queryTicketIndex(src.index, src.pk, { limit: n, startKey, skBetween: [range.from, range.to] });
  }, start)) {
    yield { rows: page.items.map((t) => rawOfTicket(t, now)), last: !page.lastKey };
  }
}

/**
 * The rows of the report of company `cid` with filters `f` over `period`, from `cursor` on: at most `limit`, and at
 * most `budget` items examined. `next` is where the following page starts (undefined: nothing more).
 */
export async function readReport(
  cid: number,
  f: ReportFilters,
  period: { from: string; to: string },
  cursor: ReportCursor | undefined,
  limit: number,
  budget = READ_BUDGET,
): Promise<{ rows: Raw[]; next?: ReportCursor }> {
  const sources = sourcesOf(cid, f, period);
  const rows: Raw[] = [];
  let examined = 0;
  let narrowed = false;
  const pageSize = () => {
    if (examined >= budget) return null;
    const want = limit - rows.length + (narrowed ? 50 : 1);
    return Math.max(1, Math.min(want, budget - examined, 500));
  };
  for (let s = cursor?.s ?? 0, k = cursor?.k; s < sources.length; s++, k = undefined) {
    let ended = false;
    narrowed = leftToCheck(f, sources[s]);
    for await (const page of readSource(cid, sources[s], period, k, pageSize)) {
      for (let i = 0; i < page.rows.length; i++) {
        const r = page.rows[i];
        examined++;
        k = r.sk;
        if (matches(r, f, period)) rows.push(r);
        if (rows.length >= limit) {
          const atEnd = i === page.rows.length - 1 && page.last && s === sources.length - 1;
          return { rows, next: atEnd ? undefined : { s, k } };
        }
      }
      ended = page.last;
    }
    if (!ended) return { rows, next: { s, k } }; // the read budget is spent: the next page goes on from here
  }
  return { rows };
}

type Names = {
  q: Map<number, { id: number; name: string; color: string }>;
  u: Map<number, { id: number; name: string }>;
  w: Map<number, { id: number; name: string }>;
};
/** How long this process reuses a company's queue, attendant and connection names for report pages (ms). */
const NAMES_CACHE_MS = 5_000;
const namesCache = new Map<number, { at: number; names: Promise<Names> }>();

/**
 * The company's queues, attendants and connections by id (names; queues with their color), read at most once per
 * {@link NAMES_CACHE_MS} in this process (pages of one scroll or export share one read; a rename shows within that
 * time). A row naming an id the copy lacks (created since) reads them again.
 */
async function namesOf(cid: number, raws: Raw[]): Promise<Names> {
  const hit = namesCache.get(cid);
  if (hit && Date.now() - hit.at < NAMES_CACHE_MS) {
    const names = await hit.names.catch(() => null);
    const known = (id: number | null, m: Map<number, unknown>) => id == null || m.has(id);
    if (names && raws.every((r) => known(r.queueId, names.q) && known(r.userId, names.u) && known(r.whatsappId, names.w))) return names;
  }
  const names = Promise.all([listQueues(cid), listUsers(cid), listWhatsappItems(cid)]).then(([queues, users, whatsapps]) => ({
    q: new Map(queues.map((x) => [x.id, { id: x.id, name: x.name, color: x.color }])),
    u: new Map(users.map((x) => [x.id, { id: x.id, name: x.name }])),
    w: new Map(whatsapps.map((x) => [x.id, { id: x.id, name: x.name }])),
  }));
  if (namesCache.size >= 10_000) namesCache.delete(namesCache.keys().next().value!);
  namesCache.set(cid, { at: Date.now(), names });
  return names;
}

/**
 * Joins names to rows: the company's queues, attendants and connections ({@link namesOf}), and the contact's name and
 * number, held by the row's source (the finished cycle, the ticket's summary) or, for rows stored before they were
 * kept, read in one BatchGet of those rows' contacts.
 */
async function withNames(cid: number, raws: Raw[]): Promise<ReportRow[]> {
  if (!raws.length) return [];
  const { q, u, w } = await namesOf(cid, raws);
  const missing = [...new Set(raws.filter((r) => !r.contact).map((r) => r.contactId))].map((id) => keys.contact(cid, id));
  // Only what a row shows of each contact: its name and number.
  const read = missing.length ? await batchGetRaw(missing, false, { expression: "PK, SK, #name, #number", names: { "#name": "name", "#number": "number" } }) : new Map();
  return raws.map((r) => {
    const c = r.contact ?? read.get(keyId(keys.contact(cid, r.contactId)));
    return {
      ticketId: r.ticketId,
      status: r.status,
      contact: { id: r.contactId, name: String(c?.name ?? ""), number: String(c?.number ?? "") },
      queue: r.queueId != null ? (q.get(r.queueId) ?? null) : null,
      user: r.userId != null ? (u.get(r.userId) ?? null) : null,
      whatsapp: w.get(r.whatsappId) ?? null,
      openedAt: r.queuedAt,
      acceptedAt: r.acceptedAt,
      closedAt: r.finishedAt,
      waitSeconds: r.waitSeconds,
      handlingSeconds: r.handlingSeconds,
      rate: r.rate,
      ratedAt: r.ratedAt,
    };
  });
}

/** A page's rows with their names (for the export, which reads page after page). */
export const rowsWithNames = withNames;

/** Decodes a client's cursor: anything but `{s, k?}` naming a source of this report is 400 `ERR_INVALID_CURSOR`. */
function cursorOf(raw: string | undefined, sources: number): ReportCursor | undefined {
  const c = ReportCursor.safeParse(decodeCursor(raw) ?? {});
  if (!raw) return undefined;
  if (!c.success || c.data.s >= sources) throw new AppError("ERR_INVALID_CURSOR");
  return c.data;
}

/**
 * `GET /api/ticket/reports`: one page of the caller's company report (admins, `reports:view`; else 403
 * `ERR_NO_PERMISSION`). Bad periods are 400 `ERR_VALIDATION`; a forged cursor 400 `ERR_INVALID_CURSOR`.
 */
export async function listReport(auth: AuthContext, q: ReportQuery): Promise<ReportPage> {
  requireViewer(auth);
  const { limit, cursor, ...f } = q;
  const period = periodOf(f, await companyTimeZone(auth.companyId));
  const at = cursorOf(cursor, sourcesOf(auth.companyId, f, period).length);
  const { rows, next } = await readReport(auth.companyId, f, period, at, limit);
  const tickets = await withNames(auth.companyId, rows);
  return { tickets, count: tickets.length, hasMore: !!next, ...(next ? { nextCursor: encodeCursor(next) } : {}) };
}

/**
 * `GET /api/ticket/history/{ticketId}`: the finished attendances of the contact of a ticket the caller may see
 * (404 `ERR_NO_TICKET_FOUND`, 403 `ERR_NO_PERMISSION` otherwise), newest first, at most
 * {@link CONTACT_ATTENDANCES_MAX}, only those of tickets the caller may open.
 */
export async function contactAttendances(actor: TicketActor, ticketId: number): Promise<ContactAttendances> {
  const t = await getAccessibleTicket(actor, ticketId);
  const cid = actor.companyId;
  const { items, lastKey } = await queryCycles({ pk: keys.reportEntryPK(cid, "CT", t.contactId, null) }, { from: "0", to: "~" }, CONTACT_ATTENDANCES_MAX);
  const tickets = await batchGetTickets(cid, [...new Set(items.map((c) => c.ticketId))]);
  const seen = new Set<number>();
  for (const [id, ticket] of tickets) if (await canSeeInCompany(actor, ticket, cid)) seen.add(id);
  const rows = await withNames(cid, items.filter((c) => seen.has(c.ticketId)).map(rawOfCycle));
  return { attendances: rows, hasMore: !!lastKey };
}
