/**
 * The one paging loop of the product: every Query or Scan that follows `LastEvaluatedKey` goes through here.
 * - {@link queryPages} / {@link scanPages}: each page's items as they come (the caller may stop early, e.g. a tick's
 *   per-shard budget);
 * - {@link queryPagesFrom}: pages from a resume key, each sized (or refused) by the caller's budget, each with the
 *   key to resume after it (search rounds, summary refreshes);
 * - {@link pagesFrom}: the pages of a repository's one-page read (`{limit, startKey}` → `{…, lastKey}`), for services
 *   and adapters that page through typed pages (deleting a tag's edges, closing every ticket, search rounds);
 * - {@link queryAll}: a whole bounded item collection (a company's queues, users, settings, connections; plans; a
 *   shard's connections), optionally capped at `max` items.
 * Lists that grow without bound page with client cursors instead (`cursor.ts`, one `Limit`ed Query per request).
 */
import { QueryCommand, type QueryCommandInput, ScanCommand, type ScanCommandInput } from "@aws-sdk/lib-dynamodb";
import { QueryCommand as RawQueryCommand, type AttributeValue, type QueryCommandInput as RawQueryCommandInput } from "@aws-sdk/client-dynamodb";
import { ddb, rawDdb, tableName } from "./client.ts";

type Item = Record<string, unknown>;
type QueryInput = Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey">;
type ScanInput = Omit<ScanCommandInput, "TableName" | "ExclusiveStartKey">;

type Page = { Items?: Item[]; LastEvaluatedKey?: Item };

/** Follows `LastEvaluatedKey` from page to page of `read`, yielding each page's items. */
async function* pagesOf(read: (start: Item | undefined) => Promise<Page>): AsyncGenerator<Item[]> {
  let start: Item | undefined;
  do {
    const page = await read(start);
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** The raw items of every page of a Query (the table name is filled in), page by page; stop iterating to stop reading. */
export function queryPages(input: QueryInput): AsyncGenerator<Item[]> {
  return pagesOf((start) => ddb().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start })));
}

/**
 * Every page of a Query through the low-level client ({@link rawDdb}): items as DynamoDB returns them (`{N: "12"}`),
 * for a hot read that sums numbers and needs no document conversion (the dashboard's period read). `input` without
 * `TableName` (the configured table).
 */
export async function* rawQueryPages(input: Omit<RawQueryCommandInput, "TableName" | "ExclusiveStartKey">): AsyncGenerator<Record<string, AttributeValue>[]> {
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await rawDdb().send(new RawQueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }));
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** One page of a resumable read: its raw items, how many items DynamoDB examined, and the key to resume after it. */
export interface ResumablePage {
  items: Item[];
  /** `ScannedCount`: the items read before a `FilterExpression` (what a read budget counts). */
  scanned: number;
  /** The page's `LastEvaluatedKey`: undefined on the last page. */
  lastKey?: Item;
}

/**
 * The pages of a Query from `start` (a cursor's key, or undefined for the beginning), each of `limit(round)` items
 * (`round` counts from 0: a first page sized to what the caller still needs, later ones larger). `limit` returns null
 * to stop before reading (a round or read budget spent). Every page carries its `lastKey`, so a caller that stops
 * early resumes from the last page it took: the loop of bounded, resumable reads (search rounds, summary refreshes).
 */
export async function* queryPagesFrom(
  input: Omit<QueryInput, "Limit">,
  start: Item | undefined,
  limit: (round: number) => number | null,
): AsyncGenerator<ResumablePage> {
  let from = start;
  for (let round = 0; ; round++) {
    const max = limit(round);
    if (max == null) return;
    const page = await ddb().send(new QueryCommand({ ...input, TableName: tableName(), Limit: max, ExclusiveStartKey: from }));
    const items = page.Items ?? [];
    yield { items, scanned: page.ScannedCount ?? items.length, lastKey: page.LastEvaluatedKey };
    from = page.LastEvaluatedKey;
    if (!from) return;
  }
}

/** A page of a repository's one-page read: whatever it carries, and the key to resume after it. */
export interface KeyedPage {
  /** The page's `LastEvaluatedKey`: undefined on the last page. */
  lastKey?: Item;
}

/**
 * The pages of a repository's one-page read, each started where the previous one stopped: `read(startKey, round)`
 * (`round` counts from 0; `startKey` is `start`, a cursor's key or undefined for the beginning, then each page's
 * `lastKey`) until a page has no `lastKey`, or `read` answers null instead of a read (a caller's round or item budget
 * spent: nothing more is read). Stop iterating to stop reading. Raw Query inputs use {@link queryPagesFrom}.
 */
export async function* pagesFrom<P extends KeyedPage>(read: (startKey: Item | undefined, round: number) => Promise<P> | null, start?: Item): AsyncGenerator<P> {
  let from = start;
  for (let round = 0; ; round++) {
    const pending = read(from, round);
    if (!pending) return;
    const page = await pending;
    yield page;
    from = page.lastKey;
    if (!from) return;
  }
}

/** The raw items of every page of a Scan, page by page. Scans are for the local stack's start-up clean-up only. */
export function scanPages(input: ScanInput): AsyncGenerator<Item[]> {
  return pagesOf((start) => ddb().send(new ScanCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start })));
}

/**
 * Every raw item a Query returns over all its pages (at most `max` when given). Parse each with its zod schema.
 */
export async function queryAll(input: QueryInput, max = Number.POSITIVE_INFINITY): Promise<Item[]> {
  const out: Item[] = [];
  for await (const items of queryPages(input)) {
    out.push(...items);
    if (out.length >= max) return out.slice(0, max);
  }
  return out;
}

/** Every raw item of partition `pk` whose sort key starts with `skPrefix` (e.g. `C#<cid>` / `QUEUE#`), in sort-key order. */
export function queryAllByPrefix(
  pk: string,
  skPrefix: string,
  extra: { ConsistentRead?: boolean; ScanIndexForward?: boolean; max?: number } = {},
): Promise<Item[]> {
  const { max, ...rest } = extra;
  return queryAll({ KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)", ExpressionAttributeValues: { ":pk": pk, ":sk": skPrefix }, ...rest }, max);
}

/** How many items a Query matches over all its pages (`Select: "COUNT"`: no item is read back). */
export async function countQuery(input: QueryInput): Promise<number> {
  let n = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().send(new QueryCommand({ ...input, TableName: tableName(), Select: "COUNT", ExclusiveStartKey: start }));
    n += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return n;
}
