/**
 * Numeric ids the UI shows: one atomic counter item per company and entity
 * (`GLOBAL` for companies and plans). `UpdateItem ADD` is atomic; a retried call may skip a number, never repeat one.
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { addDays, addMonths, format, lastDayOfMonth, parseISO, startOfISOWeek } from "date-fns";
import { ddb, tableName, type TxItem } from "./client.ts";
import { keys } from "./keys.ts";
import { queryAllByPrefix } from "./query.ts";

/**
 * Allocates the next id (1, 2, 3, ...) for `entity` in `scope` (a company id or `GLOBAL`). A number taken is never
 * given back, so callers run every check they can (rights, body, references, uniqueness markers, an open ticket of
 * the contact) before calling it: a refused creation must not leave a gap in the ids people see.
 */
export async function nextId(scope: number | "GLOBAL", entity: string): Promise<number> {
  const out = await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(scope, entity),
      UpdateExpression: "ADD #v :one",
      ExpressionAttributeNames: { "#v": "value" },
      ExpressionAttributeValues: { ":one": 1 },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return Number(out.Attributes?.value);
}

/**
 * Allocates `n` consecutive ids for `entity` in `scope` with one atomic `ADD` (bulk creations such as an import):
 * returns the first; the block is `first` … `first + n - 1`. Same rules as {@link nextId}.
 */
export async function nextIds(scope: number | "GLOBAL", entity: string, n: number): Promise<number> {
  const out = await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(scope, entity),
      UpdateExpression: "ADD #v :n",
      ExpressionAttributeNames: { "#v": "value" },
      ExpressionAttributeValues: { ":n": n },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return Number(out.Attributes?.value) - n + 1;
}

/**
 * The daily counters (`C#<cid>#STATS` / `D#<yyyy-mm-dd>`, the company's local day, docs/architecture.md#3-the-table),
 * written by `events/outbox.ts` (docs/product/dashboard.md#counters). One item per company and day holds the
 * company's counters and, beside them, each attendant's as top-level attributes {@link userCounter}
 * (`U#<uid>#<counter>`), so a period costs one item per day whatever the number of attendants.
 * `ticketsAccepted` / `waitSeconds`: cycles accepted and their summed wait; `handled` / `handlingSeconds`: accepted
 * cycles finished and their summed handling time (`ticketsClosed` also counts closes of tickets never accepted).
 * `ratings` / `ratingSum`: customers' 1-3 ratings of the attendant (count and sum; average = sum / count).
 * `messagesOut`: messages sent through Atende (agents' and automatic). `messagesIn`: customers' live messages, per day
 * and per the attendant the ticket had (none while pending): see {@link messagesInOf}.
 */
export const DAILY_COUNTERS = ["ticketsOpened", "ticketsAccepted", "ticketsClosed", "handled", "waitSeconds", "handlingSeconds", "contactsCreated", "messagesIn", "messagesOut", "ratings", "ratingSum"] as const;
export type DailyCounter = (typeof DAILY_COUNTERS)[number];

/**
 * The attribute of a day item the live count of customers' messages is added to, group-committed right after each
 * message is stored (`events/messages-in.ts`); `messagesIn` itself is the exact count the day's end hands over from
 * the tickets (docs/product/dashboard.md#customers-messages).
 */
export const MESSAGES_IN_LIVE = "messagesInLive";

/**
 * The attribute of the company's day item holding attendant `userId`'s `counter` (`U#<uid>#<counter>`). A top-level
 * name, so `ADD` creates it on first use: no parent map that would have to exist first, each count one atomic `ADD`
 * in the same update as the company's. Size: at most 12 such attributes per attendant and day (the counters and
 * `messagesInLive`), about 310 bytes with names; the company's own about 1 KB; so DynamoDB's 400 KB item limit holds
 * about 1,300 attendants counted on one day (docs/architecture.md#3-the-table).
 */
export const userCounter = (userId: number, counter: string) => keys.statsUserAttr(userId, counter);

/** The attendant and counter a {@link userCounter} attribute name holds, or null for the company's own attributes. */
export function userOfCounter(name: string): { userId: number; counter: string } | null {
  const from = keys.statsUserAttrPrefix.length;
  const end = name.indexOf("#", from);
  if (!name.startsWith(keys.statsUserAttrPrefix) || end < 0) return null;
  const userId = Number(name.slice(from, end));
  return Number.isInteger(userId) ? { userId, counter: name.slice(end + 1) } : null;
}

/** `deltas` as attendant `userId`'s attributes of the company's day item ({@link userCounter}). */
export const userDeltas = (userId: number, deltas: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(deltas).map(([k, v]) => [userCounter(userId, k), v]));

/**
 * The customers' messages of a stored day item: the exact count handed over at the day's end, or, until then (today),
 * the live count. The live count never exceeds the exact one (each stored message is counted live at most once), so
 * the larger of the two is the day's figure, exact once the day is handed over. `prefix`: the attendant's attribute
 * prefix (`U#<uid>#`), empty for the company's.
 */
export const messagesInOf = (item: Record<string, unknown> | undefined, prefix = ""): number => Math.max(Number(item?.[`${prefix}messagesIn`] ?? 0), Number(item?.[`${prefix}${MESSAGES_IN_LIVE}`] ?? 0));

/** A stored day item's counters (zeros for what was never counted), `messagesIn` per {@link messagesInOf}; `prefix` as there. */
export function dailyCountersOf(item: Record<string, unknown> | undefined, prefix = ""): Record<DailyCounter, number> {
  return Object.fromEntries(DAILY_COUNTERS.map((c) => [c, c === "messagesIn" ? messagesInOf(item, prefix) : Number(item?.[`${prefix}${c}`] ?? 0)])) as Record<DailyCounter, number>;
}

const DAY_MS = 86_400_000;
/** The UTC day (`yyyy-mm-dd`) `days` days before instant `now` (ms). */
const utcDayBefore = (now: number, days: number) => new Date(now - days * DAY_MS).toISOString().slice(0, 10);

/** The month (`yyyy-mm`) of day `day` (`yyyy-mm-dd`). */
export const monthOf = (day: string) => day.slice(0, 7);

/** `yyyy-mm-dd` / `yyyy-mm` strings read and written as calendar dates (local midnight both ways, so any process zone). */
const dayText = (d: Date) => format(d, "yyyy-MM-dd");

/** The month (`yyyy-mm`) after `month`. */
export const nextMonth = (month: string) => format(addMonths(parseISO(`${month}-01`), 1), "yyyy-MM");

/** The day (`yyyy-mm-dd`) `n` days after `day` (before it when `n` is negative). */
export const daysAfter = (day: string, n: number) => dayText(addDays(parseISO(day), n));

/** The day (`yyyy-mm-dd`) before `day`. */
export const dayBefore = (day: string) => daysAfter(day, -1);

/** The last day (`yyyy-mm-dd`) of `month` (`yyyy-mm`). */
export const lastDayOf = (month: string) => dayText(lastDayOfMonth(parseISO(`${month}-01`)));

/** The Monday (`yyyy-mm-dd`) starting the Monday–Sunday week of day `day`. */
export const mondayOf = (day: string) => dayText(startOfISOWeek(parseISO(day)));

/**
 * A span of a company's local days that is rolled up: a month (`id` `yyyy-mm`) or a Monday–Sunday week (`id` its
 * Monday `yyyy-mm-dd`), from `first` to `last` (`yyyy-mm-dd`, both included), with its roll-up item's key
 * (`keys.statsMonth`, `keys.statsWeek`; docs/product/dashboard.md#roll-ups).
 */
export interface Span {
  kind: "month" | "week";
  id: string;
  first: string;
  last: string;
  key: (companyId: number) => { PK: string; SK: string };
}

/** Month `month` (`yyyy-mm`) as a {@link Span}. */
export const monthSpan = (month: string): Span => ({ kind: "month", id: month, first: `${month}-01`, last: lastDayOf(month), key: (cid) => keys.statsMonth(cid, month) });

/** The Monday–Sunday week starting on `monday` (`yyyy-mm-dd`) as a {@link Span}. */
export const weekSpan = (monday: string): Span => ({ kind: "week", id: monday, first: monday, last: daysAfter(monday, 6), key: (cid) => keys.statsWeek(cid, monday) });

/** The rolled-up spans holding day `day` (`yyyy-mm-dd`): its month and its week. */
export const spansOf = (day: string): Span[] => [monthSpan(monthOf(day)), weekSpan(mondayOf(day))];

/**
 * Whether a span of company-local days ending on `lastDay` (`yyyy-mm-dd`: a month's or a week's last day) is sealed at
 * instant `now` (ms): its last day is before UTC today minus 2 days, so no company's zone is still in it and its days'
 * customers' messages are handed over (15 minutes after the local day ends). Only a sealed span is rolled up
 * (`keys.statsMonth`, `keys.statsWeek`; docs/product/dashboard.md#roll-ups).
 */
export const spanSealed = (lastDay: string, now = Date.now()) => lastDay < utcDayBefore(now, 2);

/**
 * Whether a fact written to a day of a span ending on `lastDay` at `now` invalidates its roll-up: the span's last day
 * is before UTC today minus 1 day, one day earlier than {@link spanSealed}, so a writer deciding near the boundary
 * (its clock, the time between its decision and its commit) never leaves out a span a build already treats as sealed.
 */
export const spanNearlySealed = (lastDay: string, now = Date.now()) => lastDay < utcDayBefore(now, 1);

/**
 * The items a transaction writing company `companyId`'s day items of `days` (`yyyy-mm-dd`) adds so the roll-ups stay
 * exact: for each distinct nearly sealed month and nearly sealed week ({@link spansOf}, {@link spanNearlySealed}) of
 * those days, one `ADD rev :1` of its roll-up item (`keys.statsMonth`, `keys.statsWeek`; at most two per distinct
 * day), which makes a built roll-up stale and fails a build under way (its write is conditioned on `rev`). None for
 * today's facts: the counters' normal path writes nothing more. Every writer of a company day item puts these in its
 * own transaction (`events/outbox.ts`; docs/product/dashboard.md#roll-ups).
 */
export function rollupInvalidations(companyId: number, days: Iterable<string>, now = Date.now()): TxItem[] {
  const spans = new Map<string, Span>();
  // A day's spans end on it or later: from UTC yesterday on (every fact of the normal path), none is nearly sealed.
  const recent = utcDayBefore(now, 1);
  for (const day of days) {
    if (day >= recent) continue;
    for (const s of spansOf(day)) if (spanNearlySealed(s.last, now)) spans.set(s.key(companyId).SK, s);
  }
  return [...spans.values()].map((s) => ({
    Update: { TableName: tableName(), Key: s.key(companyId), UpdateExpression: "ADD #rev :one", ExpressionAttributeNames: { "#rev": "rev" }, ExpressionAttributeValues: { ":one": 1 } },
  }));
}

/**
 * A company's (or one attendant's) counters of one local day `yyyy-mm-dd`; zeros when nothing was counted. An
 * attendant's are their attributes of the company's day item plus, for days counted before those attributes existed,
 * their own item (`keys.stats(cid, day, uid)`, the former layout, still read).
 */
export async function readDailyCounters(companyId: number, day: string, userId?: number): Promise<Record<DailyCounter, number>> {
  const get = (Key: { PK: string; SK: string }) => ddb().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
  if (userId == null) return dailyCountersOf((await get(keys.stats(companyId, day))).Item);
  const [company, former] = await Promise.all([get(keys.stats(companyId, day)), get(keys.stats(companyId, day, userId))]);
  // Each raw count summed over both layouts first: a day counted live in the former one may be handed over in this one.
  const prefix = userCounter(userId, "");
  const sum = (c: string) => Number(company.Item?.[`${prefix}${c}`] ?? 0) + Number(former.Item?.[c] ?? 0);
  return dailyCountersOf(Object.fromEntries([...DAILY_COUNTERS, MESSAGES_IN_LIVE].map((c) => [c, sum(c)])));
}

/**
 * The company's current counts: tickets `open` and `pending` now (the sum of the tab counts' queue items,
 * `keys.ticketCount`, kept by the outbox of every ticket create, transition and delete, groups included) and its
 * `contacts` (`keys.statsNow`, kept by the outbox of every contact create and delete).
 */
export const GAUGES = ["open", "pending", "contacts"] as const;
export type Gauge = (typeof GAUGES)[number];

/** The attribute of a company day item counting the tickets opened in local hour `hour` (0-23) of that day. */
export const openedInHour = (hour: number) => `ticketsOpenedH${String(hour).padStart(2, "0")}`;

/** The company's current counts (zeros when nothing was counted; never below zero). */
export async function readCurrentCounts(companyId: number): Promise<Record<Gauge, number>> {
  const [now, queues] = await Promise.all([ddb().send(new GetCommand({ TableName: tableName(), Key: keys.statsNow(companyId) })), readQueueCounts(companyId)]);
  const sum = (a: string, b: string) => queues.reduce((n, q) => n + Number(q[a] ?? 0) + Number(q[b] ?? 0), 0);
  const counts = { open: sum("open", "groupOpen"), pending: sum("pending", "groupPending"), contacts: Number(now.Item?.contacts ?? 0) };
  return Object.fromEntries(GAUGES.map((g) => [g, Math.max(0, counts[g])])) as Record<Gauge, number>;
}

/**
 * Every queue item of a company's tab counts (`keys.ticketCount` `Q#…`: one per queue that ever held a ticket, and
 * `Q#NONE`), as stored: one Query of a partition holding one item per queue and per user.
 */
export function readQueueCounts(companyId: number): Promise<Record<string, unknown>[]> {
  return queryAllByPrefix(keys.ticketCountPK(companyId), keys.ticketCountQueuePrefix);
}
