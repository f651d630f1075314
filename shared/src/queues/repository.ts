/**
 * DynamoDB access for queues (DESIGN.md §6): `C#<cid>` / `QUEUE#<id>` items plus the per-company colour marker
 * `C#<cid>` / `QCOLOR#<color>`, written in the same transaction as the queue so two queues never share a colour.
 */
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { failedConditionAt } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { QueueItem } from "./schema.ts";

const sameColor = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Reads one queue of the company, or `undefined`. */
export async function getQueue(companyId: number, queueId: number): Promise<QueueItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.queue(companyId, queueId), ConsistentRead: true }));
  return out.Item ? QueueItem.parse(out.Item) : undefined;
}

/** Every queue of the company, in id order (a bounded entity in the company partition). */
export async function listQueues(companyId: number): Promise<QueueItem[]> {
  return (await queryAllByPrefix(keys.companyPartition(companyId), keys.prefix.queue)).map((it) => QueueItem.parse(it));
}

const colorMarkerPut = (q: QueueItem) => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.queueColor(q.companyId, q.color), _type: "queueColor", queueId: q.id },
    ConditionExpression: "attribute_not_exists(PK)",
  },
});

/** Creates the queue and its colour marker in one transaction; colour taken → 409 `ERR_QUEUE_COLOR_ALREADY_EXISTS`. */
export async function putNewQueue(q: QueueItem): Promise<void> {
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: { ...keys.queue(q.companyId, q.id), _type: "queue", ...q }, ConditionExpression: "attribute_not_exists(PK)" } },
          colorMarkerPut(q),
        ],
      }),
    );
  } catch (err) {
    if (failedConditionAt(err, 1)) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS", 409);
    throw err;
  }
}

/**
 * Replaces a queue item (it must still exist and still have the colour it had when read). A colour change
 * moves the marker in the same transaction; colour taken → 409 `ERR_QUEUE_COLOR_ALREADY_EXISTS`.
 */
export async function replaceQueue(before: QueueItem, after: QueueItem): Promise<void> {
  const items: TxItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.queue(after.companyId, after.id), _type: "queue", ...after },
        ConditionExpression: "attribute_exists(PK)",
      },
    },
  ];
  const moved = !sameColor(before.color, after.color);
  if (moved) {
    items.push(colorMarkerPut(after), { Delete: { TableName: tableName(), Key: keys.queueColor(before.companyId, before.color) } });
  }
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    if (moved && failedConditionAt(err, 1)) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS", 409);
    if (failedConditionAt(err, 0)) throw new AppError("ERR_NO_QUEUE_FOUND", 404);
    throw err;
  }
}

/** Deletes the queue and its colour marker in one transaction (already gone → 404 `ERR_NO_QUEUE_FOUND`). */
export async function deleteQueueItems(q: QueueItem): Promise<void> {
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName(), Key: keys.queue(q.companyId, q.id), ConditionExpression: "attribute_exists(PK)" } },
          { Delete: { TableName: tableName(), Key: keys.queueColor(q.companyId, q.color) } },
        ],
      }),
    );
  } catch (err) {
    if (failedConditionAt(err, 0)) throw new AppError("ERR_NO_QUEUE_FOUND", 404);
    throw err;
  }
}

/** Reads one queue of the company or throws 404 `ERR_NO_QUEUE_FOUND`. */
export async function requireQueue(companyId: number, queueId: number): Promise<QueueItem> {
  const q = await getQueue(companyId, queueId);
  if (!q) throw new AppError("ERR_NO_QUEUE_FOUND", 404);
  return q;
}
