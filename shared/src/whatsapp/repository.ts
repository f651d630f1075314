/**
 * Connections repository (`C#<cid>` / `WACONN#<id>`, GSI1 `WASHARD#<n>`; token lookup `WATOKEN#<sha256 of the token>`).
 * Every DynamoDB access of the connection entity lives here; items are parsed with {@link WhatsappItem} on read.
 * Multi-item writes (default flag moves, token lookup item) are single `TransactWriteItems`.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { ddb, tableName } from "../db/client.ts";
import { queryAll, queryAllByPrefix } from "../db/query.ts";
import { failedConditionAt, isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { WhatsappItem, type SessionStatePatch } from "./schema.ts";
import { parseStored } from "../db/items.ts";

type TxItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

const WACONN_PREFIX = keys.prefix.whatsapp;

function parse(raw: Record<string, unknown> | undefined): WhatsappItem | null {
  return raw ? parseStored(WhatsappItem, raw) : null;
}

/** Reads one connection of a company (strongly consistent); null when absent. */
export async function getWhatsappItem(companyId: number, whatsappId: number): Promise<WhatsappItem | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.whatsapp(companyId, whatsappId), ConsistentRead: true }));
  return parse(out.Item);
}

/** Every connection of a company, ordered by id (the partition holds a bounded number of them). */
export async function listWhatsappItems(companyId: number): Promise<WhatsappItem[]> {
  return (await queryAllByPrefix(keys.companyPartition(companyId), WACONN_PREFIX, { ConsistentRead: true })).map((it) => parseStored(WhatsappItem, it));
}

/** Every connection (of any company) hashed to session shard `shard` (GSI1 `WASHARD#<n>`), for the session runner. */
export async function listShardWhatsappItems(shard: number): Promise<WhatsappItem[]> {
  const items = await queryAll({
    IndexName: "GSI1",
    KeyConditionExpression: "GSI1PK = :pk",
    ExpressionAttributeValues: { ":pk": keys.whatsappShardIndex(shard, 0, 0).GSI1PK },
  });
  return items.map((it) => parseStored(WhatsappItem, it));
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

/** The connection whose API token has hash `tokenHash` (`./token.ts`), or null. */
export async function getWhatsappByTokenHash(tokenHash: string): Promise<{ companyId: number; whatsappId: number } | null> {
  if (!tokenHash) return null;
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.whatsappToken(tokenHash) }));
  const it = out.Item;
  return it ? { companyId: Number(it.companyId), whatsappId: Number(it.whatsappId) } : null;
}

function tokenPut(item: WhatsappItem): TxItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.whatsappToken(item.tokenHash), _type: "whatsappToken", companyId: item.companyId, whatsappId: item.id },
      ConditionExpression: "attribute_not_exists(PK)",
    },
  };
}
function tokenDelete(companyId: number, whatsappId: number, tokenHash: string): TxItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: keys.whatsappToken(tokenHash),
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
 * Writes a new connection, its token lookup item (when it has a token) and, when `unsetDefaultId` is given, clears that
 * connection's default flag, in one transaction; `extra`: more items of the same transaction (the pending runs of the
 * events it reports, `events/durable.ts`).
 */
export async function insertWhatsappItem(item: WhatsappItem, unsetDefaultId: number | null, extra: TxItem[] = []): Promise<void> {
  const tx: TxItem[] = [{ Put: { TableName: tableName(), Item: storedItem(item), ConditionExpression: "attribute_not_exists(PK)" } }];
  if (item.tokenHash) tx.push(tokenPut(item));
  if (unsetDefaultId != null) tx.push(unsetDefault(item.companyId, unsetDefaultId, item.updatedAt));
  tx.push(...extra);
  await ddb().send(new TransactWriteCommand({ TransactItems: tx }));
}

/**
 * Replaces a connection item with `next` (same id), guarded by its previous `updatedAt` (optimistic concurrency),
 * moving the token lookup item when the token changed and clearing `unsetDefaultId`'s default flag, in one
 * transaction, with `extra` (the pending runs of the events it reports, `events/durable.ts`). Throws `ERR_CONFLICT`
 * (409) when the item changed meanwhile.
 */
export async function replaceWhatsappItem(prev: WhatsappItem, next: WhatsappItem, unsetDefaultId: number | null, extra: TxItem[] = []): Promise<void> {
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
  if (prev.tokenHash !== next.tokenHash) {
    if (prev.tokenHash) tx.push(tokenDelete(prev.companyId, prev.id, prev.tokenHash));
    if (next.tokenHash) tx.push(tokenPut(next));
  }
  if (unsetDefaultId != null) tx.push(unsetDefault(next.companyId, unsetDefaultId, next.updatedAt));
  tx.push(...extra);
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: tx }));
  } catch (err) {
    if (failedConditionAt(err, 0)) throw new AppError("ERR_CONFLICT");
    throw err;
  }
}

/** Deletes a connection and its token marker. Returns false when it did not exist. */
export async function deleteWhatsappItem(item: WhatsappItem, extra: TxItem[] = []): Promise<boolean> {
  const tx: TxItem[] = [{ Delete: { TableName: tableName(), Key: keys.whatsapp(item.companyId, item.id), ConditionExpression: "attribute_exists(PK)" } }];
  if (item.tokenHash) tx.push(tokenDelete(item.companyId, item.id, item.tokenHash));
  tx.push(...extra);
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: tx }));
    return true;
  } catch (err) {
    if (failedConditionAt(err, 0)) return false;
    throw err;
  }
}

/**
 * Sets the session fields of connection `prev` (status, qrcode, retries, number) and `updatedAt` = `now`, conditioned
 * on the `updatedAt` it was read with, in one transaction with `extra` (the pending runs of the `whatsapp.session` it
 * reports, `events/durable.ts`). Throws `ERR_CONFLICT` (409) when the connection changed or was deleted meanwhile.
 */
export async function patchSessionFields(prev: WhatsappItem, patch: SessionStatePatch, now: string, extra: TxItem[] = []): Promise<void> {
  const names: Record<string, string> = { "#u": "updatedAt" };
  const values: Record<string, unknown> = { ":now": now, ":prev": prev.updatedAt };
  const sets = ["#u = :now"];
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  const update = {
    TableName: tableName(),
    Key: keys.whatsapp(prev.companyId, prev.id),
    UpdateExpression: `SET ${sets.join(", ")}`,
    ConditionExpression: "attribute_exists(PK) AND #u = :prev",
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  try {
    await (extra.length ? ddb().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...extra] })) : ddb().send(new UpdateCommand(update)));
  } catch (err) {
    if (failedConditionAt(err, 0) || isConditionFailed(err)) throw new AppError("ERR_CONFLICT");
    throw err;
  }
}
