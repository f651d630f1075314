/**
 * DynamoDB access for queue options. Items live in the company partition (`C#<cid>` /
 * `QOPT#<queueId>#<optionId>`), so one Query reads a queue's whole tree; a ref item (`QOPTID#<optionId>`, holding
 * `queueId`) finds an option by id alone. Both are written and deleted together.
 */
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../db/client.ts";
import { queryAllByPrefix } from "../../db/query.ts";
import { keys } from "../../db/keys.ts";
import { QueueOptionItem } from "./schema.ts";

/** Every option of a queue (flat, sort-key order = id order). Build the tree with `buildOptionTree`. */
export async function listQueueOptions(companyId: number, queueId: number): Promise<QueueOptionItem[]> {
  const items = await queryAllByPrefix(keys.companyPartition(companyId), keys.queueOptionsPrefix(queueId));
  return items.map((it) => QueueOptionItem.parse(it));
}

/** One option of the company by id, or undefined. */
export async function getQueueOption(companyId: number, optionId: number): Promise<QueueOptionItem | undefined> {
  const ref = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.queueOptionRef(companyId, optionId), ConsistentRead: true }));
  if (!ref.Item) return undefined;
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.queueOption(companyId, Number(ref.Item.queueId), optionId), ConsistentRead: true }));
  return out.Item ? QueueOptionItem.parse(out.Item) : undefined;
}

/** Writes (creates or replaces) an option and its ref item in one transaction. */
export async function putQueueOption(o: QueueOptionItem): Promise<void> {
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: { ...keys.queueOption(o.companyId, o.queueId, o.id), _type: "queueOption", ...o } } },
        { Put: { TableName: tableName(), Item: { ...keys.queueOptionRef(o.companyId, o.id), _type: "queueOptionRef", queueId: o.queueId } } },
      ],
    }),
  );
}

/** Deletes the given options and their ref items (the caller passes the whole subtree), 50 options per transaction. */
export async function deleteQueueOptions(options: Pick<QueueOptionItem, "companyId" | "queueId" | "id">[]): Promise<void> {
  for (let i = 0; i < options.length; i += 50) {
    const chunk = options.slice(i, i + 50);
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: chunk.flatMap((o) => [
          { Delete: { TableName: tableName(), Key: keys.queueOption(o.companyId, o.queueId, o.id) } },
          { Delete: { TableName: tableName(), Key: keys.queueOptionRef(o.companyId, o.id) } },
        ]),
      }),
    );
  }
}
