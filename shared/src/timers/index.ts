/**
 * Timers from due-time index items (issue 9 §5; DESIGN.md "timers are due-time index items, never scans").
 *
 * A timer is ONE item per (company, kind, ref) — `keys.timer` — with a `dueAt` and a small `data` object, indexed in
 * GSI1 under `TIMER#<shard>` / `<dueAt>#<cid>#<kind>#<ref>` (`keys.timerDueIndex`). Scheduling again replaces it (one
 * Put), cancelling deletes it. The minute tick calls {@link runDueTimers}: one Query per shard for the items due up to
 * `now` — never a scan of companies or tickets — so a timer whose time passed while the system was down is found by
 * the first tick that runs again.
 *
 * Firing exactly once:
 * 1. claim: a conditional Update moves the item's `dueAt` to `now + CLAIM_MS` on the condition that `dueAt` is still
 *    the value the Query saw. Two ticks running at once (or a replacement written meanwhile): only one claim wins.
 * 2. the kind's handler runs. Handlers are conditional on the state they act on (they re-read the ticket and write
 *    with its version check), so running one again after a crash changes nothing twice.
 * 3. settle: the handler either finishes (Delete, condition `dueAt` = the claim) or asks to run again later (Update to
 *    the new `dueAt`, same condition). A timer re-scheduled by someone else while the handler ran keeps the newer value.
 * A process that dies between claim and settle leaves the item due at the claim's end: the tick retries it then. A
 * handler that keeps throwing is given up after {@link MAX_ATTEMPTS} (logged).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { queryPages } from "../db/query.ts";
import { keys } from "../db/keys.ts";
import { log } from "../log.ts";

/** Partitions of the due index (spread the writes; the tick queries each). */
export const TIMER_SHARDS = 4;
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
export type TimerHandler = (timer: Timer, now: Date) => Promise<TimerResult | undefined>;

const handlers = new Map<string, TimerHandler>();

/** Registers the handler of a timer kind (once, at module load, by the feature that owns the kind). */
export function registerTimerKind(kind: string, handler: TimerHandler): void {
  if (kind.includes("#")) throw new Error(`timer kind ${kind}: no '#'`);
  handlers.set(kind, handler);
}

const iso = (d: Date | string | number) => (d instanceof Date ? d : new Date(d)).toISOString();

function shardOf(companyId: number, kind: string, ref: string): number {
  let h = 0;
  for (const ch of `${companyId}#${kind}#${ref}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % TIMER_SHARDS;
}

const indexOf = (companyId: number, kind: string, ref: string, dueAt: string) => keys.timerDueIndex(shardOf(companyId, kind, ref), dueAt, companyId, kind, ref);

/**
 * Schedules (or replaces) timer (companyId, kind, ref) to fire at `dueAt` with `data` (a small JSON object the handler
 * reads). One Put; idempotent.
 */
export async function scheduleTimer(companyId: number, kind: string, ref: string | number, dueAt: Date | string | number, data: Record<string, unknown> = {}): Promise<void> {
  const r = String(ref);
  const due = iso(dueAt);
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.timer(companyId, kind, r), ...indexOf(companyId, kind, r, due), _type: "timer", companyId, kind, ref: r, dueAt: due, data, attempts: 0 },
    }),
  );
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

function toTimer(it: Record<string, unknown>): Timer {
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
async function moveDue(t: Timer, seen: string, to: string, extra: { data?: Record<string, unknown>; attempt?: boolean; resetAttempts?: boolean } = {}): Promise<boolean> {
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

async function deleteIfDue(t: Timer, seen: string): Promise<void> {
  try {
    await ddb().send(
      new DeleteCommand({ TableName: tableName(), Key: keys.timer(t.companyId, t.kind, t.ref), ConditionExpression: "dueAt = :seen", ExpressionAttributeValues: { ":seen": seen } }),
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

/** Claims and fires one due timer; returns what happened. */
async function fireOne(t: Timer, now: Date): Promise<"fired" | "rescheduled" | "lost" | "failed" | "unknown"> {
  const handler = handlers.get(t.kind);
  if (!handler) return "unknown";
  const claim = iso(now.getTime() + CLAIM_MS);
  if (!(await moveDue(t, t.dueAt, claim, { attempt: true }))) return "lost";
  let result: TimerResult | undefined;
  try {
    result = await handler({ ...t, attempts: t.attempts + 1 }, now);
  } catch (err) {
    if (t.attempts + 1 >= MAX_ATTEMPTS) {
      log("error", "timer given up", { companyId: t.companyId, kind: t.kind, ref: t.ref, err });
      await deleteIfDue(t, claim);
    } else log("warn", "timer failed (retried after the claim)", { companyId: t.companyId, kind: t.kind, ref: t.ref, err });
    return "failed";
  }
  if (result?.rescheduleAt !== undefined) {
    await moveDue(t, claim, iso(result.rescheduleAt), { data: result.data, resetAttempts: true });
    return "rescheduled";
  }
  await deleteIfDue(t, claim);
  return "fired";
}

/**
 * The minute tick's part: fires every timer due at `now` or before, shard by shard through the due index (at most
 * `limitPerShard` each run). Returns the counts. Kinds with no handler in this process are left untouched.
 */
export async function runDueTimers(
  now: Date = new Date(),
  limitPerShard = 500,
): Promise<{ fired: number; rescheduled: number; lost: number; failed: number }> {
  const counts = { fired: 0, rescheduled: 0, lost: 0, failed: 0 };
  const upTo = `${iso(now)}\uffff`;
  for (let shard = 0; shard < TIMER_SHARDS; shard++) {
    let seen = 0;
    for await (const items of queryPages({
      IndexName: "GSI1",
      KeyConditionExpression: "GSI1PK = :pk AND GSI1SK <= :upTo",
      ExpressionAttributeValues: { ":pk": keys.timerDuePK(shard), ":upTo": upTo },
      Limit: 100,
    })) {
      for (const it of items) {
        seen++;
        const outcome = await fireOne(toTimer(it), now).catch((err) => {
          log("error", "timer claim failed", { err, kind: it.kind, ref: it.ref, companyId: it.companyId });
          return "failed" as const;
        });
        if (outcome !== "unknown") counts[outcome]++;
      }
      if (seen >= limitPerShard) break;
    }
  }
  return counts;
}
