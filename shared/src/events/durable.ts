/**
 * Durable listeners: a listener that carries a rule (timers, ticket summaries, the connection's timers, webhooks...)
 * declares `durable: true` and `wants(event)`; its effect is then never lost to a failed write or a dead process
 * between two steps.
 *
 * How: for each event it wants, `dispatch` (through {@link runDurable}, installed by `./wiring.ts`) first writes a
 * pending-run item (`keys.listenerRun`: the listener's name and the event), then runs the listener, then deletes the
 * item. A listener that throws (a failed write) leaves it; so does a process that dies meanwhile. The minute tick
 * ({@link redriveDurable}) reads each shard's items due by now (one Query per shard: the partitions hold only pending
 * runs, no scan, no cursor), claims each one (a transaction moving it to a later due time, so two ticks never run it
 * at once), runs the listener again with the stored event (`{redriven: true}`: the listener reads the entity's current
 * state, so an old event replayed after newer ones never writes stale data) and deletes it. Listeners are idempotent
 * (they put the state the entity is in), so a run repeated after a crash changes nothing twice: exactly once in effect.
 *
 * What this does not cover: the pending-run item is written right after the fact's own transaction, not inside it, so
 * a process that dies in the few milliseconds between the fact's commit and this Put loses that listener's run (the
 * fact itself is kept). Carrying the item in the fact's transaction needs each repository write to know its events;
 * the counters do it (`./outbox.ts`), the other listeners accept this window. See `./README.md`.
 */
import { randomUUID } from "node:crypto";
import { DeleteCommand, PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { cancellationReasons } from "../db/errors.ts";
import { keys, shardOfName } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { log } from "../log.ts";
import { registeredListeners, type DomainEvent, type Listener } from "./registry.ts";

/** Shards of the pending runs (every company's events spread over this many partitions). */
export const RUN_SHARDS = 8;
/** A pending run becomes due for the tick this long after the dispatch (the listener normally finished by then). */
export const RUN_GRACE_MS = 60_000;
/** How long a tick's claim holds a run before another tick may take it (the handler's time budget). */
const CLAIM_MS = 2 * 60_000;
/** After this many failed runs, a run is retried once a day only (logged as an error each time). */
export const MAX_RUN_ATTEMPTS = 10;

interface Run {
  PK: string;
  SK: string;
  listener: string;
  companyId: number;
  runId: string;
  event: string;
  attempts: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const keyOf = (dueAt: string, companyId: number, runId: string) => keys.listenerRun(shardOfName(runId, RUN_SHARDS), dueAt, companyId, runId);

/**
 * Runs durable listener `l` on `event`, keeping a pending-run item from before it starts until it succeeded. Never
 * throws: a failure is logged and left to the tick. When the item cannot be written, the listener still runs (logged
 * as an error: that run is then best-effort).
 */
export async function runDurable(l: Listener, event: DomainEvent): Promise<void> {
  if (l.wants && !l.wants(event)) return;
  const e = event as unknown as { type: string; companyId: number };
  const runId = `${l.name}#${randomUUID()}`;
  const key = keyOf(iso(Date.now() + RUN_GRACE_MS), e.companyId, runId);
  let kept = true;
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key, _type: "listenerRun", listener: l.name, companyId: e.companyId, runId, event: JSON.stringify(event), attempts: 0 },
      }),
    );
  } catch (err) {
    kept = false;
    log("error", "events: durable listener's pending run not written; running it best-effort", { listener: l.name, type: e.type, companyId: e.companyId, err });
  }
  try {
    await l.handle(event);
  } catch (err) {
    log("warn", "events: durable listener failed; the tick runs it again", { listener: l.name, type: e.type, companyId: e.companyId, err });
    return;
  }
  if (kept) {
    await ddb()
      .send(new DeleteCommand({ TableName: tableName(), Key: key }))
      .catch((err: unknown) => log("warn", "events: applied run not deleted; the tick runs it again (idempotent)", { listener: l.name, err }));
  }
}

/** Moves a run to `dueAt` with one more attempt, if it is still where it was read. False: someone else took it. */
async function claim(run: Run, dueAt: string): Promise<{ PK: string; SK: string } | null> {
  const next = keyOf(dueAt, run.companyId, run.runId);
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName(), Key: { PK: run.PK, SK: run.SK }, ConditionExpression: "attribute_exists(PK)" } },
          { Put: { TableName: tableName(), Item: { ...run, ...next, _type: "listenerRun", attempts: run.attempts + 1 } } },
        ],
      }),
    );
    return next;
  } catch (err) {
    if (cancellationReasons(err)?.[0]?.Code === "ConditionalCheckFailed") return null;
    throw err;
  }
}

/**
 * The minute tick's part: runs again every durable listener run due by `now` (ms), at most `limitPerShard` per shard.
 * Each is claimed first (moved to `now` + 2 min, or a day after {@link MAX_RUN_ATTEMPTS} failures), then run with
 * its stored event and deleted. Returns how many runs were applied now.
 */
export async function redriveDurable(now = Date.now(), limitPerShard = 200): Promise<number> {
  const byName = new Map(registeredListeners().map((l) => [l.name, l]));
  let applied = 0;
  await Promise.all(
    Array.from({ length: RUN_SHARDS }, async (_, shard) => {
      let seen = 0;
      try {
        const pages = queryPages({
          KeyConditionExpression: "PK = :pk AND SK <= :upTo",
          ExpressionAttributeValues: { ":pk": keys.listenerRunPK(shard), ":upTo": `${iso(now)}\uffff` },
          Limit: 100,
        });
        for await (const items of pages) {
          for (const it of items as unknown as Run[]) {
            if (seen++ >= limitPerShard) return;
            const l = byName.get(it.listener);
            if (!l) {
              log("warn", "events: pending run of a listener this process does not wire", { listener: it.listener });
              continue;
            }
            const giveUp = it.attempts + 1 >= MAX_RUN_ATTEMPTS;
            const held = await claim(it, iso(now + (giveUp ? 24 * 60 * 60_000 : CLAIM_MS)));
            if (!held) continue;
            try {
              await l.handle(JSON.parse(it.event) as DomainEvent, { redriven: true });
            } catch (err) {
              log(giveUp ? "error" : "warn", "events: durable listener failed again; retried later", { listener: it.listener, companyId: it.companyId, attempts: it.attempts + 1, err });
              continue;
            }
            await ddb().send(new DeleteCommand({ TableName: tableName(), Key: held }));
            applied++;
          }
        }
      } catch (err) {
        log("warn", "events: durable runs shard re-drive failed", { shard, err });
      }
    }),
  );
  return applied;
}
