/**
 * Durable listeners: a listener that carries a rule (timers, ticket summaries, the connection's timers, webhooks...)
 * declares `durable: true` and `wants(event)`; its effect is then never lost to a failed write or a dead process
 * between two steps.
 *
 * How: the write of a fact puts, IN ITS OWN TRANSACTION, one pending-run item per durable listener that wants the
 * event it will dispatch ({@link pendingRunPuts}: `keys.listenerRun`, the listener's name and the event). The item's
 * key is derived from the fact ({@link factOf}: the entity and its version, or its `updatedAt`; due a minute after the
 * fact), so `dispatch` (through {@link runDurable}, installed by `./wiring.ts`) names the same item without being told:
 * it runs the listener, then deletes the item (the items of one event's listeners together, {@link deleteAppliedRuns}). A listener that throws (a failed write) leaves it; so does a process
 * that dies anywhere after the fact's commit. The minute tick ({@link redriveDurable}) reads each shard's items due by
 * now (one Query per shard: the partitions hold only pending runs, no scan, no cursor), claims each one (a transaction
 * moving it to a later due time, so two ticks never run it at once), runs the listener again with the stored event
 * (`{redriven: true}`: the listener reads the entity's current state, so an old event replayed after newer ones never
 * writes stale data) and deletes it. Listeners are idempotent (they put the state the entity is in), so a run repeated
 * after a crash changes nothing twice: exactly once in effect. A fact whose write has no transaction (a session's
 * state) writes its runs the same way, in a transaction with its update. See `./README.md`.
 */
import { randomUUID } from "node:crypto";
import { DeleteCommand, PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { batchWriteAll } from "../db/batch.ts";
import { cancellationReasons } from "../db/errors.ts";
import { keys, shardOfName } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { log } from "../log.ts";
import { registeredListeners, type DomainEvent, type Listener, type RunKey } from "./registry.ts";
// Types only: the events whose facts carry their pending runs (see `factOf`).
import type {} from "../tickets/events.ts";
import type {} from "../messages/events.ts";
import type {} from "../whatsapp/events.ts";
import type {} from "../contacts/events.ts";
import type {} from "../queues/events.ts";
import type {} from "../users/events.ts";
import type {} from "../tags/events.ts";
import type {} from "../campaigns/events.ts";

/** Shards of the pending runs (every company's events spread over this many partitions). */
export const RUN_SHARDS = 8;
/** A pending run becomes due for the tick this long after its fact (the listener normally finished by then). */
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

/** A fact that carries its pending runs: an id unique per fact and the ISO time it happened. */
export interface Fact {
  id: string;
  at: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
/**
 * Under tests (or `ATENDE_CHECK_EVENTS=1`), a dispatched fact whose pending runs this process did not build for its
 * write ({@link pendingRunPuts}) is logged as an error: the writer of a fact is the process that dispatches it.
 */
const CHECK_RUNS = !!process.env.VITEST || process.env.ATENDE_CHECK_EVENTS === "1";
/** The runs {@link pendingRunPuts} built (only under {@link CHECK_RUNS}; forgotten when dispatched, bounded). */
const builtRuns = new Set<string>();
const keyOf = (dueAt: string, companyId: number, runId: string) => keys.listenerRun(shardOfName(runId, RUN_SHARDS), dueAt, companyId, runId);

/**
 * The fact an event reports, for the events a durable listener may want: a ticket created or moved (its id and
 * version; a new contact's first message reports its ticket's creation), a connection, contact, queue, user or tag
 * changed (its id and `updatedAt`, which each of their writes moves), a customer's message answering a campaign's
 * wait (the message's id and connection). The writer of the fact and `dispatch` derive the
 * same pending-run keys from it. Null for the other events.
 */
export function factOf(event: DomainEvent): Fact | null {
  switch (event.type) {
    case "ticket.created":
      return { id: keys.listenerFact("ticket", event.ticket.id, event.ticket.version), at: event.ticket.createdAt };
    case "message.created":
      return event.ticketCreated ? { id: keys.listenerFact("ticket", event.ticket.id, event.ticket.version), at: event.ticket.createdAt } : null;
    case "ticket.updated":
      return event.previous ? { id: keys.listenerFact("ticket", event.ticket.id, event.ticket.version), at: event.ticket.updatedAt } : null;
    case "whatsapp.updated":
    case "whatsapp.session":
      return { id: keys.listenerFact("whatsapp", event.whatsapp.id, event.whatsapp.updatedAt), at: event.whatsapp.updatedAt };
    case "contact.updated":
      return { id: keys.listenerFact("contact", event.contact.id, event.contact.updatedAt), at: event.contact.updatedAt };
    case "queue.updated":
      return { id: keys.listenerFact("queue", event.queue.id, event.queue.updatedAt), at: event.queue.updatedAt };
    case "user.updated":
      return { id: keys.listenerFact("user", event.user.id, event.user.updatedAt), at: event.user.updatedAt };
    case "tag.updated":
      return { id: keys.listenerFact("tag", event.tag.id, event.tag.updatedAt), at: event.tag.updatedAt };
    case "campaign.replied":
      return { id: keys.listenerFact("message", event.messageId, event.whatsappId), at: event.at };
    default:
      return null;
  }
}

/** The pending-run key of listener `name` for `fact` of company `companyId`. */
function runKey(name: string, companyId: number, fact: Fact) {
  const runId = `${name}#${fact.id}`;
  return { runId, key: keyOf(iso(Date.parse(fact.at) + RUN_GRACE_MS), companyId, runId) };
}

/** The durable listeners that want `event` (none in a process without `./wiring.ts`). */
const durableFor = (event: DomainEvent) => registeredListeners().filter((l) => l.durable && (!l.wants || l.wants(event)));

/**
 * The `Put`s of the pending runs of `event` (one per durable listener that wants it), for the `TransactWriteItems` of
 * the fact it reports: what makes the listener's rule survive a process dying right after the commit. Empty when no
 * durable listener wants it. A plain Put: the same fact written again names the same items.
 */
export function pendingRunPuts(event: DomainEvent): { Put: { TableName: string; Item: Record<string, unknown> } }[] {
  const fact = factOf(event);
  if (!fact) return [];
  const e = event as unknown as { companyId: number };
  return durableFor(event).map((l) => {
    const { runId, key } = runKey(l.name, e.companyId, fact);
    if (CHECK_RUNS) {
      if (builtRuns.size >= 100_000) builtRuns.clear();
      builtRuns.add(`${e.companyId}#${runId}`);
    }
    return {
      Put: {
        TableName: tableName(),
        Item: { ...key, _type: "listenerRun", listener: l.name, companyId: e.companyId, runId, event: JSON.stringify(event), attempts: 0 },
      },
    };
  });
}

/**
 * Runs durable listener `l` on `event` and deletes its pending run once it succeeded, or adds its key to `applied`
 * when given (the caller deletes the runs of one event together: {@link deleteAppliedRuns}). The run was written by
 * the fact's own transaction ({@link pendingRunPuts}) when the event reports a fact ({@link factOf}); for an event that
 * reports none, it is written here, before the listener. Never throws: a failure is logged and left to the tick.
 */
export async function runDurable(l: Listener, event: DomainEvent, applied?: RunKey[]): Promise<void> {
  if (l.wants && !l.wants(event)) return;
  const e = event as unknown as { type: string; companyId: number };
  const fact = factOf(event);
  const named = fact ? runKey(l.name, e.companyId, fact) : null;
  // A development check: a write that reports a fact must carry its pending run.
  if (CHECK_RUNS && named && !builtRuns.delete(`${e.companyId}#${named.runId}`)) {
    log("error", "events: the fact's write carried no pending run", { listener: l.name, type: e.type, fact: fact?.id });
  }
  let key: RunKey | null = named?.key ?? null;
  if (!key) {
    const runId = `${l.name}#${randomUUID()}`;
    key = keyOf(iso(Date.now() + RUN_GRACE_MS), e.companyId, runId);
    try {
      await ddb().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...key, _type: "listenerRun", listener: l.name, companyId: e.companyId, runId, event: JSON.stringify(event), attempts: 0 },
        }),
      );
    } catch (err) {
      key = null;
      log("error", "events: durable listener's pending run not written; running it best-effort", { listener: l.name, type: e.type, companyId: e.companyId, err });
    }
  }
  try {
    await l.handle(event);
  } catch (err) {
    log("warn", "events: durable listener failed; the tick runs it again", { listener: l.name, type: e.type, companyId: e.companyId, err });
    return;
  }
  if (!key) return;
  if (applied) applied.push(key);
  else await deleteAppliedRuns([key]);
}

/**
 * Deletes the pending runs of listeners that succeeded (one DeleteItem for one, one BatchWriteItem per 25 for more).
 * Never throws: a run left is run again by the tick (listeners are idempotent), and logged.
 */
export async function deleteAppliedRuns(applied: RunKey[]): Promise<void> {
  try {
    if (applied.length === 1) await ddb().send(new DeleteCommand({ TableName: tableName(), Key: applied[0] }));
    else if (applied.length) await batchWriteAll(applied.map((Key) => ({ DeleteRequest: { Key } })));
  } catch (err) {
    log("warn", "events: applied runs not deleted; the tick runs them again (idempotent)", { count: applied.length, err });
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
