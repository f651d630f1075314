/**
 * Connections repository (`C#<cid>` / `WACONN#<id>`, GSI1 `WASHARD#<n>`; token marker `WATOKEN#<token>`).
 * Every DynamoDB access of the connection entity lives here; items are parsed with {@link WhatsappItem} on read.
 * Multi-item writes (default flag moves, token marker) are single `TransactWriteItems`.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { ddb, tableName } from "../db/client.ts";
import { queryAll, queryAllByPrefix } from "../db/query.ts";
import { failedConditionAt, isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { WhatsappItem, type SessionStatePatch } from "./schema.ts";

type TxItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

const WACONN_PREFIX = keys.prefix.whatsapp;

function parse(raw: Record<string, unknown> | undefined): WhatsappItem | null {
  return raw ? WhatsappItem.parse(raw) : null;
}

/** Reads one connection of a company (strongly consistent); null when absent. */
export async function getWhatsappItem(companyId: number, whatsappId: number): Promise<WhatsappItem | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.whatsapp(companyId, whatsappId), ConsistentRead: true }));
  return parse(out.Item);
}

/** Every connection of a company, ordered by id (the partition holds a bounded number of them). */
export async function listWhatsappItems(companyId: number): Promise<WhatsappItem[]> {
  return (await queryAllByPrefix(keys.companyPartition(companyId), WACONN_PREFIX, { ConsistentRead: true })).map((it) => WhatsappItem.parse(it));
}

/** Every connection (of any company) hashed to session shard `shard` (GSI1 `WASHARD#<n>`), for the session runner. */
export async function listShardWhatsappItems(shard: number): Promise<WhatsappItem[]> {
  const items = await queryAll({
    IndexName: "GSI1",
    KeyConditionExpression: "GSI1PK = :pk",
    ExpressionAttributeValues: { ":pk": keys.whatsappShardIndex(shard, 0, 0).GSI1PK },
  });
  return items.map((it) => WhatsappItem.parse(it));
}

const QueueRef = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
export type QueueRef = z.infer<typeof QueueRef>;

/** The company's queues as `{id, name, color}` (for validating `queueIds` and showing `queues`). */
export async function listQueueRefs(companyId: number): Promise<QueueRef[]> {
  const items = await queryAll({
    KeyConditionExpression: "PK = :pk AND begins_with(SK, :p)",
    ExpressionAttributeValues: { ":pk": keys.companyPartition(companyId), ":p": keys.prefix.queue },
    ProjectionExpression: "id, #n, color",
    ExpressionAttributeNames: { "#n": "name" },
  });
  return items.flatMap((it) => {
    const q = QueueRef.safeParse(it);
    return q.success ? [q.data] : [];
  });
}

/** The connection a public API token belongs to, or null. */
export async function getWhatsappByToken(token: string): Promise<{ companyId: number; whatsappId: number } | null> {
  if (!token) return null;
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.whatsappToken(token) }));
  const it = out.Item;
  return it ? { companyId: Number(it.companyId), whatsappId: Number(it.whatsappId) } : null;
}

function tokenPut(item: WhatsappItem): TxItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.whatsappToken(item.token), _type: "whatsappToken", companyId: item.companyId, whatsappId: item.id },
      ConditionExpression: "attribute_not_exists(PK)",
    },
  };
}
function tokenDelete(companyId: number, whatsappId: number, token: string): TxItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: keys.whatsappToken(token),
      ConditionExpression: "attribute_not_exists(PK) OR (companyId = :c AND whatsappId = :w)",
      ExpressionAttributeValues: { ":c": companyId, ":w": whatsappId },
    },
  };
}
function unsetDefault(companyId: number, whatsappId: number, now: string): TxItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.whatsapp(companyId, whatsappId),
      UpdateExpression: "SET isDefault = :f, updatedAt = :now",
      ConditionExpression: "attribute_exists(PK)",
      ExpressionAttributeValues: { ":f": false, ":now": now },
    },
  };
}

function storedItem(item: WhatsappItem) {
  return { ...keys.whatsapp(item.companyId, item.id), ...keys.whatsappShardIndex(item.shard, item.companyId, item.id), _type: "whatsapp", ...item };
}

/**
 * Writes a new connection, its token marker (when `token` is set) and, when `unsetDefaultId` is given, clears that
 * connection's default flag, in one transaction. Throws `ERR_CONFLICT` (409) when the token is already taken.
 */
export async function insertWhatsappItem(item: WhatsappItem, unsetDefaultId: number | null): Promise<void> {
  const tx: TxItem[] = [{ Put: { TableName: tableName(), Item: storedItem(item), ConditionExpression: "attribute_not_exists(PK)" } }];
  if (item.token) tx.push(tokenPut(item));
  if (unsetDefaultId != null) tx.push(unsetDefault(item.companyId, unsetDefaultId, item.updatedAt));
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: tx }));
  } catch (err) {
    if (item.token && failedConditionAt(err, 1)) throw new AppError("ERR_CONFLICT", 409, { field: "token" });
    throw err;
  }
}

/**
 * Replaces a connection item with `next` (same id), guarded by its previous `updatedAt` (optimistic concurrency),
 * moving the token marker when the token changed and clearing `unsetDefaultId`'s default flag, in one transaction.
 * Throws `ERR_CONFLICT` (409) when the token is taken or the item changed meanwhile.
 */
export async function replaceWhatsappItem(prev: WhatsappItem, next: WhatsappItem, unsetDefaultId: number | null): Promise<void> {
  const tx: TxItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: storedItem(next),
        ConditionExpression: "attribute_exists(PK) AND updatedAt = :prev",
        ExpressionAttributeValues: { ":prev": prev.updatedAt },
      },
    },
  ];
  let tokenIndex = -1;
  if (prev.token !== next.token) {
    if (prev.token) tx.push(tokenDelete(prev.companyId, prev.id, prev.token));
    if (next.token) {
      tokenIndex = tx.length;
      tx.push(tokenPut(next));
    }
  }
  if (unsetDefaultId != null) tx.push(unsetDefault(next.companyId, unsetDefaultId, next.updatedAt));
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: tx }));
  } catch (err) {
    if (tokenIndex >= 0 && failedConditionAt(err, tokenIndex)) throw new AppError("ERR_CONFLICT", 409, { field: "token" });
    if (failedConditionAt(err, 0)) throw new AppError("ERR_CONFLICT", 409);
    throw err;
  }
}

/** Deletes a connection and its token marker. Returns false when it did not exist. */
export async function deleteWhatsappItem(item: WhatsappItem): Promise<boolean> {
  const tx: TxItem[] = [{ Delete: { TableName: tableName(), Key: keys.whatsapp(item.companyId, item.id), ConditionExpression: "attribute_exists(PK)" } }];
  if (item.token) tx.push(tokenDelete(item.companyId, item.id, item.token));
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: tx }));
    return true;
  } catch (err) {
    if (failedConditionAt(err, 0)) return false;
    throw err;
  }
}

/**
 * Sets the session fields of a connection (status, qrcode, retries, number) and `updatedAt`; returns the new item,
 * or null when the connection no longer exists (deleted while its session was alive).
 */
export async function patchSessionFields(companyId: number, whatsappId: number, patch: SessionStatePatch, now: string): Promise<WhatsappItem | null> {
  const names: Record<string, string> = { "#u": "updatedAt" };
  const values: Record<string, unknown> = { ":now": now };
  const sets = ["#u = :now"];
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.whatsapp(companyId, whatsappId),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: "ALL_NEW",
      }),
    );
    return parse(out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}
