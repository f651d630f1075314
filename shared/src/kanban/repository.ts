/**
 * Kanban in DynamoDB (docs/architecture.md#3-the-table, docs/product/kanban.md). Every key comes from `db/keys.ts`:
 * - lane entry `C#<cid>#TK#<tid>` / `KANBAN#<lane>` in the ticket's partition (lane 0 = "Em aberto"), indexed on GSI1
 *   `C#<cid>#KB#<lane>`, GSI2 `…#Q#<qid|NONE>`, GSI3 `…#U#<uid>` (assigned only), sort key `T#<createdAt>#<tid>`;
 * - the company's lane set `C#<cid>` / `KANBANLANES` (the kanban tag ids the entries were written for);
 * - the company's lane backfill progress `C#<cid>` / `KANBANBACKFILL` (`./backfill.ts`).
 */
import { GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { batchWriteAll, type WriteRequest } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { KanbanBackfillProgress, KanbanEntry, KanbanLaneSet } from "./schema.ts";

/** The lane entries a ticket has now (strongly consistent: one Query of its partition). */
export async function listTicketEntries(companyId: number, ticketId: number): Promise<(KanbanEntry & { GSI1SK?: string })[]> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :p)",
      ExpressionAttributeValues: { ":pk": keys.ticketPartition(companyId, ticketId), ":p": keys.kanbanEntryPrefix },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((it) => ({ ...parseStored(KanbanEntry, it), GSI1SK: typeof it.GSI1SK === "string" ? it.GSI1SK : undefined }));
}

/** The ticket facts a lane entry's keys hold. */
type EntryTicket = Pick<TicketItem, "companyId" | "id" | "queueId" | "userId" | "createdAt">;

/** The stored lane entry of `ticket` in lane `lane` (0 = "Em aberto"), with its three index keys. */
export function laneEntryRecord(ticket: EntryTicket, lane: number): Record<string, unknown> {
  const cid = ticket.companyId;
  return {
    ...keys.kanbanEntry(cid, ticket.id, lane),
    ...keys.kanbanIndexes(ticket, lane),
    _type: "kanbanEntry",
    companyId: cid,
    ticketId: ticket.id,
    lane,
    queueId: ticket.queueId ?? null,
    userId: ticket.userId ?? null,
  };
}

/**
 * Puts the entries of `ticket` in `put` lanes (replacing them: queue and assignee keys follow the ticket) and deletes
 * those of `drop` lanes. Idempotent: writing the same state again changes nothing a reader sees.
 */
export async function writeTicketEntries(ticket: EntryTicket, put: number[], drop: number[]): Promise<void> {
  const requests: WriteRequest[] = [
    ...put.map((lane) => ({ PutRequest: { Item: laneEntryRecord(ticket, lane) } })),
    ...drop.map((lane) => ({ DeleteRequest: { Key: keys.kanbanEntry(ticket.companyId, ticket.id, lane) } })),
  ];
  if (requests.length) await batchWriteAll(requests);
}

/** Which lane index a read uses: the whole lane, one queue of it, or one assignee's. */
export type LaneIndex = "GSI1" | "GSI2" | "GSI3";

/** One entry read from a lane index: the ticket, its sort key and the key to resume after it. */
export interface LaneEntryRef {
  ticketId: number;
  sk: string;
  key: Record<string, unknown>;
}

/** One page of lane partition `pk` of `index`, newest ticket first (`limit` entries at most). */
export async function queryLane(
  index: LaneIndex,
  pk: string,
  opts: { limit: number; startKey?: Record<string, unknown> },
): Promise<{ entries: LaneEntryRef[]; lastKey?: Record<string, unknown> }> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: `${index}PK = :pk`,
      ExpressionAttributeValues: { ":pk": pk },
      ProjectionExpression: `PK, SK, ticketId, ${index}PK, ${index}SK`,
      ScanIndexForward: false,
      Limit: opts.limit,
      ExclusiveStartKey: opts.startKey,
    }),
  );
  const entries = (out.Items ?? []).map((it) => ({
    ticketId: Number(it.ticketId),
    sk: String(it[`${index}SK`]),
    key: { PK: it.PK, SK: it.SK, [`${index}PK`]: it[`${index}PK`], [`${index}SK`]: it[`${index}SK`] },
  }));
  return { entries, lastKey: out.LastEvaluatedKey };
}

/** The company's lane set as last written (empty when never written). */
export async function getLaneSet(companyId: number): Promise<KanbanLaneSet> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.kanbanLanes(companyId), ConsistentRead: true }));
  return out.Item ? parseStored(KanbanLaneSet, out.Item) : { tagIds: [] };
}

/** Replaces the company's lane set. */
export async function putLaneSet(companyId: number, tagIds: number[]): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.kanbanLanes(companyId), _type: "kanbanLanes", tagIds: [...tagIds].sort((a, b) => a - b) } }));
}

/** The company's lane backfill progress (one consistent GetItem; not started when never written). */
export async function getKanbanBackfill(companyId: number): Promise<KanbanBackfillProgress> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.kanbanBackfill(companyId), ConsistentRead: true }));
  return out.Item ? parseStored(KanbanBackfillProgress, out.Item) : { cursor: null, done: false };
}

/** Stores where the company's lane backfill stopped (`cursor`), or that it is `done`, with the last run's counts. */
export async function putKanbanBackfill(companyId: number, progress: KanbanBackfillProgress, lastRun: Record<string, unknown>): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.kanbanBackfill(companyId), _type: "kanbanBackfill", companyId, ...progress, lastRun, updatedAt: new Date().toISOString() },
    }),
  );
}

/**
 * The lane backfill progress of a company born with the lane entries (every ticket write of it keeps its lanes), as a
 * `Put` for the company's creation transaction: done, so deploys and local starts never schedule its backfill.
 */
export function bornLanedPut(companyId: number) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.kanbanBackfill(companyId), _type: "kanbanBackfill", companyId, cursor: null, done: true, bornLaned: true, updatedAt: new Date().toISOString() },
    },
  };
}
