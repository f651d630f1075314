/**
 * Tickets in DynamoDB (docs/architecture.md#3-the-table): item `C#<cid>#TK#<id>`/`#TICKET` with the four list indexes from
 * `keys.ticketIndexes` (GSI1 by status, GSI2 by status+queue, GSI3 by status+assignee, GSI4 by contact), the uuid
 * alias `C#<cid>#TKUUID#<uuid>` and the ACTIVE marker `C#<cid>#ACTIVE#<wid>#<contactId>` (one open/pending ticket per
 * contact per connection; holds `ticketId`). Items are read into `TicketItem`s once (`summaries.ts` `parseTicket`: the
 * schema's fields and defaults, no schema parse for well-formed items).
 */
import { counterFacts, handOverOnDelete, outboxPut, type OutboxEntry } from "../events/outbox.ts";
import { pendingRunPuts } from "../events/durable.ts";
import { reportEntryItems } from "../reports/entries.ts";
import { reportEntryKeysOf } from "../reports/repository.ts";
import { cycleAfter, finishedCycle, TicketCycle } from "./cycles.ts";
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetRaw, batchWriteAll, keyId } from "../db/batch.ts";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { countQuery, queryAll, queryPages } from "../db/query.ts";
import { cancellationReasons } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys, pad } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { messageWords } from "../search/tokens.ts";
import { ticketGramItems, ticketGramWrites } from "../search/writes.ts";
import { TICKET_REMAINS } from "../timers/kinds.ts";
import { cancelTimer, timerPutItem } from "../timers/repository.ts";
import { dropEdgeOfDeletedTicket } from "../tags/repository.ts";
import { atRev, bumpRev } from "./revision.ts";
import { ROW_PROJECTION, rowAttributes, unpackRows } from "./row.ts";
import type { TicketItem } from "./schema.ts";
import { tallyOf, TALLY_ATTRS, type TallyAttr } from "./tally.ts";
import { laterIso } from "../common.ts";
import type { ReplyWait } from "../contacts/schema.ts";
import { attachSummaries, loadSummaries, parseTicket, summariesOf, summaryAttributes, type TicketSummaries } from "./summaries.ts";

/** The list-index attributes of a ticket (GSI3 only when assigned). */
export const ticketIndexKeys = (t: TicketItem) => keys.ticketIndexes(t);

/**
 * The full stored item of a ticket, with the row summaries (`summaries.ts`) when given and its packed list row at its
 * `rev` (`row.ts`).
 */
export function ticketRecord(t: TicketItem, summaries?: TicketSummaries): Record<string, unknown> {
  const record = { ...t, ...keys.ticket(t.companyId, t.id), ...ticketIndexKeys(t), ...(summaries ? summaryAttributes(summaries) : {}), _type: "ticket" };
  return { ...record, ...rowAttributes(record) };
}

/** True for statuses that hold the ACTIVE marker. */
export const isActiveStatus = (s: string) => s === "open" || s === "pending";

/** Reads one ticket of the company, or null. */
export async function getTicketItem(companyId: number, ticketId: number, consistent = false): Promise<TicketItem | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.ticket(companyId, ticketId), ConsistentRead: consistent }));
  return out.Item ? parseTicket(out.Item) : null;
}

/** Reads many tickets of the company in one batch; returns them by id. */
export async function batchGetTickets(companyId: number, ids: number[]): Promise<Map<number, TicketItem>> {
  // The packed rows (`row.ts`): what a row shows, as one string per item.
  const projected = await batchGetRaw([...new Set(ids)].map((id) => keys.ticket(companyId, id)), false, ROW_PROJECTION);
  const out = new Map<number, TicketItem>();
  for (const { item } of await unpackRows([...projected.values()])) {
    const t = parseTicket(item);
    out.set(t.id, t);
  }
  return out;
}

/** The ticket id a uuid names in this company, or null. */
export async function getTicketIdByUuid(companyId: number, uuid: string): Promise<number | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.ticketUuid(companyId, uuid) }));
  return out.Item ? Number(out.Item.ticketId) : null;
}

/** The ticket id holding the ACTIVE marker of (connection, contact), or null. Strongly consistent. */
export async function getActiveTicketId(companyId: number, whatsappId: number, contactId: number): Promise<number | null> {
  const out = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: keys.activeTicket(companyId, whatsappId, contactId), ConsistentRead: true }),
  );
  return out.Item ? Number(out.Item.ticketId) : null;
}

/** The ACTIVE marker of an open or pending ticket (one per contact and connection). */
export const activeTicketRecord = (t: TicketItem) => ({ ...keys.activeTicket(t.companyId, t.whatsappId, t.contactId), _type: "activeTicket", ticketId: t.id, companyId: t.companyId });

/**
 * Creates an open or pending ticket: Put ACTIVE marker (`attribute_not_exists`, `ALL_OLD` on failure) + Put ticket
 * (with its row summaries, read in one BatchGet of its contact, queue, user and connection) + Put uuid alias, one
 * transaction, with the counters' outbox item and the pending runs of the durable listeners wanting `ticket.created`
 * (`events/durable.ts`: a ticket's timers survive a process dying right after). Returns `{created:true}` or
 * `{created:false, existingTicketId}` when another ticket holds the marker (the race winner). `t` keeps its summaries
 * beside it (`summariesOf`). `known`: summaries the caller built from items it just read (e.g. the contact and
 * connection a scheduled send holds), not read again.
 */
export async function createTicketItem(
  t: TicketItem,
  known: Pick<TicketSummaries, "contact" | "whatsapp" | "user"> = {},
): Promise<{ created: true } | { created: false; existingTicketId: number }> {
  Object.assign(t, cycleAfter(null, t));
  const fact = counterFacts.ticket(null, t); // before `tally` is set: a new ticket was counted nowhere
  t.tally = tallyOf(t);
  const loaded = await loadSummaries(t.companyId, {
    contactId: known.contact ? undefined : t.contactId,
    queueId: t.queueId,
    userId: known.user !== undefined ? undefined : t.userId,
    whatsappId: known.whatsapp ? undefined : t.whatsappId,
    tagIds: t.tagIds,
  });
  const summaries: TicketSummaries = { ...loaded };
  if (known.contact) summaries.contact = known.contact;
  if (known.whatsapp) summaries.whatsapp = known.whatsapp;
  if (known.user !== undefined) summaries.user = known.user;
  attachSummaries(t, summaries);
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: activeTicketRecord(t),
              ConditionExpression: "attribute_not_exists(PK)",
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            },
          },
          { Put: { TableName: tableName(), Item: ticketRecord(t, summaries), ConditionExpression: "attribute_not_exists(PK)" } },
          { Put: { TableName: tableName(), Item: { ...keys.ticketUuid(t.companyId, t.uuid), _type: "ticketUuid", ticketId: t.id } } },
          ...outboxPut(fact),
          ...pendingRunPuts({ type: "ticket.created", companyId: t.companyId, ticket: t }),
          // The search index's ticket-side grams (search/writes.ts): found by its contact's words from the start.
          ...ticketGramWrites(t.companyId, t.id, null, summaries.contact),
        ],
      }),
    );
    return { created: true };
  } catch (err) {
    const reasons = cancellationReasons(err);
    const first = reasons?.[0];
    if (first?.Code === "ConditionalCheckFailed") {
      const old = first.Item as Record<string, unknown> | undefined;
      // The SDK returns the old item in wire format ({N: "12"}) inside cancellation reasons.
      const raw = old?.ticketId as unknown;
      const id = typeof raw === "object" && raw && "N" in (raw as object) ? Number((raw as { N: string }).N) : Number(raw);
      if (Number.isFinite(id) && id > 0) return { created: false, existingTicketId: id };
      const again = await getActiveTicketId(t.companyId, t.whatsappId, t.contactId);
      if (again) return { created: false, existingTicketId: again };
    }
    throw err;
  }
}

/**
 * The condition that the stored `tally` is still the one `t` was read with (`tally.ts`): a write subtracts what it
 * says, so a ticket the count backfill counted after it was read must be read again (409 `ERR_CONFLICT` to the
 * callers, who re-read). Adds its value to `values`; expects `#tally` in the names.
 */
function tallyCondition(t: TicketItem, values: Record<string, unknown>): string {
  if (t.tally === undefined) return "attribute_not_exists(#tally)";
  values[":prevTally"] = t.tally;
  return "#tally = :prevTally";
}

/** Attributes an agent-side update may change (everything else — lastMessage, unreadMessages — belongs to ingestion). */
const MUTABLE = [
  "status",
  "userId",
  "queueId",
  "whatsappId",
  "useIntegration",
  "integrationId",
  "promptId",
  "chatbot",
  // the chatbot's state (automation/chatbot.ts)
  "queueOptionId",
  "amountUsedBotQueues",
  "botSilentUntil",
  // the rating wait (automation/rating.ts)
  "ratingAt",
  // the current service cycle (cycles.ts)
  "queuedAt",
  "acceptedAt",
  "acceptedBy",
  "updatedAt",
] as const;

/**
 * Writes a ticket transition in one transaction (close and reopen alike):
 * - Update ticket: the mutable fields + recomputed GSI1-3 keys (GSI3 removed when unassigned), `version + 1`,
 *   condition `version = prev.version` (two agents acting at once: the second gets 409 `ERR_CONFLICT`);
 * - ACTIVE marker: Delete when leaving open/pending (condition: it is ours or gone), Put when entering open/pending
 *   (`attribute_not_exists` → 409 `ERR_OTHER_OPEN_TICKET` with `{ticketId}` of the holder), both when the connection changes.
 * - the row summaries (`summaries.ts`) of the queue, user and connection that changed (or all of them when `prev` was
 *   read without any), read in one BatchGet before the write.
 * - the pending runs of the durable listeners wanting the `ticket.updated` `{ticket: next, previous: prev}` it
 *   reports (`events/durable.ts`), so a timer the transition starts survives a process dying right after the commit.
 * `extra`: more items written in the same transaction, after the ticket's (e.g. the rating item and its counters'
 * outbox item: stored exactly when the ticket closes); `rating`: the customer's rate stored on the cycle it finishes.
 * A close also stores the finished service cycle (`cycles.ts`) and its report entries with the contact's name and
 * number, checked against the contact item (a summary older than a rename is read again; renamed at every try: 409
 * `ERR_CONFLICT`).
 * Returns the new ticket (lastMessage/unreadMessages as read in `prev`), with its summaries beside it.
 */
export async function writeTicketTransition(
  prev: TicketItem,
  patch: Partial<Pick<TicketItem, (typeof MUTABLE)[number]>>,
  extra: Record<string, unknown>[] = [],
  rating?: { rate: number; ratedAt: string },
): Promise<TicketItem> {
  const next: TicketItem = { ...prev, ...patch, version: prev.version + 1 };
  Object.assign(next, cycleAfter(prev, next));
  next.tally = tallyOf(next); // the tab counts (tally.ts): counted from the state `prev` was stored with
  const cycle = finishedCycle(prev, next, rating);
  const had = summariesOf(prev);
  // A close stores the contact's name and number on the cycle, checked against the contact item in the same
  // transaction: a ticket summary older than a rename is read again, so no cycle keeps a name the reports' contact
  // listener has already replaced.
  for (let attempt = 0; ; attempt++) {
    const fresh = await loadSummaries(prev.companyId, {
      contactId: attempt === 0 && had?.contact?.id === next.contactId ? undefined : next.contactId,
      queueId: had && had.queue !== undefined && (had.queue?.id ?? null) === next.queueId ? undefined : next.queueId,
      userId: had && had.user !== undefined && (had.user?.id ?? null) === next.userId ? undefined : next.userId,
      whatsappId: had?.whatsapp?.id === next.whatsappId ? undefined : next.whatsappId,
    });
    const sums = summaryAttributes(fresh);
    attachSummaries(next, { ...had, ...fresh });
    const idx = ticketIndexKeys(next);
    const names: Record<string, string> = { "#v": "version", "#tally": "tally" };
    const values: Record<string, unknown> = { ":v": prev.version, ":nv": next.version, ":tally": next.tally };
    const sets: string[] = ["#v = :nv", "#tally = :tally"];
    MUTABLE.forEach((f, i) => {
      names[`#f${i}`] = f;
      values[`:f${i}`] = next[f];
      sets.push(`#f${i} = :f${i}`);
    });
    Object.entries(sums).forEach(([k, v], i) => {
      names[`#s${i}`] = k;
      values[`:s${i}`] = v;
      sets.push(`#s${i} = :s${i}`);
    });
    for (const k of ["GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "GSI3PK", "GSI3SK"] as const) {
      if (k in idx) {
        values[`:${k}`] = (idx as Record<string, string>)[k];
        sets.push(`${k} = :${k}`);
      }
    }
    const update =
      `SET ${sets.join(", ")}${"GSI3PK" in idx ? "" : " REMOVE GSI3PK, GSI3SK"}`;
    const items: TxItem[] = [
      {
        Update: bumpRev({
          TableName: tableName(),
          Key: keys.ticket(prev.companyId, prev.id),
          UpdateExpression: update,
          ConditionExpression: `attribute_exists(PK) AND #v = :v AND ${tallyCondition(prev, values)}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      },
    ];
    const wasActive = isActiveStatus(prev.status);
    const isActive = isActiveStatus(next.status);
    const moved = prev.whatsappId !== next.whatsappId;
    let putIndex = -1;
    if (wasActive && (!isActive || moved)) {
      items.push({
        Delete: {
          TableName: tableName(),
          Key: keys.activeTicket(prev.companyId, prev.whatsappId, prev.contactId),
          ConditionExpression: "attribute_not_exists(PK) OR ticketId = :tid",
          ExpressionAttributeValues: { ":tid": prev.id },
        },
      });
    }
    if (isActive && (!wasActive || moved)) {
      putIndex = items.length;
      items.push({
        Put: {
          TableName: tableName(),
          Item: activeTicketRecord(next),
          ConditionExpression: "attribute_not_exists(PK) OR ticketId = :tid",
          ExpressionAttributeValues: { ":tid": prev.id },
        },
      });
    }
    items.push(...outboxPut(counterFacts.ticket(prev, next))); // counters' outbox (events/outbox.ts), last: indexes above unchanged
    const checkIndex = items.length;
    if (cycle) {
      // the finished service cycle and its report entries, stored exactly when the ticket closes
      // (a contact that could not be read leaves the cycle without: its row reads the contact)
      const c = summariesOf(next)?.contact;
      if (c?.id === next.contactId) {
        cycle.contact = { name: c.name, number: c.number };
        items.push(contactCheck(next.companyId, next.contactId, cycle.contact));
      } else delete cycle.contact;
      items.push(cycleItemPut(cycle));
      items.push(...reportEntryItems(cycle, next.tagIds).map((Item) => ({ Put: { TableName: tableName(), Item } })));
    }
    items.push(...extra);
    items.push(...pendingRunPuts({ type: "ticket.updated", companyId: prev.companyId, ticket: next, previous: prev }));
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items }));
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (reasons) {
        // the contact was renamed since its summary was read: read it again (a rename at every try is a conflict)
        if (cycle?.contact && reasons[checkIndex]?.Code === "ConditionalCheckFailed" && reasons[0]?.Code !== "ConditionalCheckFailed") {
          if (attempt < 3) continue;
          throw new AppError("ERR_CONFLICT");
        }
        if (putIndex >= 0 && reasons[putIndex]?.Code === "ConditionalCheckFailed") {
          const holder = await getActiveTicketId(next.companyId, next.whatsappId, next.contactId);
          throw new AppError("ERR_OTHER_OPEN_TICKET", { ticketId: holder });
        }
        if (reasons[0]?.Code === "ConditionalCheckFailed" || reasons.some((r) => r.Code === "TransactionConflict")) {
          throw new AppError("ERR_CONFLICT");
        }
      }
      throw err;
    }
    return next;
  }
}

/** The check, in a closing transaction, that the contact item still has the name and number the cycle stores. */
function contactCheck(companyId: number, contactId: number, c: { name: string; number: string }): TxItem {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.contact(companyId, contactId),
      ConditionExpression: "#n = :n AND #num = :num",
      ExpressionAttributeNames: { "#n": "name", "#num": "number" },
      ExpressionAttributeValues: { ":n": c.name, ":num": c.number },
    },
  };
}

/** Sets `unreadMessages = 0` (opening the conversation). No version bump (`rev` moves), no `updatedAt` change. */
export async function zeroUnread(companyId: number, ticketId: number): Promise<void> {
  await ddb()
    .send(
      new UpdateCommand(
        bumpRev({
          TableName: tableName(),
          Key: keys.ticket(companyId, ticketId),
          UpdateExpression: "SET unreadMessages = :z",
          ConditionExpression: "attribute_exists(PK)",
          ExpressionAttributeValues: { ":z": 0 },
        }),
      ),
    )
    .catch((err) => {
      if ((err as Error).name !== "ConditionalCheckFailedException") throw err;
    });
}

/** Sets a few attributes that change no list position (`presence`), returning the new ticket or null when gone. */
export async function setTicketAttributes(companyId: number, ticketId: number, attrs: { presence?: string }): Promise<TicketItem | null> {
  try {
    const out = await ddb().send(
      new UpdateCommand(
        bumpRev({
          TableName: tableName(),
          Key: keys.ticket(companyId, ticketId),
          UpdateExpression: "SET presence = :p",
          ConditionExpression: "attribute_exists(PK)",
          ExpressionAttributeValues: { ":p": attrs.presence ?? "" },
          ReturnValues: "ALL_NEW" as const,
        }),
      ),
    );
    return out.Attributes ? parseTicket(out.Attributes) : null;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return null;
    throw err;
  }
}

/**
 * Marks a campaign's shipping as waiting for the customer's reply on this ticket while it is open or pending
 * (`campaignWait`; the ingest sees it on the ticket it writes at its `rev`, and clears it in the same transaction).
 * Returns false when the ticket is gone or no longer open or pending.
 */
export function setTicketReplyWait(companyId: number, ticketId: number, wait: ReplyWait): Promise<boolean> {
  return updateTicketIf(companyId, ticketId, {
    UpdateExpression: "SET campaignWait = :w",
    ConditionExpression: "attribute_exists(PK) AND #st IN (:open, :pending)",
    ExpressionAttributeNames: { "#st": "status" },
    ExpressionAttributeValues: { ":w": wait, ":open": "open", ":pending": "pending" },
  });
}

/**
 * Applies `update` to the ticket item when its `ConditionExpression` holds, moving `rev`. Returns true when written,
 * false when the condition failed (nothing written); other DynamoDB errors are thrown.
 */
async function updateTicketIf(
  companyId: number,
  ticketId: number,
  update: { UpdateExpression: string; ConditionExpression: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> },
): Promise<boolean> {
  try {
    await ddb().send(new UpdateCommand(bumpRev({ TableName: tableName(), Key: keys.ticket(companyId, ticketId), ...update })));
    return true;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return false;
    throw err;
  }
}

/** Which list index a query uses. */
export type TicketIndex = "GSI1" | "GSI2" | "GSI3" | "GSI4";

/**
 * One Query of a ticket list index, newest first. `skBetween` narrows the sort key (`updatedAt` day filter);
 * `filter` adds an optional FilterExpression (rare filters only: unread, created day, tags).
 */
/** How many tickets partition `pk` of list index `index` holds (a COUNT query, paged). */
export function countTicketIndex(index: TicketIndex, pk: string): Promise<number> {
  return countQuery({ IndexName: index, KeyConditionExpression: `${index}PK = :pk`, ExpressionAttributeValues: { ":pk": pk } });
}

export async function queryTicketIndex(
  index: TicketIndex,
  pk: string,
  opts: {
    limit: number;
    startKey?: Record<string, unknown>;
    skBetween?: [string, string];
    skPrefix?: string;
    filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  },
): Promise<{ items: (TicketItem & { _sk: string; _key: Record<string, unknown> })[]; lastKey?: Record<string, unknown> }> {
  const values: Record<string, unknown> = { ":pk": pk, ...(opts.filter?.values ?? {}) };
  let cond = `${index}PK = :pk`;
  if (opts.skBetween) {
    cond += ` AND ${index}SK BETWEEN :a AND :b`;
    values[":a"] = opts.skBetween[0];
    values[":b"] = opts.skBetween[1];
  } else if (opts.skPrefix) {
    cond += ` AND begins_with(${index}SK, :sp)`;
    values[":sp"] = opts.skPrefix;
  }
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: cond,
      ExpressionAttributeValues: values,
      ...(opts.filter ? { FilterExpression: opts.filter.expression } : {}),
      // The packed rows (`row.ts`) and the cursor's keys: one string per item for DynamoDB to send and for us to parse.
      ProjectionExpression: `${ROW_PROJECTION.expression}, ${index}PK, ${index}SK`,
      ExpressionAttributeNames: { ...ROW_PROJECTION.names, ...(opts.filter?.names ?? {}) },
      ScanIndexForward: false,
      Limit: opts.limit,
      ExclusiveStartKey: opts.startKey,
    }),
  );
  const items = (await unpackRows(out.Items ?? [])).map(({ projected: raw, item }) => {
    // The index position comes from the projection (a stale row's BatchGet may be newer than the index entry).
    const t = parseTicket(item) as TicketItem & { _sk: string; _key: Record<string, unknown> };
    // The index position rides on the ticket, not enumerable: spreads and JSON never see it (no copy to strip it).
    Object.defineProperty(t, "_sk", { value: String(raw[`${index}SK`]), enumerable: false });
    Object.defineProperty(t, "_key", { value: { PK: raw.PK, SK: raw.SK, [`${index}PK`]: raw[`${index}PK`], [`${index}SK`]: raw[`${index}SK`] }, enumerable: false });
    return t;
  });
  return { items, lastKey: out.LastEvaluatedKey };
}

/** The tickets of a contact, newest created first (GSI4), at most `limit`. */
export async function queryContactTickets(companyId: number, contactId: number, limit: number): Promise<TicketItem[]> {
  const out = await queryTicketIndex("GSI4", keys.contactTicketsPK(companyId, contactId), { limit, skPrefix: keys.ticketEdgePrefix });
  return out.items;
}

/**
 * Deletes a ticket: the item (as it was read: `version` and `tally`, so it leaves exactly the tab counts it was in),
 * its uuid alias and its ACTIVE marker (if it holds it) in one transaction with its counters' outbox item
 * (`t.updatedAt` is the deletion time) and a `ticketRemains` timer (due in {@link REMAINS_GRACE_MS}), then removes
 * what the ticket leaves behind ({@link deleteTicketRemains}) and cancels the timer. A process that dies (or a write
 * that fails, logged) in between leaves the timer, and the minute tick finishes the removal (`tickets/remains.ts`). A
 * ticket changed since it was read is read again and deleted as it is now. Returns the ticket as deleted (for its
 * `ticket.deleted` event), or null when it was already gone.
 * @throws the transaction's error only (nothing deleted then).
 */
export async function deleteTicketItems(read: TicketItem): Promise<TicketItem | null> {
  let t: TicketItem | null = read;
  for (let attempt = 0; t; attempt++) {
    try {
      await deleteTicketTransaction(t);
      break;
    } catch (err) {
      if ((!(err instanceof HandOverMoved) && cancellationReasons(err)?.[0]?.Code !== "ConditionalCheckFailed") || attempt >= 5) throw err;
      const fresh = await getTicketItem(read.companyId, read.id, true);
      t = fresh && attachSummaries({ ...fresh, updatedAt: laterIso([fresh.updatedAt, read.updatedAt].sort().at(-1)) }, summariesOf(fresh));
    }
  }
  if (!t) return null;
  const contact = summariesOf(t)?.contact ?? null;
  try {
    await deleteTicketRemains(t.companyId, t.id, contact);
    await cancelTimer(t.companyId, TICKET_REMAINS, t.id);
  } catch (err) {
    log("warn", "ticket deleted; its remains are left to the ticketRemains timer", { companyId: t.companyId, ticketId: t.id, err });
  }
  return t;
}

/**
 * The deletion's transaction, conditioned on the ticket's `version`, `tally` and `rev` as read (a message stored
 * meanwhile makes it read again). A ticket with customers' messages not yet handed over to the day counters hands
 * them over in it (`events/outbox.ts` `handOverOnDelete`; docs/product/dashboard.md#customers-messages). Throws {@link HandOverMoved} when a hand-over was applied meanwhile (read again too).
 */
async function deleteTicketTransaction(t: TicketItem): Promise<void> {
  const handOver = await handOverOnDelete(t);
  const rev = atRev(t.rev);
  const values: Record<string, unknown> = { ":v": t.version, ...rev.values };
  const items: TxItem[] = [
    {
      Delete: {
        TableName: tableName(),
        Key: keys.ticket(t.companyId, t.id),
        ConditionExpression: `attribute_exists(PK) AND #v = :v AND ${tallyCondition(t, values)} AND ${rev.condition}`,
        ExpressionAttributeNames: { "#v": "version", "#tally": "tally", "#rev": "rev" },
        ExpressionAttributeValues: values,
      },
    },
    ...handOver.items,
  ];
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: [...items, ...deleteTicketRest(t)] }));
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (reasons?.slice(1, 1 + handOver.handOvers).some((r) => r?.Code === "ConditionalCheckFailed")) throw new HandOverMoved();
    throw err;
  }
}

/** A ticket's hand-over item was applied between the deletion's read and its transaction: read again. */
class HandOverMoved extends Error {}

/** The deletion's items after the ticket and its hand-overs. */
function deleteTicketRest(t: TicketItem): TxItem[] {
  const contact = summariesOf(t)?.contact ?? null;
  return [

    { Delete: { TableName: tableName(), Key: keys.ticketUuid(t.companyId, t.uuid) } },
    {
      Delete: {
        TableName: tableName(),
        Key: keys.activeTicket(t.companyId, t.whatsappId, t.contactId),
        ConditionExpression: "attribute_not_exists(PK) OR ticketId = :tid",
        ExpressionAttributeValues: { ":tid": t.id },
      },
    },
    ...outboxPut(counterFacts.ticketDeleted(t)), // it leaves the tab counts it was in
    timerPutItem(t.companyId, TICKET_REMAINS, t.id, Date.now() + REMAINS_GRACE_MS, { contact }),
  ];
}

/** How long after a deletion the tick finishes what the deleting process did not. */
export const REMAINS_GRACE_MS = 2 * 60_000;

/**
 * Removes what a deleted ticket leaves: its contact's search grams (from `contact`, its summary), its finished cycles'
 * report entries, then its partition
 * page by page (messages, notes, tag edges with their tags' counts) with, for each page, the message id references
 * and the search word items of its messages (`_sw`, the words each message indexed) first, so a run cut short and
 * run again still finds every word through the messages left. Idempotent.
 */
export async function deleteTicketRemains(companyId: number, ticketId: number, contact: Parameters<typeof ticketGramItems>[2]): Promise<void> {
  await batchWriteAll(ticketGramItems(companyId, ticketId, contact).map((it) => ({ DeleteRequest: { Key: { PK: it.PK, SK: it.SK } } })));
  // Its attendances leave the reports: the report entries of its finished cycles, found from the cycles (which go
  // with the partition below, after them).
  const cycles = await queryAll({
    KeyConditionExpression: "PK = :pk AND begins_with(SK, :c)",
    ExpressionAttributeValues: { ":pk": keys.ticketPartition(companyId, ticketId), ":c": keys.ticketCyclePrefix },
    ConsistentRead: true,
  });
  await batchWriteAll((await reportEntryKeysOf(cycles.map((raw) => parseStored(TicketCycle, raw)))).map((Key) => ({ DeleteRequest: { Key } })));
  for await (const items of queryPages({
    KeyConditionExpression: "PK = :pk",
    ExpressionAttributeValues: { ":pk": keys.ticketPartition(companyId, ticketId) },
    ProjectionExpression: "PK, SK, id, tagId, #k, #sw, body",
    ExpressionAttributeNames: { "#k": "_type", "#sw": "_sw" },
    Limit: 200,
  })) {
    const words = new Set<string>();
    const dels: { PK: string; SK: string }[] = [];
    for (const it of items) {
      if (String(it.SK).startsWith(keys.tagPrefix) && it.tagId != null) {
        // Tag edges leave with their count (tags' `ticketsCount` stays exact).
        await dropEdgeOfDeletedTicket(companyId, ticketId, Number(it.tagId));
        continue;
      }
      dels.push({ PK: String(it.PK), SK: String(it.SK) });
      if (String(it.SK).startsWith(keys.messagePrefix)) {
        // An older message's id reference goes; its alias stays (a redelivery is still refused), as does a newer
        // message's merged alias, whose location then finds no message.
        if (it.id) dels.push(keys.messageRef(companyId, String(it.id), ticketId));
        // Messages stored before `_sw` was kept: their words are those of the body (a word never indexed is a no-op delete).
        for (const w of typeof it._sw === "string" ? it._sw.split(" ") : messageWords(String(it.body ?? ""))) if (w) words.add(w);
      }
      if (String(it.SK).startsWith(keys.prefix.note) && it.id) dels.push(keys.noteRef(companyId, Number(it.id)));
    }
    await batchWriteAll([...words].map((w) => ({ DeleteRequest: { Key: keys.searchWord(companyId, w, ticketId) } })));
    await batchWriteAll(dels.map((Key) => ({ DeleteRequest: { Key } })));
  }
}

/** Deletes the ACTIVE marker of a ticket that no longer exists (self-healing of a stale marker). */
export async function deleteStaleMarker(companyId: number, whatsappId: number, contactId: number, ticketId: number): Promise<void> {
  await ddb()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.activeTicket(companyId, whatsappId, contactId),
        ConditionExpression: "ticketId = :tid",
        ExpressionAttributeValues: { ":tid": ticketId },
      }),
    )
    .catch(() => undefined);
}

export { pad };

/**
 * The transaction item that stores the rating of one ticket cycle, once (`C#<cid>#TK#<tid>` / `RATING#<ratingAt>`;
 * docs/product/ratings.md). Written with the transition that closes the ticket (`automation/rating.ts` passes it as `extra`).
 */
export function ticketRatingPut(rating: { companyId: number; ticketId: number; ratingAt: string } & Record<string, unknown>) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.ticketRating(rating.companyId, rating.ticketId, rating.ratingAt), _type: "ticketRating", ...rating },
      ConditionExpression: "attribute_not_exists(PK)",
    },
  };
}

/** The `Put` of a finished service cycle (`cycles.ts`) for the closing transaction, listed by month of finish. */
/** The stored item of a finished service cycle, with its month indexes. */
export function ticketCycleRecord(c: TicketCycle): Record<string, unknown> {
  return { ...keys.ticketCycle(c.companyId, c.ticketId, c.finishedAt), ...keys.ticketCycleIndex(c.companyId, c.ticketId, c.finishedAt, c.userId), _type: "ticketCycle", ...c };
}

function cycleItemPut(c: TicketCycle) {
  return {
    Put: {
      TableName: tableName(),
      Item: ticketCycleRecord(c),
      ConditionExpression: "attribute_not_exists(PK)",
    },
  };
}

/**
 * Sets summary `part` (`sumContact`, `sumQueue`, ...) of the ticket item at `key` to `value` when its `owner` attribute
 * (`contactId`, `queueId`, ...) is still `ownerId`, with `extra` items in the same transaction (the ticket's search
 * grams). Moves `rev`. Returns false when the ticket moved to another owner meanwhile (nothing written). For the
 * summaries listener (`summaries.ts`).
 */
export async function setTicketSummaryPart(
  key: { PK: string; SK: string },
  part: string,
  owner: string,
  ownerId: number,
  value: unknown,
  extra: TxItem[],
): Promise<boolean> {
  const update = bumpRev({
    TableName: tableName(),
    Key: key,
    UpdateExpression: "SET #p = :v",
    ConditionExpression: "#o = :o",
    ExpressionAttributeNames: { "#p": part, "#o": owner },
    ExpressionAttributeValues: { ":v": value, ":o": ownerId },
  });
  try {
    await (extra.length ? ddb().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...extra] })) : ddb().send(new UpdateCommand(update)));
    return true;
  } catch (err) {
    const name = (err as Error).name;
    if (name === "ConditionalCheckFailedException") return false;
    if (name === "TransactionCanceledException" && cancellationReasons(err)?.[0]?.Code === "ConditionalCheckFailed") return false;
    throw err;
  }
}

/**
 * Sets tag `tag`'s entry in the ticket's `sumTags` when the ticket still carries the tag and has summaries. Moves
 * `rev`. Returns false when it does not (nothing written).
 */
export function setTicketTagSummary(companyId: number, ticketId: number, tag: { id: number; name: string; color: string }): Promise<boolean> {
  return updateTicketIf(companyId, ticketId, {
    UpdateExpression: "SET sumTags.#k = :g",
    ConditionExpression: "attribute_exists(sumTags) AND contains(tagIds, :id)",
    ExpressionAttributeNames: { "#k": String(tag.id) },
    ExpressionAttributeValues: { ":g": tag, ":id": tag.id },
  });
}

/**
 * Counts one ticket in the tab counts as it is at its `version` (the count backfill, `counts-backfill.ts`): sets its
 * `tally` (`tally.ts`) with the counters' outbox item of the move in one transaction, conditioned on the ticket still
 * being at that version and stored tally (anything written since counted it already). Moves `rev` (a ticket write).
 * Returns the outbox entry written, or null when nothing was (already counted, changed or gone).
 */
export async function tallyTicketItem(t: TicketItem, at: string): Promise<OutboxEntry | null> {
  const entry = counterFacts.ticketTallied(t, at);
  if (!entry) return null;
  const values: Record<string, unknown> = { ":v": t.version, ":tally": tallyOf(t) };
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: bumpRev({
              TableName: tableName(),
              Key: keys.ticket(t.companyId, t.id),
              UpdateExpression: "SET #tally = :tally",
              ConditionExpression: `attribute_exists(PK) AND #v = :v AND ${tallyCondition(t, values)}`,
              ExpressionAttributeNames: { "#v": "version", "#tally": "tally" },
              ExpressionAttributeValues: values,
            }),
          },
          ...outboxPut(entry),
        ],
      }),
    );
    return entry;
  } catch (err) {
    if (cancellationReasons(err)?.some((r) => r.Code === "ConditionalCheckFailed")) return null;
    throw err;
  }
}

/** The company's tab-count items at sort keys `sks` (`keys.ticketCountQueueSK` / `ticketCountUserSK`), each as `attr → n` (absent: zeros). */
export async function readTicketCountItems(companyId: number, sks: string[]): Promise<Map<string, Record<TallyAttr, number>>> {
  const got = sks.length ? await batchGetRaw(sks.map((sk) => keys.ticketCount(companyId, sk))) : new Map<string, Record<string, unknown>>();
  const out = new Map<string, Record<TallyAttr, number>>();
  for (const sk of sks) {
    const it = got.get(keyId(keys.ticketCount(companyId, sk)));
    out.set(sk, Object.fromEntries(TALLY_ATTRS.map((a) => [a, Number(it?.[a] ?? 0)])) as Record<TallyAttr, number>);
  }
  return out;
}

/** Where a company's tab-count backfill stopped (`counts-backfill.ts`): the status walked and the index position. */
export type CountsBackfillCursor = { p: "open" | "pending"; k?: Record<string, unknown> };

/** The company's tab-count backfill progress (one consistent GetItem). */
export async function readCountsBackfill(companyId: number): Promise<{ cursor?: CountsBackfillCursor; done: boolean }> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.ticketCountsBackfill(companyId), ConsistentRead: true }));
  return { cursor: (out.Item?.cursor ?? undefined) as CountsBackfillCursor | undefined, done: out.Item?.done === true };
}

/** Stores the tab-count backfill's progress. */
export async function writeCountsBackfill(companyId: number, cursor: CountsBackfillCursor | null, done: boolean): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.ticketCountsBackfill(companyId), _type: "ticketCountsBackfill", companyId, cursor, done, updatedAt: new Date().toISOString() },
    }),
  );
}

/** The progress item of a company born with the tab counts (every ticket of it counts itself), for its creation transaction: done. */
export function bornCountedPut(companyId: number) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.ticketCountsBackfill(companyId), _type: "ticketCountsBackfill", companyId, cursor: null, done: true, updatedAt: new Date().toISOString() },
    },
  };
}
