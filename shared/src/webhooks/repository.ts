/**
 * Company webhooks in DynamoDB: each webhook in the company partition (`keys.webhook`, a small set read with one
 * consistent prefix Query), its deliveries in a partition of their own (`keys.webhookDelivery`, sorted by the event's
 * time, newest first in the log, removed by the table's TTL on `expiresAt`). A delivery's key is derived from its
 * event, so writing it again (a re-run listener) names the same item.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { appliedUnlessChanged } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { DeliveryItem, WebhookItem } from "./schema.ts";

/** One webhook of the company (strongly consistent), or `undefined`. */
export async function getWebhook(companyId: number, id: number): Promise<WebhookItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.webhook(companyId, id), ConsistentRead: true }));
  return out.Item ? parseStored(WebhookItem, out.Item) : undefined;
}

/** Every webhook of the company, in id order. */
export async function listWebhooks(companyId: number): Promise<WebhookItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.webhookPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(WebhookItem, it));
}

/** Writes a new webhook (its id must be fresh). */
export async function putNewWebhook(item: WebhookItem): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.webhook(item.companyId, item.id), _type: "webhook", ...item }, ConditionExpression: "attribute_not_exists(PK)" }),
  );
}

const sameAs = (before: WebhookItem) => ({ ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } });

/** Replaces a webhook with `after`; false when it changed (or vanished) since `before` was read. */
export async function replaceWebhook(before: WebhookItem, after: WebhookItem): Promise<boolean> {
  return appliedUnlessChanged(() =>
    ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.webhook(after.companyId, after.id), _type: "webhook", ...after }, ...sameAs(before) })),
  );
}

/** Deletes a webhook as read; false when it changed or was already gone. Its deliveries expire with their TTL. */
export async function deleteWebhookItem(before: WebhookItem): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.webhook(before.companyId, before.id), ...sameAs(before) })));
}

/** The delivery of event `eventId` (at `at`) to webhook `webhookId`, or `undefined`. */
export async function getDelivery(companyId: number, webhookId: number, at: string, eventId: string): Promise<DeliveryItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.webhookDelivery(companyId, webhookId, at, eventId), ConsistentRead: true }));
  return out.Item ? parseStored(DeliveryItem, out.Item) : undefined;
}

/** Writes a new delivery; false when it already exists (the same event written again). */
export async function putNewDelivery(d: DeliveryItem): Promise<boolean> {
  return appliedUnlessChanged(() =>
    ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.webhookDelivery(d.companyId, d.webhookId, d.at, d.eventId), _type: "webhookDelivery", ...d },
        ConditionExpression: "attribute_not_exists(PK)",
      }),
    ),
  );
}

/**
 * Records one attempt's outcome: the fields of `patch`, on the condition that the delivery is still pending with the
 * `attempts` count it had when the attempt was claimed. False: another attempt recorded first.
 */
export async function recordAttempt(
  d: DeliveryItem,
  patch: Pick<DeliveryItem, "status" | "attempts" | "lastAttemptAt" | "nextAttemptAt" | "responseCode" | "lastError">,
): Promise<boolean> {
  const entries = Object.entries(patch);
  return appliedUnlessChanged(() =>
    ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookDelivery(d.companyId, d.webhookId, d.at, d.eventId),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(", ")}`,
        ConditionExpression: "#status = :pending AND attempts = :seen",
        ExpressionAttributeNames: { ...Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])), "#status": "status" },
        ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])), ":pending": "pending", ":seen": d.attempts },
      }),
    ),
  );
}

/** One page of a webhook's deliveries, newest first, from `start` (a previous page's key). */
export async function pageDeliveries(
  companyId: number,
  webhookId: number,
  limit: number,
  start?: Record<string, unknown>,
): Promise<{ items: DeliveryItem[]; lastKey?: Record<string, unknown> }> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :dlv)",
      ExpressionAttributeValues: { ":pk": keys.webhookDeliveriesPK(companyId, webhookId), ":dlv": keys.webhookDeliveryPrefix },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  return { items: (out.Items ?? []).map((it) => parseStored(DeliveryItem, it)), lastKey: out.LastEvaluatedKey };
}
