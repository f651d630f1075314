/**
 * The counters' outbox (issue 7 §1 "a counter must not be lost or counted twice"; DESIGN.md §6 daily counters).
 *
 * Why: the daily counter items (`C#<cid>#STATS` / `D#<day>[#U#<uid>]`) are hot (every message of a company bumps the
 * same item), so they stay OUT of the domain transactions (DESIGN.md §6: a hot item inside them causes
 * `TransactionConflict`). Counting after the write instead loses the count when the process dies in between, and
 * counting twice happens when a step is retried.
 *
 * How (exactly once):
 * 1. The domain write (ingest, ticket create/transition, contact create) puts ONE outbox item in the SAME
 *    `TransactWriteItems`. Its id is deterministic per fact (`M#<ticketId>#<messageId>`, `T#<ticketId>#v<version>`,
 *    `CT#<contactId>`), and it holds the counter deltas. A duplicate inbound delivery is cancelled by the WA alias item
 *    of that transaction, so it writes no second outbox item; a retried transition fails its version check likewise.
 * 2. Applying an outbox item is ONE transaction: Delete the outbox item (`attribute_exists`) + `ADD` the deltas to the
 *    company's and the user's day items. Run twice, the second finds no outbox item and changes nothing.
 * 3. The counters listener applies it right after the write. When the process died in between (or the hot item kept
 *    conflicting), the item waits in the due-time index (GSI1 `OUTBOX#<shard>`, sort `<dueAt>#<cid>#<oid>`, due one
 *    minute after the write) and the minute tick re-drives it ({@link redriveOutbox}): a Query per shard, no scan.
 * Hot items: a conflicting apply is retried with jittered backoff; what still conflicts is left for the tick.
 *
 * Days are UTC `yyyy-mm-dd` of the fact's time. Wait time = accept time − ticket creation; handling time = close
 * time − ticket creation (seconds; the ticket keeps no accept time yet).
 */
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { cancellationReasons } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { DAILY_COUNTERS } from "../db/counters.ts";
import { log } from "../log.ts";

/** The counters of a day item (company-wide, or per user). All sums; averages are computed on read. */
export const COUNTERS = DAILY_COUNTERS;
export type CounterName = (typeof COUNTERS)[number];
export type Deltas = Partial<Record<CounterName, number>>;

/** Number of due-index partitions (spreads the outbox writes; the tick queries each). */
export const OUTBOX_SHARDS = 4;
/** An outbox item becomes due for the tick this long after its write (the listener normally applied it by then). */
export const OUTBOX_GRACE_MS = 60_000;

/** An outbox item: counter deltas for one company day, and optionally one user's day. */
export interface OutboxEntry {
  companyId: number;
  oid: string;
  day: string;
  userId: number | null;
  deltas: Deltas;
  /** ISO time the fact happened. */
  at: string;
}

const shardOf = (oid: string) => {
  let h = 0;
  for (const ch of oid) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % OUTBOX_SHARDS;
};

/** The `Put` of an outbox item for a domain `TransactWriteItems` (null entry → nothing to count). */
export function outboxPut(e: OutboxEntry | null): { Put: { TableName: string; Item: Record<string, unknown>; ConditionExpression: string } }[] {
  if (!e) return [];
  const dueAt = new Date(Date.parse(e.at) + OUTBOX_GRACE_MS).toISOString();
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.outbox(e.companyId, e.oid), ...keys.outboxDueIndex(shardOf(e.oid), dueAt, e.companyId, e.oid), _type: "outbox", ...e },
        ConditionExpression: "attribute_not_exists(PK)",
      },
    },
  ];
}

const dayOf = (iso: string) => iso.slice(0, 10);
const seconds = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

/** Counter facts of the domain writes, pure: the repositories put them, the listener applies the same entries. */
export const counterFacts = {
  /** A stored message: `messagesIn` / `messagesOut`, for the company and the sender (out) or the ticket's assignee (in). */
  message(m: { companyId: number; ticketId: number; id: string; fromMe: boolean; userId?: number | null; createdAt: string }, ticket: { userId: number | null }): OutboxEntry {
    return {
      companyId: m.companyId,
      // Keyed by ticket too: WhatsApp ids are unique per chat only, so two chats may share one (issue 8 §5).
      oid: keys.outboxId.message(m.ticketId, m.id),
      day: dayOf(m.createdAt),
      userId: (m.fromMe ? m.userId : ticket.userId) ?? null,
      deltas: m.fromMe ? { messagesOut: 1 } : { messagesIn: 1 },
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
   * A customer's rating (1-3) of the attendant of one ticket cycle (issue 9 §4): `ratings` +1 and `ratingSum` +rate for
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
    { Delete: { TableName: tableName(), Key: keys.outbox(e.companyId, e.oid), ConditionExpression: "attribute_exists(PK)" } },
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
          ...entries.map((e) => ({ Delete: { TableName: tableName(), Key: keys.outbox(e.companyId, e.oid), ConditionExpression: "attribute_exists(PK)" } })),
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

/**
 * The minute tick's re-drive (DESIGN.md §1): applies every outbox item due by `now` (ms), shard by shard, through the
 * due-time index; each exactly once ({@link applyOutbox}). Returns how many were counted now.
 */
export async function redriveOutbox(now = Date.now(), limitPerShard = 500): Promise<number> {
  let applied = 0;
  const upTo = new Date(now).toISOString();
  for (let shard = 0; shard < OUTBOX_SHARDS; shard++) {
    let seen = 0;
    const pages = queryPages({
      IndexName: "GSI1",
      KeyConditionExpression: "GSI1PK = :pk AND GSI1SK <= :upTo",
      ExpressionAttributeValues: { ":pk": keys.outboxDuePK(shard), ":upTo": `${upTo}\uffff` },
      Limit: 100,
    });
    for await (const items of pages) {
      for (const it of items) {
        const e = { companyId: Number(it.companyId), oid: String(it.oid), day: String(it.day), userId: it.userId == null ? null : Number(it.userId), deltas: it.deltas as Deltas, at: String(it.at) };
        if ((await applyOutbox(e)) === "applied") applied++;
        seen++;
      }
      if (seen >= limitPerShard) break;
    }
  }
  return applied;
}
