/**
 * Quick messages in DynamoDB: one item per quick message in the company partition, `C#<cid>` / `QUICK#<id>`
 * (`keys.quickMessage`), read together with one consistent prefix Query (a company holds a small set of them).
 * Every write but the first is conditioned on the `updatedAt` it was computed from, so two concurrent edits never
 * lose each other's change silently (the second gets `false` and the service answers 409 `ERR_CONFLICT`).
 */
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { appliedUnlessChanged } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { QuickMessageItem } from "./schema.ts";
import { parseStored } from "../db/items.ts";

/** One quick message of the company (strongly consistent), or `undefined`. */
export async function getQuickMessage(companyId: number, id: number): Promise<QuickMessageItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.quickMessage(companyId, id), ConsistentRead: true }));
  return out.Item ? parseStored(QuickMessageItem, out.Item) : undefined;
}

/** Every quick message of the company, in id order (strongly consistent). */
export async function listQuickMessages(companyId: number): Promise<QuickMessageItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.prefix.quickMessage, { ConsistentRead: true });
  return raw.map((it) => parseStored(QuickMessageItem, it));
}

/** Writes a new quick message (its id must be fresh). */
export async function putNewQuickMessage(item: QuickMessageItem): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.quickMessage(item.companyId, item.id), _type: "quickMessage", ...item },
      ConditionExpression: "attribute_not_exists(PK)",
    }),
  );
}

/** Replaces a quick message with `after`; false when it changed (or vanished) since `before` was read. */
export async function replaceQuickMessage(before: QuickMessageItem, after: QuickMessageItem): Promise<boolean> {
  return appliedUnlessChanged(() =>
    ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.quickMessage(after.companyId, after.id), _type: "quickMessage", ...after }, ...sameAs(before) })),
  );
}

/** Deletes a quick message as read (`before`); false when it changed or was already gone. */
export async function deleteQuickMessageItem(before: QuickMessageItem): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.quickMessage(before.companyId, before.id), ...sameAs(before) })));
}

/** The condition that the stored item is still the one read (`updatedAt` unchanged). */
const sameAs = (before: QuickMessageItem) => ({ ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } });

