/**
 * Prompts in DynamoDB: one item per prompt in the company partition, `C#<cid>` / `PROMPT#<id>` (`keys.prompt`), read
 * together with one consistent prefix Query (a company holds a handful). Every write but the first is conditioned on
 * the `updatedAt` it was computed from (two admins editing at once: the second gets `false`, 409 `ERR_CONFLICT`).
 * The day's token use: `C#<cid>#AIUSE` / `D#<day>` (`keys.aiUsage`), counters ADDed after each answer.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { appliedUnlessChanged } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { PromptItem } from "./schema.ts";

/** One prompt of the company (strongly consistent), or `undefined`. */
export async function getPrompt(companyId: number, id: number): Promise<PromptItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.prompt(companyId, id), ConsistentRead: true }));
  return out.Item ? parseStored(PromptItem, out.Item) : undefined;
}

/** Every prompt of the company, in id order (strongly consistent). */
export async function listPrompts(companyId: number): Promise<PromptItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.promptPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(PromptItem, it));
}

/** Writes a new prompt (its id must be fresh). */
export async function putNewPrompt(item: PromptItem): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.prompt(item.companyId, item.id), _type: "prompt", ...item }, ConditionExpression: "attribute_not_exists(PK)" }),
  );
}

const sameAs = (before: PromptItem) => ({ ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } });

/** Replaces a prompt with `after`; false when it changed (or vanished) since `before` was read. */
export async function replacePrompt(before: PromptItem, after: PromptItem): Promise<boolean> {
  return appliedUnlessChanged(() =>
    ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.prompt(after.companyId, after.id), _type: "prompt", ...after }, ...sameAs(before) })),
  );
}

/** Deletes a prompt as read; false when it changed or was already gone. */
export async function deletePromptItem(before: PromptItem): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.prompt(before.companyId, before.id), ...sameAs(before) })));
}

/** Token use of one local day. */
export interface AiUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** Adds one answer's token use to the company's day `day` (`yyyy-mm-dd`, the company's zone). */
export async function addAiUsage(companyId: number, day: string, use: Omit<AiUsage, "requests">): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.aiUsage(companyId, day),
      UpdateExpression: "SET #t = :t ADD requests :one, promptTokens :p, completionTokens :c, totalTokens :all",
      ExpressionAttributeNames: { "#t": "_type" },
      ExpressionAttributeValues: { ":t": "aiUsage", ":one": 1, ":p": use.promptTokens, ":c": use.completionTokens, ":all": use.totalTokens },
    }),
  );
}

/** The company's token use on local day `day` (zeros when none). */
export async function getAiUsage(companyId: number, day: string): Promise<AiUsage> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.aiUsage(companyId, day) }));
  const it = out.Item ?? {};
  return { requests: it.requests ?? 0, promptTokens: it.promptTokens ?? 0, completionTokens: it.completionTokens ?? 0, totalTokens: it.totalTokens ?? 0 };
}
