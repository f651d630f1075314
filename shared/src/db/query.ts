/**
 * Reading a whole bounded item collection: every item of partition `pk` whose sort key starts with `skPrefix`
 * (e.g. a company's queues `C#<cid>` / `QUEUE#`), following `LastEvaluatedKey` until the end. For small, bounded
 * entities only (queues, users, settings, plans); lists that grow without bound page with cursors instead.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "./client.ts";

/** Every raw item under (`pk`, `skPrefix`), in sort-key order. Parse each with the feature's zod schema. */
export async function queryAllByPrefix(pk: string, skPrefix: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
        ExpressionAttributeValues: { ":pk": pk, ":sk": skPrefix },
        ExclusiveStartKey: start,
      }),
    );
    out.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}
