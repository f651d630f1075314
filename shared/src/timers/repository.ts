/**
 * Every DynamoDB call of the timers: the timer items themselves (`keys.timer`, indexed by due time under
 * `keys.timerDueIndex`; the engine that claims and fires them is `./index.ts`), and the reads for the timers that follow a connection's settings (`./connection-listener.ts`): the tickets of
 * ONE connection that a timer may concern, found through the ticket list indexes, page by page (`queryPages`), never
 * a scan:
 * - `open`: GSI1 `C#<cid>#S#open` (the `expiresTicket` and rating-wait timers);
 * - `pendingNoQueue`: GSI2 `C#<cid>#S#pending#Q#NONE` (the `timeToTransfer` timer).
 * Both partitions hold every connection's tickets of the company in that state, so the connection is a filter on
 * them (the same narrowing the row summaries use, `tickets/summaries.ts`); runs only when an admin changes a timer
 * field of a connection.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { queryPages } from "../db/query.ts";
import { dueShardOfName, keys } from "../db/keys.ts";
import { parseTicket } from "../tickets/summaries.ts";
import type { TicketItem } from "../tickets/schema.ts";

export type ConnectionTicketSet = "open" | "pendingNoQueue";

/** Pages of the tickets of connection `whatsappId` in `set` (newest activity first), at most 100 items read per page. */
export async function* connectionTicketPages(companyId: number, whatsappId: number, set: ConnectionTicketSet): AsyncGenerator<TicketItem[]> {
  const [index, pk] = set === "open" ? (["GSI1", keys.ticketStatusPK(companyId, "open")] as const) : (["GSI2", keys.ticketQueuePK(companyId, "pending", null)] as const);
  for await (const items of queryPages({
    IndexName: index,
    KeyConditionExpression: `${index}PK = :pk`,
    FilterExpression: "whatsappId = :wid",
    ExpressionAttributeValues: { ":pk": pk, ":wid": whatsappId },
    ScanIndexForward: false,
    Limit: 100,
  })) {
    yield items.map(parseTicket);
  }
}

// ---- the timer items -------------------------------------------------------------------------------------------

/** How long a claimed timer is held by the tick that fires it before another tick may retry it. */
export const CLAIM_MS = 5 * 60_000;
/** A handler that throws this many times in a row is given up. */
export const MAX_ATTEMPTS = 5;

export interface Timer {
  companyId: number;
  kind: string;
  ref: string;
  /** ISO time it is due. */
  dueAt: string;
  data: Record<string, unknown>;
  attempts: number;
}

/** What a handler answers: nothing (done: the timer is removed) or a later time (Date, ISO or epoch ms) to run again, with new data. */
export type TimerResult = undefined | { rescheduleAt: Date | string | number; data?: Record<string, unknown> };

/** `d` as an ISO string. */
export const iso = (d: Date | string | number) => (d instanceof Date ? d : new Date(d)).toISOString();

const shardOf = (companyId: number, kind: string, ref: string) => dueShardOfName("timers", `${companyId}#${kind}#${ref}`);

const indexOf = (companyId: number, kind: string, ref: string, dueAt: string) => keys.timerDueIndex(shardOf(companyId, kind, ref), dueAt, companyId, kind, ref);

/**
 * Schedules (or replaces) timer (companyId, kind, ref) to fire at `dueAt` with `data` (a small JSON object the handler
 * reads). One Put; idempotent.
 */
export async function scheduleTimer(companyId: number, kind: string, ref: string | number, dueAt: Date | string | number, data: Record<string, unknown> = {}): Promise<void> {
  await ddb().send(new PutCommand(timerPutItem(companyId, kind, ref, dueAt, data).Put));
}

/**
 * The transact-write item that schedules (or replaces) timer (companyId, kind, ref) at `dueAt`, for a write that
 * must move its timer in the same transaction (a company's due date and its invoice timer).
 */
export function timerPutItem(companyId: number, kind: string, ref: string | number, dueAt: Date | string | number, data: Record<string, unknown> = {}) {
  const r = String(ref);
  const due = iso(dueAt);
  return {
    Put: { TableName: tableName(), Item: { ...keys.timer(companyId, kind, r), ...indexOf(companyId, kind, r, due), _type: "timer", companyId, kind, ref: r, dueAt: due, data, attempts: 0 } },
  };
}

/** The transact-write item that removes timer (companyId, kind, ref) if it exists. */
export function timerDeleteItem(companyId: number, kind: string, ref: string | number) {
  return { Delete: { TableName: tableName(), Key: keys.timer(companyId, kind, String(ref)) } };
}

/** Removes timer (companyId, kind, ref) if it exists. */
export async function cancelTimer(companyId: number, kind: string, ref: string | number): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.timer(companyId, kind, String(ref)) }));
}

/**
 * Moves an existing timer (companyId, kind, ref) to `dueAt`, keeping its data and flags; false when there is no such
 * timer (nothing is created: a timer that already ended stays ended). One conditional Update.
 */
export async function moveTimer(companyId: number, kind: string, ref: string | number, dueAt: Date | string | number): Promise<boolean> {
  const r = String(ref);
  const due = iso(dueAt);
  const idx = indexOf(companyId, kind, r, due);
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.timer(companyId, kind, r),
        UpdateExpression: "SET dueAt = :due, GSI1PK = :pk, GSI1SK = :sk, attempts = :zero",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeValues: { ":due": due, ":pk": idx.GSI1PK, ":sk": idx.GSI1SK, ":zero": 0 },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return false;
    throw err;
  }
}

/** Reads timer (companyId, kind, ref), or null. */
export async function getTimer(companyId: number, kind: string, ref: string | number): Promise<Timer | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.timer(companyId, kind, String(ref)), ConsistentRead: true }));
  return out.Item ? toTimer(out.Item) : null;
}

/**
 * Sets `flag` in a timer's data once: true when this call set it, false when it was already set or the timer is gone.
 * (The rating wait uses it so two wrong answers arriving together re-prompt once.)
 */
export async function setTimerFlagOnce(companyId: number, kind: string, ref: string | number, flag: string): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.timer(companyId, kind, String(ref)),
        UpdateExpression: "SET #d.#f = :t",
        ConditionExpression: "attribute_exists(PK) AND attribute_not_exists(#d.#f)",
        ExpressionAttributeNames: { "#d": "data", "#f": flag },
        ExpressionAttributeValues: { ":t": true },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return false;
    throw err;
  }
}

/** A stored timer item as a {@link Timer}. */
export function toTimer(it: Record<string, unknown>): Timer {
  return {
    companyId: Number(it.companyId),
    kind: String(it.kind),
    ref: String(it.ref),
    dueAt: String(it.dueAt),
    data: (it.data as Record<string, unknown>) ?? {},
    attempts: Number(it.attempts ?? 0),
  };
}

const isConditionFailed = (err: unknown) => (err as Error).name === "ConditionalCheckFailedException";

/** Moves the timer's dueAt from `seen` to `to` (conditional on `seen`); false when someone else changed it first. */
export async function moveDue(t: Timer, seen: string, to: string, extra: { data?: Record<string, unknown>; attempt?: boolean; resetAttempts?: boolean } = {}): Promise<boolean> {
  const idx = indexOf(t.companyId, t.kind, t.ref, to);
  const sets = ["dueAt = :to", "GSI1PK = :pk", "GSI1SK = :sk"];
  const values: Record<string, unknown> = { ":to": to, ":pk": idx.GSI1PK, ":sk": idx.GSI1SK, ":seen": seen };
  if (extra.data) {
    sets.push("#data = :data");
    values[":data"] = extra.data;
  }
  if (extra.resetAttempts) {
    sets.push("attempts = :zero");
    values[":zero"] = 0;
  }
  let expr = `SET ${sets.join(", ")}`;
  if (extra.attempt) {
    expr += " ADD attempts :one";
    values[":one"] = 1;
  }
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.timer(t.companyId, t.kind, t.ref),
        UpdateExpression: expr,
        ConditionExpression: "dueAt = :seen",
        ...(extra.data ? { ExpressionAttributeNames: { "#data": "data" } } : {}),
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Deletes the timer when its `dueAt` is still `seen` (the claim that fired it); someone else's newer value stays. */
export async function deleteIfDue(t: Timer, seen: string): Promise<void> {
  try {
    await ddb().send(
      new DeleteCommand({ TableName: tableName(), Key: keys.timer(t.companyId, t.kind, t.ref), ConditionExpression: "dueAt = :seen", ExpressionAttributeValues: { ":seen": seen } }),
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

/** The timers of due-index shard `shard` due at `now` or before, page by page (pages of 100). */
export async function* dueTimerPages(shard: number, now: Date): AsyncGenerator<Timer[]> {
  const pages = queryPages({
    IndexName: "GSI1",
    KeyConditionExpression: "GSI1PK = :pk AND GSI1SK <= :upTo",
    ExpressionAttributeValues: { ":pk": keys.timerDuePK(shard), ":upTo": `${iso(now)}\uffff` },
    Limit: 100,
  });
  for await (const items of pages) yield items.map(toTimer);
}
