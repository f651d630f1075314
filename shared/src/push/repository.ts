/**
 * Push subscriptions in DynamoDB (docs/product/push.md#storage): one item per user and device in the company
 * partition (`keys.pushSubscription`, read by prefix: the company's or one user's), also in the platform index
 * (`keys.pushPlatformIndex`, GSI1 `PUSHSUBS#<shard>`) that a new announcement reads with one Query per shard. The
 * company partition holds them, so deleting a company (`companies/purge.ts`, its partition phase) removes them too.
 */
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetRaw } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { parseStored } from "../db/items.ts";
import { keys, PUSH_PLATFORM_SHARDS } from "../db/keys.ts";
import { queryAllByPrefix, queryPages } from "../db/query.ts";
import { UserItem } from "../users/schema.ts";
import { PushSubscriptionItem } from "./schema.ts";

/** Writes (or replaces) a device's subscription. */
export async function putSubscription(s: PushSubscriptionItem): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.pushSubscription(s.companyId, s.userId, s.hash), ...keys.pushPlatformIndex(s.companyId, s.userId, s.hash), _type: "pushSubscription", ...s },
    }),
  );
}

/** One device's subscription, or undefined. */
export async function getSubscription(companyId: number, userId: number, hash: string): Promise<PushSubscriptionItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.pushSubscription(companyId, userId, hash), ConsistentRead: true }));
  return out.Item ? parseStored(PushSubscriptionItem, out.Item) : undefined;
}

/** Deletes a device's subscription; true when there was one. */
export async function deleteSubscription(companyId: number, userId: number, hash: string): Promise<boolean> {
  const out = await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.pushSubscription(companyId, userId, hash), ReturnValues: "ALL_OLD" }));
  return !!out.Attributes;
}

/** Every subscription of one user (oldest device first is not guaranteed: key order). */
export async function listUserSubscriptions(companyId: number, userId: number): Promise<PushSubscriptionItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.pushUserPrefix(userId), { ConsistentRead: true });
  return raw.map((it) => parseStored(PushSubscriptionItem, it));
}

/** Every subscription of the company's users. */
export async function listCompanySubscriptions(companyId: number): Promise<PushSubscriptionItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.pushSubscriptionPrefix);
  return raw.map((it) => parseStored(PushSubscriptionItem, it));
}

/** Every subscription of every company: one Query per shard of the platform index. */
export async function listPlatformSubscriptions(): Promise<PushSubscriptionItem[]> {
  const shards = await Promise.all(
    Array.from({ length: PUSH_PLATFORM_SHARDS }, async (_, shard) => {
      const out: PushSubscriptionItem[] = [];
      const pages = queryPages({ IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": keys.pushPlatformPK(shard) } });
      for await (const items of pages) for (const it of items) out.push(parseStored(PushSubscriptionItem, it));
      return out;
    }),
  );
  return shards.flat();
}

/** The users of a company named by `userIds` (eventually consistent; missing ones are absent). */
export async function getUsers(companyId: number, userIds: number[]): Promise<Map<number, UserItem>> {
  const raw = await batchGetRaw(userIds.map((id) => keys.user(companyId, id)));
  const out = new Map<number, UserItem>();
  for (const it of raw.values()) {
    const u = parseStored(UserItem, it);
    out.set(u.id, u);
  }
  return out;
}
