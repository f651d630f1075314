/**
 * Queue integrations in DynamoDB: one item per integration in the company partition, `C#<cid>` / `QINT#<id>`
 * (`keys.integration`), read together with one consistent prefix Query (a company holds a handful). Writes after the
 * first are conditioned on the `updatedAt` they were computed from (false: changed meanwhile). The bot session of a
 * ticket (`keys.botSession`) lives in the ticket's partition.
 */
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { appliedUnlessChanged } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { BotSessionItem, IntegrationItem } from "./schema.ts";

/** One integration of the company (strongly consistent), or `undefined`. */
export async function getIntegration(companyId: number, id: number): Promise<IntegrationItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.integration(companyId, id), ConsistentRead: true }));
  return out.Item ? parseStored(IntegrationItem, out.Item) : undefined;
}

/** Every integration of the company, in id order. */
export async function listIntegrations(companyId: number): Promise<IntegrationItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.integrationsPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(IntegrationItem, it));
}

const itemOf = (i: IntegrationItem) => ({ ...keys.integration(i.companyId, i.id), _type: "integration", ...i });
const sameAs = (before: IntegrationItem) => ({ ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } });

/** Writes a new integration (its id must be fresh). */
export async function putNewIntegration(item: IntegrationItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: itemOf(item), ConditionExpression: "attribute_not_exists(PK)" }));
}

/** Replaces an integration with `after`; false when it changed (or vanished) since `before` was read. */
export async function replaceIntegration(before: IntegrationItem, after: IntegrationItem): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new PutCommand({ TableName: tableName(), Item: itemOf(after), ...sameAs(before) })));
}

/** Deletes an integration as read; false when it changed or was already gone. */
export async function deleteIntegrationItem(before: IntegrationItem): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.integration(before.companyId, before.id), ...sameAs(before) })));
}

/** The ticket's bot session, or `undefined`. */
export async function getBotSession(companyId: number, ticketId: number): Promise<BotSessionItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.botSession(companyId, ticketId), ConsistentRead: true }));
  return out.Item ? parseStored(BotSessionItem, out.Item) : undefined;
}

/** Writes (or replaces) the ticket's bot session. */
export async function putBotSession(s: BotSessionItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.botSession(s.companyId, s.ticketId), _type: "botSession", ...s } }));
}

/** Deletes the ticket's bot session; with `lastAt`, only when it was not used since (false otherwise). */
export async function deleteBotSession(companyId: number, ticketId: number, lastAt?: string): Promise<boolean> {
  if (!lastAt) {
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.botSession(companyId, ticketId) }));
    return true;
  }
  return appliedUnlessChanged(() =>
    ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.botSession(companyId, ticketId), ConditionExpression: "lastAt = :at", ExpressionAttributeValues: { ":at": lastAt } })),
  );
}
