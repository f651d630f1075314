/**
 * Password-reset codes (docs/product/companies.md#password-reset): one item per email at `PWRESET#<email>` holding the
 * code's SHA-256 (never the code), its expiry (epoch seconds, also the TTL) and the wrong attempts so far.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";

export const ResetCodeItem = z.object({ email: z.string(), codeHash: z.string(), expiresAt: z.number().int(), attempts: z.number().int() });
export type ResetCodeItem = z.infer<typeof ResetCodeItem>;

/** Stores (replaces) the pending code of `item.email`. */
export async function putResetCode(item: ResetCodeItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.passwordReset(item.email), _type: "passwordReset", ...item } }));
}

/** The pending code of `email`, or undefined. */
export async function getResetCode(email: string): Promise<ResetCodeItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.passwordReset(email), ConsistentRead: true }));
  return out.Item ? parseStored(ResetCodeItem, out.Item) : undefined;
}

/** Counts one wrong attempt on the code read with `codeHash`; returns the new count, or undefined when the code changed or went. */
export async function countResetAttempt(email: string, codeHash: string): Promise<number | undefined> {
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.passwordReset(email),
        UpdateExpression: "ADD attempts :one",
        ConditionExpression: "codeHash = :h",
        ExpressionAttributeValues: { ":one": 1, ":h": codeHash },
        ReturnValues: "ALL_NEW",
      }),
    );
    return Number(out.Attributes?.attempts);
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}

/** Consumes the code read with `codeHash` (single use); false when another request consumed or replaced it first. */
export async function consumeResetCode(email: string, codeHash: string): Promise<boolean> {
  try {
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.passwordReset(email), ConditionExpression: "codeHash = :h", ExpressionAttributeValues: { ":h": codeHash } }));
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}
