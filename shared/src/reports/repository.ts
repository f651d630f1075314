/**
 * Every DynamoDB call of the reports: one Query of a finished-cycle partition (the company's month on GSI1, an
 * attendant's month on GSI3, or a report entry partition of the table), the backfill's progress item and its writes,
 * a contact's entries and the contact's name on them, and the entries a deleted ticket leaves.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetRaw, batchWriteAll, keyId } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { TicketCycle } from "../tickets/cycles.ts";
import { reportEntryItems, reportEntryKeys } from "./entries.ts";
import { ReportBackfillItem, ReportEntry } from "./schema.ts";

/** Where finished cycles are listed: a partition of an index (GSI1 company month, GSI3 attendant month) or of the table. */
export interface CyclePartition {
  index?: "GSI1" | "GSI3";
  pk: string;
}

/** The sort key of a finished cycle in every partition that lists it: `<finishedAt>#<ticket id, padded>`. */
export const cycleSortKey = (finishedAt: string, ticketId: number) => keys.reportEntry("", finishedAt, ticketId).SK;

/** The start key of a Query of `p` after the item at sort key `sk` (rebuilt from the company's own partition). */
export function cycleStartKey(companyId: number, p: CyclePartition, sk: string): Record<string, unknown> {
  if (!p.index) return keys.reportEntry(p.pk, sk.slice(0, sk.lastIndexOf("#")), Number(sk.slice(sk.lastIndexOf("#") + 1)));
  const tid = Number(sk.slice(sk.lastIndexOf("#") + 1));
  const finishedAt = sk.slice(0, sk.lastIndexOf("#"));
  return { ...keys.ticketCycle(companyId, tid, finishedAt), [`${p.index}PK`]: p.pk, [`${p.index}SK`]: sk };
}

/**
 * One page of partition `p`'s finished cycles whose sort key lies in [`from`, `to`] (instants; `to` excluded), newest
 * first, at most `limit`, after `startKey`. Cycle items carry no tags (`tagIds` empty); report entries do.
 */
export async function queryCycles(
  p: CyclePartition,
  range: { from: string; to: string },
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: (ReportEntry & { sk: string })[]; lastKey?: Record<string, unknown> }> {
  const sk = p.index ? `${p.index}SK` : "SK";
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      ...(p.index ? { IndexName: p.index } : {}),
      KeyConditionExpression: `#pk = :pk AND #sk BETWEEN :a AND :b`,
      ExpressionAttributeNames: { "#pk": p.index ? `${p.index}PK` : "PK", "#sk": sk },
      ExpressionAttributeValues: { ":pk": p.pk, ":a": range.from, ":b": range.to },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  const items = (out.Items ?? []).map((raw) => ({ ...parseStored(ReportEntry, raw), sk: String(raw[sk]) }));
  return { items, lastKey: out.LastEvaluatedKey };
}

/** The backfill's progress of company `companyId` (consistent), or null before its first run. */
export async function getBackfill(companyId: number): Promise<ReportBackfillItem | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.reportBackfill(companyId), ConsistentRead: true }));
  return out.Item ? parseStored(ReportBackfillItem, out.Item) : null;
}

/**
 * The report backfill's progress of a company born with its report entries (every cycle of it writes its own), for its
 * creation transaction: done, so no deploy or local start ever walks its months.
 */
export function bornReportedPut(companyId: number) {
  const now = new Date().toISOString();
  return { Put: { TableName: tableName(), Item: { ...keys.reportBackfill(companyId), _type: "reportBackfill", companyId, month: null, sk: null, done: true, entries: 0, updatedAt: now } } };
}

/** Saves the backfill's progress. */
export async function putBackfill(p: ReportBackfillItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.reportBackfill(p.companyId), _type: "reportBackfill", ...p } }));
}

/** One page of the company's cycles finished in UTC month `month` (GSI1), oldest first, after sort key `afterSk`. */
export async function queryMonthCycles(companyId: number, month: string, limit: number, afterSk: string | null): Promise<{ cycles: (TicketCycle & { sk: string })[]; more: boolean }> {
  const pk = keys.ticketCycleIndex(companyId, 0, `${month}-01T00:00:00.000Z`, null).GSI1PK;
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: "GSI1",
      KeyConditionExpression: afterSk ? "GSI1PK = :pk AND GSI1SK > :a" : "GSI1PK = :pk",
      ExpressionAttributeValues: { ":pk": pk, ...(afterSk ? { ":a": afterSk } : {}) },
      Limit: limit,
    }),
  );
  return { cycles: (out.Items ?? []).map((raw) => ({ ...parseStored(TicketCycle, raw), sk: String(raw.GSI1SK) })), more: !!out.LastEvaluatedKey };
}

/** Writes the report entries of cycles (Puts of the same items: writing one twice changes nothing). */
export async function putReportEntries(cycles: { cycle: TicketCycle; tagIds: number[] }[]): Promise<number> {
  const items = cycles.flatMap((c) => reportEntryItems(c.cycle, c.tagIds));
  await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })));
  return items.length;
}

/** Report entries of a contact's partition read per page when the contact is renamed. */
const CONTACT_ENTRY_PAGE = 100;

/**
 * Every report entry of contact `contactId` (its `RPT#CT` partition: one per finished cycle of the contact), page by
 * page, strongly consistent (a cycle closed before the read is in it).
 */
export async function* contactEntryPages(companyId: number, contactId: number): AsyncGenerator<ReportEntry[]> {
  for await (const items of queryPages({
    KeyConditionExpression: "PK = :pk",
    ExpressionAttributeValues: { ":pk": keys.reportEntryPK(companyId, "CT", contactId, null) },
    ConsistentRead: true,
    Limit: CONTACT_ENTRY_PAGE,
  })) {
    yield items.map((raw) => parseStored(ReportEntry, raw));
  }
}

/**
 * The keys of every item that stores finished cycle `e`: the cycle item in its ticket's partition and its report
 * entries, the contact's entry last.
 */
export function cycleItemKeys(e: ReportEntry): { PK: string; SK: string }[] {
  return [keys.ticketCycle(e.companyId, e.ticketId, e.finishedAt), ...reportEntryKeys(e, e.tagIds)];
}

/**
 * Sets the contact's name and number on the item at `key` (a cycle item or a report entry) when it exists: an item
 * deleted meanwhile (its ticket deleted) is not written back. Returns whether it was written.
 */
export async function setCycleContact(key: { PK: string; SK: string }, contact: { name: string; number: string }): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: "SET #c = :c",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: { "#c": "contact" },
        ExpressionAttributeValues: { ":c": contact },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/**
 * The report entries of the finished cycles `cycles` of one ticket (for its deletion): the partitions of each, with
 * the tags its contact entry holds (a cycle whose entries were never written gives its untagged ones).
 */
export async function reportEntryKeysOf(cycles: TicketCycle[]): Promise<{ PK: string; SK: string }[]> {
  if (!cycles.length) return [];
  const ctKey = (c: TicketCycle) => keys.reportEntry(keys.reportEntryPK(c.companyId, "CT", c.contactId, null), c.finishedAt, c.ticketId);
  const got = await batchGetRaw(cycles.map(ctKey), true);
  return cycles.flatMap((c) => {
    const stored = got.get(keyId(ctKey(c)));
    return reportEntryKeys(c, Array.isArray(stored?.tagIds) ? (stored.tagIds as number[]) : []);
  });
}
