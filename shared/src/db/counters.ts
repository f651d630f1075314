/**
 * Numeric ids the UI shows (DESIGN.md §5): one atomic counter item per company and entity
 * (`GLOBAL` for companies and plans). `UpdateItem ADD` is atomic; a retried call may skip a number, never repeat one.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "./client.ts";
import { keys } from "./keys.ts";

/** Allocates the next id (1, 2, 3, ...) for `entity` in `scope` (a company id or `GLOBAL`). */
export async function nextId(scope: number | "GLOBAL", entity: string): Promise<number> {
  const out = await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(scope, entity),
      UpdateExpression: "ADD #v :one",
      ExpressionAttributeNames: { "#v": "value" },
      ExpressionAttributeValues: { ":one": 1 },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return Number(out.Attributes?.value);
}
