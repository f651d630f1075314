/**
 * Announcements in DynamoDB (docs/product/announcements.md): one platform partition `ANNOUNCEMENTS` / `ANN#<id>`
 * (`keys.announcement`), read whole with one consistent Query (a small set: a few dozen notices). Writes after the
 * first are conditioned on the `updatedAt` they were computed from (a concurrent edit gets 409).
 */
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { appliedUnlessChanged } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { AnnouncementItem } from "./schema.ts";

/** One announcement (strongly consistent), or `undefined`. */
export async function getAnnouncement(id: number): Promise<AnnouncementItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.announcement(id), ConsistentRead: true }));
  return out.Item ? parseStored(AnnouncementItem, out.Item) : undefined;
}

/** Every announcement, in id order. */
export async function listAnnouncementItems(): Promise<AnnouncementItem[]> {
  const raw = await queryAllByPrefix(keys.announcementsPK, keys.announcementPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(AnnouncementItem, it));
}

/** Writes a new announcement (its id must be fresh). */
export async function putNewAnnouncement(item: AnnouncementItem): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.announcement(item.id), _type: "announcement", ...item }, ConditionExpression: "attribute_not_exists(PK)" }),
  );
}

/** Replaces an announcement with `after`; false when it changed (or vanished) since `before` was read. */
export async function replaceAnnouncement(before: AnnouncementItem, after: AnnouncementItem): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.announcement(after.id), _type: "announcement", ...after }, ...sameAs(before) })));
}

/** Deletes an announcement as read; false when it changed or was already gone. */
export async function deleteAnnouncementItem(before: AnnouncementItem): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.announcement(before.id), ...sameAs(before) })));
}

const sameAs = (before: AnnouncementItem) => ({ ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } });

