/**
 * Every DynamoDB call of the public messages API: the per-token rate counter, the idempotency records and the
 * reading of a session command's result (the number check the session runner answers).
 */
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { ApiIdempotencyItem, type ApiSendAnswer } from "./schema.ts";

/** Adds one request to a token's counter of the window starting at `windowStart` (epoch s); returns the new count. */
export async function bumpRate(tokenHash: string, windowStart: number, windowSeconds: number): Promise<number> {
  const out = await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiRate(tokenHash, windowStart),
      UpdateExpression: "ADD requests :one SET expiresAt = if_not_exists(expiresAt, :exp), #t = :t",
      ExpressionAttributeNames: { "#t": "_type" },
      ExpressionAttributeValues: { ":one": 1, ":exp": windowStart + windowSeconds * 2, ":t": "apiRate" },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return Number(out.Attributes?.requests ?? 1);
}

/** The idempotency record of (connection, key), or null. */
export async function getIdempotency(companyId: number, whatsappId: number, key: string): Promise<ApiIdempotencyItem | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.apiIdempotency(companyId, whatsappId, key), ConsistentRead: true }));
  return out.Item ? parseStored(ApiIdempotencyItem, out.Item) : null;
}

/** Creates the idempotency record of a first request; false when one exists (another request with this key came first). */
export async function putIdempotency(item: ApiIdempotencyItem): Promise<boolean> {
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.apiIdempotency(item.companyId, item.whatsappId, item.key), _type: "apiIdempotency", ...item },
        ConditionExpression: "attribute_not_exists(PK)",
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Stores the first answer on the idempotency record. */
export async function saveIdempotentAnswer(companyId: number, whatsappId: number, key: string, answer: ApiSendAnswer): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiIdempotency(companyId, whatsappId, key),
      UpdateExpression: "SET answer = :a",
      ExpressionAttributeValues: { ":a": answer },
    }),
  );
}

/** A session command's record: `DONE` with its `result`, or null while it waits or runs. */
export async function commandResult(commandId: string): Promise<Record<string, unknown> | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.command(commandId), ConsistentRead: true }));
  return out.Item?.state === "DONE" ? ((out.Item.result as Record<string, unknown>) ?? {}) : null;
}
