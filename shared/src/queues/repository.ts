/**
 * DynamoDB access for queues (docs/architecture.md#3-the-table): `C#<cid>` / `QUEUE#<id>` items plus two per-company uniqueness markers,
 * `C#<cid>` / `QCOLOR#<color>` and `C#<cid>` / `QNAME#<name>` (lower case), written in the same transaction as the
 * queue so two queues never share a colour or a name.
 */
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { countQuery, queryAllByPrefix } from "../db/query.ts";
import { failedConditionAt } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import "./errors.ts";
import { QueueItem } from "./schema.ts";
import { parseStored } from "../db/items.ts";

const sameColor = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const sameName = sameColor;

/** Reads one queue of the company, or `undefined`. */
export async function getQueue(companyId: number, queueId: number): Promise<QueueItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.queue(companyId, queueId), ConsistentRead: true }));
  return out.Item ? parseStored(QueueItem, out.Item) : undefined;
}

/** Every queue of the company, in id order (a bounded entity in the company partition). */
export async function listQueues(companyId: number): Promise<QueueItem[]> {
  return (await queryAllByPrefix(keys.companyPartition(companyId), keys.prefix.queue)).map((it) => parseStored(QueueItem, it));
}

/** How many queues the company has (a strongly consistent COUNT of its `QUEUE#` items: the plan's first count). */
export function countQueues(companyId: number): Promise<number> {
  return countQuery({
    KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
    ExpressionAttributeValues: { ":pk": keys.companyPartition(companyId), ":sk": keys.prefix.queue },
    ConsistentRead: true,
  });
}

const markerPut = (key: { PK: string; SK: string }, type: string, queueId: number) => ({
  Put: { TableName: tableName(), Item: { ...key, _type: type, queueId }, ConditionExpression: "attribute_not_exists(PK)" },
});
const colorMarkerPut = (q: QueueItem) => markerPut(keys.queueColor(q.companyId, q.color), "queueColor", q.id);
const nameMarkerPut = (q: QueueItem) => markerPut(keys.queueName(q.companyId, q.name), "queueName", q.id);

/**
 * Creates the queue and its colour and name markers in one transaction; colour taken → 409
 * `ERR_QUEUE_COLOR_ALREADY_EXISTS`, name taken → 409 `ERR_QUEUE_NAME_ALREADY_EXISTS`.
 */
export async function putNewQueue(q: QueueItem, extra: TxItem[] = []): Promise<void> {
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: { ...keys.queue(q.companyId, q.id), _type: "queue", ...q }, ConditionExpression: "attribute_not_exists(PK)" } },
          colorMarkerPut(q),
          nameMarkerPut(q),
          ...extra,
        ],
      }),
    );
  } catch (err) {
    if (failedConditionAt(err, 2)) throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS");
    if (failedConditionAt(err, 1)) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    throw err;
  }
}

/**
 * Replaces a queue item (it must still exist). A colour or name change moves its marker in the same transaction;
 * colour taken → 409 `ERR_QUEUE_COLOR_ALREADY_EXISTS`, name taken → 409 `ERR_QUEUE_NAME_ALREADY_EXISTS`.
 * A queue created before name markers existed gets its marker on its first save. `extra`: more items of the same
 * transaction, last (the pending runs of its `queue.updated`, `events/durable.ts`).
 */
export async function replaceQueue(before: QueueItem, after: QueueItem, extra: TxItem[] = []): Promise<void> {
  const items: TxItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.queue(after.companyId, after.id), _type: "queue", ...after },
        ConditionExpression: "attribute_exists(PK)",
      },
    },
  ];
  let colorAt = -1;
  let nameAt = -1;
  if (!sameColor(before.color, after.color)) {
    colorAt = items.length;
    items.push(colorMarkerPut(after), { Delete: { TableName: tableName(), Key: keys.queueColor(before.companyId, before.color) } });
  }
  if (!sameName(before.name, after.name)) {
    nameAt = items.length;
    items.push(nameMarkerPut(after), { Delete: { TableName: tableName(), Key: keys.queueName(before.companyId, before.name) } });
  } else {
    // Same name: (re)claim the marker for this queue; another queue holding it means a duplicate from before.
    nameAt = items.length;
    items.push({
      Put: {
        TableName: tableName(),
        Item: { ...keys.queueName(after.companyId, after.name), _type: "queueName", queueId: after.id },
        ConditionExpression: "attribute_not_exists(PK) OR queueId = :qid",
        ExpressionAttributeValues: { ":qid": after.id },
      },
    });
  }
  items.push(...extra);
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    if (failedConditionAt(err, 0)) throw new AppError("ERR_NO_QUEUE_FOUND");
    if (colorAt >= 0 && failedConditionAt(err, colorAt)) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    if (nameAt >= 0 && failedConditionAt(err, nameAt)) throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS");
    throw err;
  }
}

/** Deletes the queue and its markers in one transaction (already gone → 404 `ERR_NO_QUEUE_FOUND`). */
export async function deleteQueueItems(q: QueueItem, extra: TxItem[] = []): Promise<void> {
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName(), Key: keys.queue(q.companyId, q.id), ConditionExpression: "attribute_exists(PK)" } },
          { Delete: { TableName: tableName(), Key: keys.queueColor(q.companyId, q.color) } },
          {
            Delete: {
              TableName: tableName(),
              Key: keys.queueName(q.companyId, q.name),
              ConditionExpression: "attribute_not_exists(PK) OR queueId = :qid",
              ExpressionAttributeValues: { ":qid": q.id },
            },
          },
          ...extra,
        ],
      }),
    );
  } catch (err) {
    if (failedConditionAt(err, 0)) throw new AppError("ERR_NO_QUEUE_FOUND");
    throw err;
  }
}

/** Reads one queue of the company or throws 404 `ERR_NO_QUEUE_FOUND`. */
export async function requireQueue(companyId: number, queueId: number): Promise<QueueItem> {
  const q = await getQueue(companyId, queueId);
  if (!q) throw new AppError("ERR_NO_QUEUE_FOUND");
  return q;
}
