/**
 * The counters' outbox: a daily counter must not be lost or counted twice.
 *
 * Why: the daily counter items (`C#<cid>#STATS` / `D#<day>`, the attendants' counters attributes of it) are hot (every message of a company bumps the
 * same item), so they stay OUT of the domain transactions (a hot item inside them causes
 * `TransactionConflict`). Counting after the write instead loses the count when the process dies in between, and
 * counting twice happens when a step is retried.
 *
 * How (exactly once):
 * 1. The domain write (a message sent through Atende, ticket create/transition, contact create, rating) puts ONE outbox item in the SAME
 *    `TransactWriteItems`. Its id is deterministic per fact (`M#<ticketId>#<messageId>`, `T#<ticketId>#v<version>`,
 *    `CT#<contactId>`), and it holds the counter deltas. A message stored twice (a retried send) is cancelled by the WA
 *    alias item of that transaction, so it writes no second outbox item; a retried transition fails its version check likewise.
 * 2. Applying an outbox item is ONE transaction: Delete the outbox item (`attribute_exists`) + `ADD` the deltas to the
 *    company's day item (the user's counters
 *    too: `U#<uid>#<counter>` attributes of it). Run twice, the second finds no outbox item and changes nothing. The
 *    same transaction checks the company item (present, not `deleting`): a fact of a deleted company is dropped uncounted.
 *    A late fact, on a day of a nearly sealed month or week, also bumps that month's and week's roll-up `rev` in it
 *    (`db/counters.ts` `rollupInvalidations`), as every writer of a day item does.
 * 3. The counters listener applies it right after the write. When the process died in between (or the hot item kept
 *    conflicting), the item waits where it was written: its key IS its due-time entry (`keys.outbox`: partition
 *    `OUTBOX#<shard>#<due hour>`, sort `<dueAt>#<cid>#<oid>`, due one minute after the fact), so it costs no index
 *    write, and the minute tick re-drives it ({@link redriveOutbox}): per shard, one Query from the shard's cursor
 *    (two across an hour), no scan. `dueShardsOf("outbox")` shards (`db/keys.ts`) spread every company's facts over as
 *    many partitions; an item keeps the shard it was written to (`shard`), whatever the count is later.
 * Hot items: a conflicting apply is retried with jittered backoff; what still conflicts is left for the tick.
 *
 * Days are the company's local `yyyy-mm-dd` of the fact's time (its `timezone`, read when the item is applied and
 * kept for five minutes), so a ticket opened at 23:30 in São Paulo counts on that
 * day. The company's day item also counts the tickets opened in each local hour (`openedInHour`). Wait and handling
 * times are the service cycle's (`tickets/cycles.ts`). A ticket fact also moves the tab counts (`tickets/tally.ts`:
 * per queue and per user, tickets open and pending now, `keys.ticketCount`) in the same apply; a contact fact the
 * company's contacts count (`keys.statsNow`). See docs/product/dashboard.md#counters.
 *
 * Customers' messages per day are the one fact not written per event: the ingest counts them on the ticket
 * (`inDays`) and puts one item per ticket, local day and attendant, due after that day ({@link counterFacts.messagesInDay});
 * its apply reads the ticket's count. Today's figure is the live count ({@link addMessagesInLive};
 * docs/product/dashboard.md#customers-messages).
 */
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { cancellationReasons } from "../db/errors.ts";
import { dueShardOfName, dueShardsToRead, keys } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { TTL_ATTRIBUTE } from "../db/table.ts";
import { TZDate } from "@date-fns/tz";
import { DEFAULT_TIME_ZONE } from "../automation/variables.ts";
import { format } from "date-fns";
import { DAILY_COUNTERS, type Gauge, MESSAGES_IN_LIVE, openedInHour, rollupInvalidations, userCounter, userDeltas } from "../db/counters.ts";
import { finishedCycle, secondsBetween } from "../tickets/cycles.ts";
import { tallyMoves, tallyOf, type TallyMoves } from "../tickets/tally.ts";
import { log } from "../log.ts";

/** The counters of a day item (company-wide, or per user). All sums; averages are computed on read. */
export const COUNTERS = DAILY_COUNTERS;
export type CounterName = (typeof COUNTERS)[number];
export type Deltas = Partial<Record<CounterName, number>>;

/** An outbox item becomes due for the tick this long after its write (the listener normally applied it by then). */
export const OUTBOX_GRACE_MS = 60_000;
/**
 * A shard's cursor (the due time up to which it is drained) stays this far behind the clock. A fact's `at` is its
 * write time (every repository stamps it), so its item is due at least {@link OUTBOX_GRACE_MS} after it was written:
 * no item lands behind the cursor, even with clocks a minute apart.
 */
const CURSOR_LAG_MS = 2 * 60_000;
/** Where a shard's walk starts when it has no cursor yet (a new table). */
const FIRST_WALK_MS = 10 * 60_000;
/** Due hours a shard walks at most per tick (after an outage the next ticks go on from the cursor). */
const MAX_HOURS_PER_TICK = 24;
/**
 * An item still left after this long (an apply that fails every time) no longer holds its shard's cursor: it is
 * logged as an error and stays in its partition for inspection, and the walk goes on.
 */
const STUCK_MS = 24 * 60 * 60_000;

/** An outbox item: counter deltas for one company day, and optionally one user's day. */
export interface OutboxEntry {
  companyId: number;
  oid: string;
  day: string;
  userId: number | null;
  deltas: Deltas;
  /** Moves of the company's current counts (a contact fact). */
  gauges?: Partial<Record<Gauge, number>>;
  /** Moves of the tab counts (a ticket fact; `tickets/tally.ts`). */
  tally?: TallyMoves;
  /** ISO time the fact happened. */
  at: string;
  /** The shard the item was written to (read items); a new fact's is computed from `oid` with the current shard count. */
  shard?: number;
  /** When the item falls due (ISO); absent: {@link OUTBOX_GRACE_MS} after `at`. */
  dueAt?: string;
  /**
   * A ticket's customers' messages of one local day and attendant, handed over when the day is over (`messagesIn`
   * comes from the ticket's `inDays[inKey]` at that time, {@link counterFacts.messagesInDay}).
   */
  messagesInDay?: { ticketId: number; inKey: string };
}

/**
 * The key of an entry's outbox item: its shard (the one it was read from, else the hash of `oid` over the current
 * count) and due time (`at` + {@link OUTBOX_GRACE_MS}), so writer and applier name the same item.
 */
export function outboxKey(e: Pick<OutboxEntry, "companyId" | "oid" | "at" | "shard" | "dueAt">): { PK: string; SK: string } {
  return keys.outbox(e.shard ?? dueShardOfName("outbox", e.oid), e.dueAt ?? new Date(Date.parse(e.at) + OUTBOX_GRACE_MS).toISOString(), e.companyId, e.oid);
}

/** The `Put` of an outbox item for a domain `TransactWriteItems` (null entry → nothing to count). */
export function outboxPut(e: OutboxEntry | null): { Put: { TableName: string; Item: Record<string, unknown>; ConditionExpression: string } }[] {
  if (!e) return [];
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { ...outboxKey(e), _type: "outbox", ...e },
        ConditionExpression: "attribute_not_exists(PK)",
      },
    },
  ];
}

/**
 * The `Put` of a ticket's hand-over item for a domain `TransactWriteItems` (`counterFacts.messagesInDay`). Not
 * conditional: a writer whose copy of the ticket was stale may put it again, the same item at the same key.
 */
export function messagesInDayPut(e: OutboxEntry): { Put: { TableName: string; Item: Record<string, unknown> } } {
  return { Put: { TableName: tableName(), Item: { ...outboxKey(e), _type: "outbox", ...e } } };
}

/**
 * Whether a stored message counts in the day's customers' messages: a customer's live message (history arrives
 * already read, and is counted on its ticket only).
 */
export const countsInDay = (m: { fromMe: boolean; read: boolean }) => !m.fromMe && !m.read;

const dayOf = (iso: string) => iso.slice(0, 10);
type TicketFact = {
  companyId: number;
  id: number;
  status: string;
  userId: number | null;
  version: number;
  createdAt: string;
  updatedAt: string;
  contactId: number;
  queueId: number | null;
  whatsappId: number;
  queuedAt: string | null;
  acceptedAt: string | null;
  acceptedBy: number | null;
  ratingAt?: string | null;
  isGroup?: boolean;
  /** The state the stored ticket was counted in (`tickets/tally.ts`); absent: never counted. */
  tally?: string;
};

/** Counter facts of the domain writes, pure: the repositories put them, the listener applies the same entries. */
export const counterFacts = {
  /**
   * A message sent through Atende (an agent's, or an automatic one; `isAutomatic` or `userId` set): `messagesOut` for
   * the company and the sending agent. Null for every other message: a customer's and one sent from the phone are
   * counted on their ticket instead (`messagesIn` / `messagesOut` of the ticket item, `ADD`ed by the ingest write
   * itself), which costs no item per inbound message.
   */
  message(m: { companyId: number; ticketId: number; id: string; fromMe: boolean; userId?: number | null; isAutomatic?: boolean; createdAt: string }): OutboxEntry | null {
    if (!m.fromMe || (m.userId == null && !m.isAutomatic)) return null;
    return {
      companyId: m.companyId,
      // Keyed by ticket too: WhatsApp ids are unique per chat only, so two chats may share one.
      oid: keys.outboxId.message(m.ticketId, m.id),
      day: dayOf(m.createdAt),
      userId: m.userId ?? null,
      deltas: { messagesOut: 1 },
      at: m.createdAt,
    };
  },
  /**
   * A ticket created (`prev` null) or transitioned, as service cycles (`tickets/cycles.ts`): opened; a cycle accepted
   * (entering open: created open, accepted, reopened open; its wait time); closed (+ `handled` and the handling time
   * when the cycle had been accepted); and the moves of the tab counts, from the state `prev` was counted in (its
   * stored `tally`) to `next`'s (`tickets/tally.ts`). Null when nothing counts.
   */
  ticket(prev: TicketFact | null, next: TicketFact): OutboxEntry | null {
    const at = prev ? next.updatedAt : next.createdAt;
    const d: Deltas = {};
    if (!prev) d.ticketsOpened = 1;
    if (next.status === "open" && prev?.status !== "open") {
      d.ticketsAccepted = 1;
      d.waitSeconds = secondsBetween(next.queuedAt ?? next.createdAt, next.acceptedAt ?? at);
    }
    const cycle = prev ? finishedCycle(prev, next) : null;
    if (cycle) {
      d.ticketsClosed = 1;
      if (cycle.acceptedAt) {
        d.handled = 1;
        d.handlingSeconds = cycle.handlingSeconds;
      }
    }
    const tally = tallyMoves(prev?.tally, tallyOf(next));
    if (!Object.keys(d).length && !Object.keys(tally).length) return null;
    return { companyId: next.companyId, oid: keys.outboxId.ticket(next.id, next.version), day: dayOf(at), userId: next.userId, deltas: d, tally, at };
  },
  /** A ticket deleted (its `updatedAt` is the deletion time): it leaves the tab counts it was counted in (null when none). */
  ticketDeleted(t: { companyId: number; id: number; updatedAt: string; tally?: string }): OutboxEntry | null {
    const tally = tallyMoves(t.tally, null);
    if (!Object.keys(tally).length) return null;
    return { companyId: t.companyId, oid: keys.outboxId.ticket(t.id, "deleted"), day: dayOf(t.updatedAt), userId: null, deltas: {}, tally, at: t.updatedAt };
  },
  /**
   * A ticket counted by the tab-count backfill (`tickets/counts-backfill.ts`) as it is at its `version`: from its
   * stored `tally` (absent for a ticket stored before the counts) to its state. `at`: when the backfill counted it.
   */
  ticketTallied(t: { companyId: number; id: number; version: number; status: string; queueId: number | null; userId: number | null; isGroup?: boolean; tally?: string }, at: string): OutboxEntry | null {
    const tally = tallyMoves(t.tally, tallyOf(t));
    if (!Object.keys(tally).length) return null;
    return { companyId: t.companyId, oid: keys.outboxId.ticketTally(t.id, t.version), day: dayOf(at), userId: null, deltas: {}, tally, at };
  },
  /**
   * A customer's rating (1-3) of the attendant of one ticket cycle (docs/product/ratings.md): `ratings` +1 and `ratingSum` +rate for
   * the company and the rated user, on the day it was given. One per (ticket, ratingAt).
   */
  rating(r: { companyId: number; ticketId: number; userId: number; rate: number; ratingAt: string; at: string }): OutboxEntry {
    return { companyId: r.companyId, oid: keys.outboxId.rating(r.ticketId, r.ratingAt), day: dayOf(r.at), userId: r.userId, deltas: { ratings: 1, ratingSum: r.rate }, at: r.at };
  },
  /**
   * The hand-over of ticket `ticketId`'s customers' messages of local day `day` while attendant `userId` had it (null:
   * nobody), written by the ingest with the key's first message (`messages/repository.ts`), due
   * {@link MESSAGES_IN_GRACE_MS} after the day ends in zone `tz`. Its `messagesIn` is read from the ticket when it is
   * applied ({@link applyOutbox}), so the messages after the first cost no item.
   */
  messagesInDay(m: { companyId: number; ticketId: number; userId: number | null; day: string; at: string; tz: string }): OutboxEntry {
    const inKey = inDayKey(m.day, m.userId);
    return {
      companyId: m.companyId,
      oid: keys.outboxId.messagesInDay(m.ticketId, inKey),
      day: m.day,
      userId: m.userId,
      deltas: {},
      at: m.at,
      dueAt: new Date(endOfLocalDay(m.day, m.tz) + MESSAGES_IN_GRACE_MS).toISOString(),
      messagesInDay: { ticketId: m.ticketId, inKey },
    };
  },
  /** A new contact: counted on its day, and in the company's current contacts. */
  contact(c: { companyId: number; id: number; createdAt: string }): OutboxEntry {
    return { companyId: c.companyId, oid: keys.outboxId.contact(c.id), day: dayOf(c.createdAt), userId: null, deltas: { contactsCreated: 1 }, gauges: { contacts: 1 }, at: c.createdAt };
  },
  /** A contact deleted (its `updatedAt` is the deletion time): it leaves the company's current contacts. */
  contactDeleted(c: { companyId: number; id: number; updatedAt: string }): OutboxEntry {
    return { companyId: c.companyId, oid: keys.outboxId.contactDeleted(c.id), day: dayOf(c.updatedAt), userId: null, deltas: {}, gauges: { contacts: -1 }, at: c.updatedAt };
  },
};

function addExpression(deltas: Record<string, number>) {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const parts: string[] = [];
  Object.entries(deltas).forEach(([k, v], i) => {
    names[`#c${i}`] = k;
    values[`:c${i}`] = v as number;
    parts.push(`#c${i} :c${i}`);
  });
  return { UpdateExpression: `ADD ${parts.join(", ")}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Companies' time zones as read by this process (kept {@link ZONE_TTL_MS}; a changed zone counts from then on). */
const zones = new Map<number, { tz: string; until: number }>();
const ZONE_TTL_MS = 5 * 60_000;

async function zoneOf(companyId: number): Promise<string> {
  const hit = zones.get(companyId);
  if (hit && hit.until > Date.now()) return hit.tz;
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.company(companyId), ProjectionExpression: "PK, #tz", ExpressionAttributeNames: { "#tz": "timezone" } }));
  // As the company's schema reads it: its zone, else the default zone; no company item (gone: the apply drops the fact): UTC.
  const tz = !out.Item ? "UTC" : typeof out.Item.timezone === "string" && out.Item.timezone ? out.Item.timezone : DEFAULT_TIME_ZONE;
  if (zones.size >= 10_000) zones.delete(zones.keys().next().value!);
  zones.set(companyId, { tz, until: Date.now() + ZONE_TTL_MS });
  return tz;
}

/** The last {@link localDayHour} answer per zone, by UTC minute (zones change offset only on whole minutes). */
const dayHourByZone = new Map<string, { minute: number; out: { day: string; hour: number } }>();

/**
 * The company-local day (`yyyy-mm-dd`) and hour (0-23) of ISO time `at` in zone `tz` (UTC when the zone is unknown).
 * The answer is remembered per zone for its UTC minute (every message of that minute asks the same).
 */
export function localDayHour(at: string, tz: string): { day: string; hour: number } {
  const minute = Math.floor(Date.parse(at) / 60_000);
  const hit = dayHourByZone.get(tz);
  if (hit && hit.minute === minute) return { ...hit.out };
  const out = zonedDayHour(at, tz);
  if (dayHourByZone.size >= 1_000) dayHourByZone.clear();
  dayHourByZone.set(tz, { minute, out });
  return { ...out };
}

function zonedDayHour(at: string, tz: string): { day: string; hour: number } {
  let local: TZDate;
  try {
    local = new TZDate(Date.parse(at), tz);
  } catch {
    local = new TZDate(Date.parse(at), "UTC");
  }
  return { day: format(local, "yyyy-MM-dd"), hour: local.getHours() };
}

/**
 * A ticket's hand-over of its customers' messages is due this long after their local day ends: a message stored
 * just before midnight by a process whose clock is late still finds the day's count on the ticket.
 */
export const MESSAGES_IN_GRACE_MS = 15 * 60_000;

/** The key of a ticket's count of customers' messages (`inDays`) for local day `day` and attendant `userId` (null: none). */
export const inDayKey = (day: string, userId: number | null) => (userId == null ? day : `${day}#U#${userId}`);

/** The instant (ms) local day `day` (`yyyy-mm-dd`) ends in zone `tz` (UTC when the zone is unknown). */
export function endOfLocalDay(day: string, tz: string): number {
  const [y, m, d] = day.split("-").map(Number);
  let end = Number.NaN;
  try {
    end = new TZDate(y, m - 1, d + 1, tz).getTime();
  } catch {
    // an unknown zone: UTC below
  }
  return Number.isNaN(end) ? Date.UTC(y, m - 1, d + 1) : end;
}

/** The company's time zone as the counters read it (kept five minutes per process; UTC for a company that is gone). */
export const companyZone = zoneOf;

/** `e` with its `day` in the company's zone, and the local hour for the opened-per-hour count. */
async function localized(e: OutboxEntry): Promise<OutboxEntry & { hour: number }> {
  // A hand-over names its day: the day the ingest counted the messages on.
  if (e.messagesInDay) return { ...e, hour: 0 };
  const { day, hour } = localDayHour(e.at, await zoneOf(e.companyId));
  return { ...e, day, hour };
}

/**
 * A hand-over entry with its `messagesIn`: the ticket's count for the entry's key as stored now (the day is over, so
 * it no longer moves); for a deleted ticket, the count its deletion left for this item ({@link handOverOnDelete});
 * 0 when neither holds one.
 */
async function withTicketCount(e: OutboxEntry): Promise<OutboxEntry> {
  if (!e.messagesInDay) return e;
  const read = (Key: { PK: string; SK: string }) => ddb().send(new GetCommand({ TableName: tableName(), Key, ProjectionExpression: "inDays", ConsistentRead: true }));
  let out = await read(keys.ticket(e.companyId, e.messagesInDay.ticketId));
  if (!out.Item) out = await read(keys.ticketInDaysLeft(e.companyId, e.messagesInDay.ticketId));
  const n = Number((out.Item?.inDays as Record<string, unknown> | undefined)?.[e.messagesInDay.inKey] ?? 0);
  return { ...e, deltas: n > 0 ? { messagesIn: n } : {} };
}

/**
 * How long a deleted ticket's counts left for hand-over items under another zone's key are kept (their items fall
 * due within two days of the deletion; the minute tick re-drives late ones well within this).
 */
const IN_DAYS_LEFT_SECONDS = 14 * 86_400;

/**
 * What a ticket's deletion writes so its customers' messages of the days not yet handed over stay counted
 * (docs/product/dashboard.md#customers-messages): for each key of the ticket's day counts (`inDays`) whose hand-over
 * item is still waiting, a Delete of that item (conditioned on its being there: the minute tick may apply it first)
 * and the count `ADD`ed to `messagesIn` of the company's and the attendant's day, one update per day item (and the
 * invalidation of each nearly sealed month's and week's roll-up, `db/counters.ts` `rollupInvalidations`). For the
 * deletion's own transaction, beside a condition that the ticket's counts are those of `t` (its `rev`). A key whose
 * item is not found under the company's current zone was either handed over already or written under the zone the
 * company had before (its due time is that zone's day end): its count is kept in one item beside the day counters
 * (`keys.ticketInDaysLeft`), which that item's apply reads in place of the ticket, so it counts once, when it falls
 * due. `handOvers`: how many items come first (the Deletes), so the caller can tell a hand-over applied meanwhile from
 * other failures.
 */
export async function handOverOnDelete(t: { companyId: number; id: number; inDays?: Record<string, number> }): Promise<{ items: TxItem[]; handOvers: number }> {
  const counts = Object.entries(t.inDays ?? {}).filter(([, n]) => n > 0);
  if (!counts.length) return { items: [], handOvers: 0 };
  const tz = await zoneOf(t.companyId);
  const waiting = await Promise.all(
    counts.map(async ([inKey, n]) => {
      const [day, , uid] = inKey.split("#"); // <yyyy-mm-dd>[#U#<uid>]
      const userId = uid != null ? Number(uid) : null;
      const key = outboxKey(counterFacts.messagesInDay({ companyId: t.companyId, ticketId: t.id, userId, day, at: `${day}T12:00:00.000Z`, tz }));
      const got = await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ProjectionExpression: "PK", ConsistentRead: true }));
      return got.Item ? { key, day, userId, n } : null;
    }),
  );
  const deletes: TxItem[] = [];
  const adds = new Map<string, { Key: { PK: string; SK: string }; deltas: Record<string, number> }>();
  const add = (Key: { PK: string; SK: string }, attr: string, n: number) => {
    const id = `${Key.PK}|${Key.SK}`;
    const deltas = adds.get(id)?.deltas ?? {};
    deltas[attr] = (deltas[attr] ?? 0) + n;
    adds.set(id, { Key, deltas });
  };
  const left: Record<string, number> = {};
  waiting.forEach((w, i) => {
    if (!w) left[counts[i][0]] = counts[i][1];
  });
  for (const w of waiting) {
    if (!w) continue;
    deletes.push({ Delete: { TableName: tableName(), Key: w.key, ConditionExpression: "attribute_exists(PK)" } });
    add(keys.stats(t.companyId, w.day), "messagesIn", w.n);
    if (w.userId != null) add(keys.stats(t.companyId, w.day), userCounter(w.userId, "messagesIn"), w.n);
  }
  const updates: TxItem[] = [...adds.values()].map(({ Key, deltas }) => ({ Update: { TableName: tableName(), Key, ...addExpression(deltas) } }));
  updates.push(...rollupInvalidations(t.companyId, waiting.flatMap((w) => (w ? [w.day] : []))));
  const kept: TxItem[] = Object.keys(left).length
    ? [{ Put: { TableName: tableName(), Item: { ...keys.ticketInDaysLeft(t.companyId, t.id), _type: "ticketInDaysLeft", inDays: left, [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + IN_DAYS_LEFT_SECONDS } } }]
    : [];
  return { items: [...deletes, ...updates, ...kept], handOvers: deletes.length };
}

/**
 * The updates of one applied group: the company's day (with its opened-per-hour and the user's counters,
 * `userCounter` attributes of the same item: one `ADD` of them all) and, for a late fact of a nearly sealed month or week, its
 * roll-ups' invalidation (`rollupInvalidations`), the current counts, the tab counts.
 */
function counterUpdates(first: OutboxEntry, entries: (OutboxEntry & { hour: number })[]) {
  const day: Record<string, number> = {};
  const hourly: Record<string, number> = {};
  const now: Record<string, number> = {};
  const tally: Record<string, Record<string, number>> = {};
  for (const e of entries) {
    for (const [k, v] of Object.entries(e.deltas)) day[k] = (day[k] ?? 0) + (v as number);
    if (e.deltas.ticketsOpened) hourly[openedInHour(e.hour)] = (hourly[openedInHour(e.hour)] ?? 0) + e.deltas.ticketsOpened;
    for (const [k, v] of Object.entries(e.gauges ?? {})) now[k] = (now[k] ?? 0) + (v as number);
    for (const [sk, cell] of Object.entries(e.tally ?? {})) {
      tally[sk] ??= {};
      const sum = tally[sk];
      for (const [k, v] of Object.entries(cell)) sum[k] = (sum[k] ?? 0) + (v as number);
    }
  }
  const out: TxItem[] = [];
  if (Object.keys(day).length) {
    const user = first.userId != null ? userDeltas(first.userId, day) : {};
    out.push({ Update: { TableName: tableName(), Key: keys.stats(first.companyId, first.day), ...addExpression({ ...day, ...hourly, ...user }) } });
    out.push(...rollupInvalidations(first.companyId, [first.day]));
  }
  if (Object.values(now).some((v) => v !== 0)) out.push({ Update: { TableName: tableName(), Key: keys.statsNow(first.companyId), ...addExpression(now) } });
  for (const [sk, cell] of Object.entries(tally)) {
    const moved = Object.fromEntries(Object.entries(cell).filter(([, v]) => v !== 0));
    if (Object.keys(moved).length) out.push({ Update: { TableName: tableName(), Key: keys.ticketCount(first.companyId, sk), ...addExpression(moved) } });
  }
  return out;
}

/**
 * The check that the fact's company still exists and is not being deleted, in the apply's own transaction: a fact
 * queued before a company's deletion must not write its counters again after the purge removed them. A condition on
 * the company item, not a read: it costs the transaction one more item (write-priced, about 2 write units for a
 * company item under 1 KB) and no round trip.
 */
const companyAlive = (companyId: number) => ({
  ConditionCheck: { TableName: tableName(), Key: keys.company(companyId), ConditionExpression: "attribute_exists(PK) AND attribute_not_exists(deleting)" },
});

/** Deletes the outbox item of a fact whose company is gone or going, counting nothing. */
async function dropFact(e: OutboxEntry): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: outboxKey(e) }));
}

/**
 * Applies one outbox entry exactly once: Delete outbox item (must exist) + ADD to the company's day item and, when
 * `userId` is set, the user's counters of it, in one transaction conditioned on the company being there and not being
 * deleted. Returns `applied` (counted now), `done` (already applied: the outbox item is gone; or the company is
 * gone or being deleted: the item is dropped, nothing counted) or `left` (kept conflicting: the tick re-drives it).
 * Other errors propagate.
 */
export async function applyOutbox(entry: OutboxEntry, attempts = 6): Promise<"applied" | "done" | "left"> {
  const e = await localized(await withTicketCount(entry));
  const items = [{ Delete: { TableName: tableName(), Key: outboxKey(e), ConditionExpression: "attribute_exists(PK)" } }, companyAlive(e.companyId), ...counterUpdates(e, [e])];
  for (let i = 0; i < attempts; i++) {
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items }));
      return "applied";
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (reasons?.[0]?.Code === "ConditionalCheckFailed") return "done";
      if (reasons?.[1]?.Code === "ConditionalCheckFailed") {
        await dropFact(e);
        return "done";
      }
      const conflict = reasons?.some((r) => r.Code === "TransactionConflict") || (err as Error).name === "TransactionConflictException";
      if (!conflict) throw err;
      await sleep(Math.random() * 20 * 2 ** i);
    }
  }
  log("warn", "counters: outbox item left for the tick (hot counter)", { companyId: e.companyId, oid: e.oid });
  return "left";
}

/**
 * Adds `n` customers' messages to the live count (`MESSAGES_IN_LIVE`) of company `companyId`'s local day `day` and,
 * when `userId` is set, that attendant's: one update of the day item (and, for a day of a nearly sealed month or week, its roll-ups' invalidation,
 * `rollupInvalidations`) in a transaction conditioned on the company being there and not being
 * deleted (then nothing is written). Conflicts on the hot day item are retried; what still fails is logged and left:
 * the day's end hands the exact count over from the tickets.
 */
export async function addMessagesInLive(companyId: number, day: string, userId: number | null, n: number, attempts = 6): Promise<void> {
  const deltas = { [MESSAGES_IN_LIVE]: n, ...(userId != null ? { [userCounter(userId, MESSAGES_IN_LIVE)]: n } : {}) };
  const items = [companyAlive(companyId), { Update: { TableName: tableName(), Key: keys.stats(companyId, day), ...addExpression(deltas) } }, ...rollupInvalidations(companyId, [day])];
  for (let i = 0; i < attempts; i++) {
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (reasons?.[0]?.Code === "ConditionalCheckFailed") return; // the company is gone or going
      const conflict = reasons?.some((r) => r.Code === "TransactionConflict") || (err as Error).name === "TransactionConflictException";
      if (!conflict) throw err;
      await sleep(Math.random() * 20 * 2 ** i);
    }
  }
  log("warn", "counters: live customers' messages left to the day's hand-over (hot counter)", { companyId, day, n });
}

/** DynamoDB's limit of items in one `TransactWriteItems`. */
const MAX_TRANSACT_ITEMS = 100;

/**
 * Applies several entries of one event (a new contact's first message: contact, ticket, message) in ONE transaction
 * when they share a company day and user, falling back to {@link applyOutbox} one by one when any was already applied.
 */
export async function applyOutboxes(raw: OutboxEntry[]): Promise<void> {
  const entries = await Promise.all(raw.map(localized));
  if (entries.length <= 1 || entries.some((e) => e.companyId !== entries[0].companyId || e.day !== entries[0].day || e.userId !== entries[0].userId)) {
    for (const e of entries) await applyOutbox(e);
    return;
  }
  const first = entries[0];
  const updates = counterUpdates(first, entries);
  if (entries.length + updates.length + 1 > MAX_TRANSACT_ITEMS) {
    // Many tickets moving between many queues: halves, each within DynamoDB's limit of items per transaction.
    const half = Math.ceil(entries.length / 2);
    await applyOutboxes(raw.slice(0, half));
    await applyOutboxes(raw.slice(half));
    return;
  }
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          ...entries.map((e) => ({ Delete: { TableName: tableName(), Key: outboxKey(e), ConditionExpression: "attribute_exists(PK)" } })),
          companyAlive(first.companyId),
          ...updates,
        ],
      }),
    );
  } catch (err) {
    if (!cancellationReasons(err) && (err as Error).name !== "TransactionConflictException") throw err;
    for (const e of entries) await applyOutbox(e); // one was already applied, the company is going, or a conflict: item by item
  }
}

const HOUR_MS = 60 * 60_000;
/** The due hour (`yyyy-mm-ddThh`, UTC) holding time `ms`. */
const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);
const entryOf = (it: Record<string, unknown>): OutboxEntry => ({
  companyId: Number(it.companyId),
  oid: String(it.oid),
  day: String(it.day),
  userId: it.userId == null ? null : Number(it.userId),
  deltas: it.deltas as Deltas,
  gauges: (it.gauges ?? {}) as Partial<Record<Gauge, number>>,
  tally: (it.tally ?? {}) as TallyMoves,
  at: String(it.at),
  shard: Number(String(it.PK).split("#")[1]),
  ...(typeof it.dueAt === "string" ? { dueAt: it.dueAt } : {}),
  ...(it.messagesInDay ? { messagesInDay: it.messagesInDay as { ticketId: number; inKey: string } } : {}),
});

/**
 * Pages of the outbox items of one shard's due `hour` (`yyyy-mm-ddThh`) due from `from` to `upTo` (ISO, both
 * inclusive), oldest first, each with its sort key.
 */
export function outboxDuePages(shard: number, hour: string, from: string, upTo: string): AsyncGenerator<(OutboxEntry & { sk: string })[]> {
  const pages = queryPages({
    KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :upTo",
    ExpressionAttributeValues: { ":pk": keys.outboxDuePK(shard, hour), ":from": from, ":upTo": `${upTo}\uffff` },
    Limit: 100,
  });
  return (async function* () {
    for await (const items of pages) yield items.map((it) => ({ ...entryOf(it), sk: String(it.SK) }));
  })();
}

/** The due hours from the one holding `from` to the one holding `to` (ISO), at most `max`. */
function hoursFrom(from: string, to: string, max: number): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from.slice(0, 13)}:00:00Z`); out.length < max && hourOf(t) <= to.slice(0, 13); t += HOUR_MS) out.push(hourOf(t));
  return out;
}

/**
 * The minute tick's re-drive: applies every outbox item due by `now` (ms), each exactly once
 * ({@link applyOutbox}). Each shard reads its items due from its cursor (the due time up to which it is drained) to
 * `now`, one Query per due hour (usually one), at most `limitPerShard` items, and moves the cursor to `now` −
 * {@link CURSOR_LAG_MS}, or to the first item left (hot counter, error), which the next tick tries again (an item
 * failing for a day is logged and passed, {@link STUCK_MS}). Shards run in parallel; a failed read is logged and
 * leaves that shard's cursor. Returns how many items were counted now.
 */
export async function redriveOutbox(now = Date.now(), limitPerShard = 500): Promise<number> {
  const cursor = (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.outboxCursor, ConsistentRead: true }))).Item ?? {};
  const upTo = new Date(now).toISOString();
  const settled = new Date(now - CURSOR_LAG_MS).toISOString();
  const stuck = new Date(now - STUCK_MS).toISOString();
  const advanced: Record<string, string> = {};
  let applied = 0;
  await Promise.all(
    Array.from({ length: dueShardsToRead("outbox") }, async (_, shard) => {
      const attr = `s${shard}`;
      const from = typeof cursor[attr] === "string" ? String(cursor[attr]) : new Date(now - FIRST_WALK_MS).toISOString();
      if (from > upTo) return; // a tick for a later time already drained this shard past `now`
      let seen = 0;
      /** Where the next walk must start: the first item left, or where this walk stopped. */
      let hold: string | undefined;
      try {
        const hours = hoursFrom(from, upTo, MAX_HOURS_PER_TICK);
        walk: for (const hour of hours) {
          for await (const entries of outboxDuePages(shard, hour, hour === from.slice(0, 13) ? from : hour, upTo)) {
            for (const e of entries) {
              if (seen >= limitPerShard) {
                hold ??= e.sk; // the next tick goes on from here
                break walk;
              }
              seen++;
              const r = await applyOutbox(e).catch((err: unknown) => {
                log("warn", "counters: outbox item not applied; left for the next tick", { shard, oid: e.oid, err });
                return "left" as const;
              });
              if (r === "applied") applied++;
              if (r !== "left" || hold) continue;
              if (e.sk < stuck) log("error", "counters: outbox item left for a day; the cursor moves past it (kept in place)", { shard, oid: e.oid });
              else hold = e.sk;
            }
          }
        }
        if (!hold && hours.length === MAX_HOURS_PER_TICK && hours.at(-1)! < upTo.slice(0, 13)) hold = `${hourOf(Date.parse(`${hours.at(-1)}:00:00Z`) + HOUR_MS)}`;
      } catch (err) {
        log("warn", "counters: outbox shard re-drive failed; its cursor stays", { shard, err });
        return;
      }
      const next = hold && hold < settled ? hold : settled;
      if (next > from) advanced[attr] = next;
    }),
  );
  // One write for every shard that moved. Unconditional: a slower tick writing an older position only makes the next
  // walk re-read drained items' range (each item is applied once whatever walks it).
  const moved = Object.entries(advanced);
  if (moved.length) {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.outboxCursor,
        UpdateExpression: `SET ${moved.map((_, i) => `#s${i} = :m${i}`).join(", ")}`,
        ExpressionAttributeNames: Object.fromEntries(moved.map(([attr], i) => [`#s${i}`, attr])),
        ExpressionAttributeValues: Object.fromEntries(moved.map(([, m], i) => [`:m${i}`, m])),
      }),
    );
  }
  return applied;
}
