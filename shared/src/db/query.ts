/**
 * Reading a whole bounded item collection (a company's queues, users, settings, connections; plans; a shard's
 * connections), following `LastEvaluatedKey` until the end. For small, bounded collections only; lists that grow
 * without bound page with cursors instead (`cursor.ts`).
 */
import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "./client.ts";

/** Every raw item a Query returns over all its pages (the table name is filled in). Parse each with its zod schema. */
export async function queryAll(input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey">): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }));
    out.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** Every raw item of partition `pk` whose sort key starts with `skPrefix` (e.g. `C#<cid>` / `QUEUE#`), in sort-key order. */
export function queryAllByPrefix(pk: string, skPrefix: string, extra: { ConsistentRead?: boolean } = {}): Promise<Record<string, unknown>[]> {
  return queryAll({ KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)", ExpressionAttributeValues: { ":pk": pk, ":sk": skPrefix }, ...extra });
}
