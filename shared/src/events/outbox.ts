/**
 * The counters' outbox: a daily counter must not be lost or counted twice.
 *
 * Why: the daily counter items (`C#<cid>#STATS` / `D#<day>[#U#<uid>]`) are hot (every message of a company bumps the
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
 *    company's and the user's day items. Run twice, the second finds no outbox item and changes nothing.
 * 3. The counters listener applies it right after the write. When the process died in between (or the hot item kept
 *    conflicting), the item waits where it was written: its key IS its due-time entry (`keys.outbox`: partition
 *    `OUTBOX#<shard>#<due hour>`, sort `<dueAt>#<cid>#<oid>`, due one minute after the fact), so it costs no index
 *    write, and the minute tick re-drives it ({@link redriveOutbox}): per shard, one Query from the shard's cursor
 *    (two across an hour), no scan. `dueShardsOf("outbox")` shards (`db/keys.ts`) spread every company's facts over as
 *    many partitions; an item keeps the shard it was written to (`shard`), whatever the count is later.
 * Hot items: a conflicting apply is retried with jittered backoff; what still conflicts is left for the tick.
 *
 * Days are UTC `yyyy-mm-dd` of the fact's time. Wait time = accept time − ticket creation; handling time = close
 * time − ticket creation (seconds; the ticket keeps no accept time yet).
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { cancellationReasons } from "../db/errors.ts";
import { dueShardOfName, dueShardsToRead, keys } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { DAILY_COUNTERS } from "../db/counters.ts";
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
  /** ISO time the fact happened. */
  at: string;
  /** The shard the item was written to (read items); a new fact's is computed from `oid` with the current shard count. */
  shard?: number;
}

/**
 * The key of an entry's outbox item: its shard (the one it was read from, else the hash of `oid` over the current
 * count) and due time (`at` + {@link OUTBOX_GRACE_MS}), so writer and applier name the same item.
 */
export function outboxKey(e: Pick<OutboxEntry, "companyId" | "oid" | "at" | "shard">): { PK: string; SK: string } {
  return keys.outbox(e.shard ?? dueShardOfName("outbox", e.oid), new Date(Date.parse(e.at) + OUTBOX_GRACE_MS).toISOString(), e.companyId, e.oid);
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

const dayOf = (iso: string) => iso.slice(0, 10);
const seconds = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

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
   * A ticket created (`prev` null) or transitioned: opened (+ accepted with wait 0 when created open), accepted
   * (pending → open, wait time), closed (→ closed, handling time). Null when nothing counts.
   */
  ticket(
    prev: { status: string } | null,
    next: { companyId: number; id: number; status: string; userId: number | null; version: number; createdAt: string; updatedAt: string },
  ): OutboxEntry | null {
    const at = prev ? next.updatedAt : next.createdAt;
    const d: Deltas = {};
    if (!prev) d.ticketsOpened = 1;
    if (next.status === "open" && prev?.status !== "open" && prev?.status !== "closed") {
      d.ticketsAccepted = 1;
      d.waitSeconds = seconds(next.createdAt, at);
    }
    if (next.status === "closed" && prev && prev.status !== "closed") {
      d.ticketsClosed = 1;
      d.handlingSeconds = seconds(next.createdAt, at);
    }
    if (!Object.keys(d).length) return null;
    return { companyId: next.companyId, oid: keys.outboxId.ticket(next.id, next.version), day: dayOf(at), userId: next.userId, deltas: d, at };
  },
  /**
   * A customer's rating (1-3) of the attendant of one ticket cycle (docs/product/ratings.md): `ratings` +1 and `ratingSum` +rate for
   * the company and the rated user, on the day it was given. One per (ticket, ratingAt).
   */
  rating(r: { companyId: number; ticketId: number; userId: number; rate: number; ratingAt: string; at: string }): OutboxEntry {
    return { companyId: r.companyId, oid: keys.outboxId.rating(r.ticketId, r.ratingAt), day: dayOf(r.at), userId: r.userId, deltas: { ratings: 1, ratingSum: r.rate }, at: r.at };
  },
  /** A new contact. */
  contact(c: { companyId: number; id: number; createdAt: string }): OutboxEntry {
    return { companyId: c.companyId, oid: keys.outboxId.contact(c.id), day: dayOf(c.createdAt), userId: null, deltas: { contactsCreated: 1 }, at: c.createdAt };
  },
};

function addExpression(deltas: Deltas) {
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

/**
 * Applies one outbox entry exactly once: Delete outbox item (must exist) + ADD to the company's day item and, when
 * `userId` is set, the user's day item, in one transaction. Returns `applied` (counted now), `done` (already applied:
 * the outbox item is gone) or `left` (kept conflicting: the tick re-drives it). Other errors propagate.
 */
export async function applyOutbox(e: OutboxEntry, attempts = 6): Promise<"applied" | "done" | "left"> {
  const add = addExpression(e.deltas);
  const items = [
    { Delete: { TableName: tableName(), Key: outboxKey(e), ConditionExpression: "attribute_exists(PK)" } },
    { Update: { TableName: tableName(), Key: keys.stats(e.companyId, e.day), ...add } },
    ...(e.userId != null ? [{ Update: { TableName: tableName(), Key: keys.stats(e.companyId, e.day, e.userId), ...add } }] : []),
  ];
  for (let i = 0; i < attempts; i++) {
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items }));
      return "applied";
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (reasons?.[0]?.Code === "ConditionalCheckFailed") return "done";
      const conflict = reasons?.some((r) => r.Code === "TransactionConflict") || (err as Error).name === "TransactionConflictException";
      if (!conflict) throw err;
      await sleep(Math.random() * 20 * 2 ** i);
    }
  }
  log("warn", "counters: outbox item left for the tick (hot counter)", { companyId: e.companyId, oid: e.oid });
  return "left";
}

/**
 * Applies several entries of one event (a new contact's first message: contact, ticket, message) in ONE transaction
 * when they share a company day and user, falling back to {@link applyOutbox} one by one when any was already applied.
 */
export async function applyOutboxes(entries: OutboxEntry[]): Promise<void> {
  if (entries.length <= 1 || entries.some((e) => e.companyId !== entries[0].companyId || e.day !== entries[0].day || e.userId !== entries[0].userId)) {
    for (const e of entries) await applyOutbox(e);
    return;
  }
  const sum: Deltas = {};
  for (const e of entries) for (const [k, v] of Object.entries(e.deltas)) sum[k as CounterName] = (sum[k as CounterName] ?? 0) + (v as number);
  const first = entries[0];
  const add = addExpression(sum);
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          ...entries.map((e) => ({ Delete: { TableName: tableName(), Key: outboxKey(e), ConditionExpression: "attribute_exists(PK)" } })),
          { Update: { TableName: tableName(), Key: keys.stats(first.companyId, first.day), ...add } },
          ...(first.userId != null ? [{ Update: { TableName: tableName(), Key: keys.stats(first.companyId, first.day, first.userId), ...add } }] : []),
        ],
      }),
    );
  } catch (err) {
    if (!cancellationReasons(err) && (err as Error).name !== "TransactionConflictException") throw err;
    for (const e of entries) await applyOutbox(e); // one was already applied, or a conflict: item by item, with retries
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
  at: String(it.at),
  shard: Number(String(it.PK).split("#")[1]),
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
