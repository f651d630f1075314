/** File lists in DynamoDB: `C#<cid>` / `FILES#<id>` (`keys.fileList`), writes conditioned on the `updatedAt` read. */
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { appliedUnlessChanged } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { FileListRow } from "./schema.ts";

/** One file list of the company (strongly consistent), or undefined. */
export async function getFileList(companyId: number, id: number): Promise<FileListRow | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.fileList(companyId, id), ConsistentRead: true }));
  return out.Item ? parseStored(FileListRow, out.Item) : undefined;
}

/** Every file list of the company, in id order. */
export async function listFileLists(companyId: number): Promise<FileListRow[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.fileListPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(FileListRow, it));
}

const record = (row: FileListRow) => ({ ...keys.fileList(row.companyId, row.id), _type: "fileList", ...row });
const sameAs = (before: FileListRow) => ({ ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } });

/** Writes a new file list (its id must be fresh). */
export async function putNewFileList(row: FileListRow): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: record(row), ConditionExpression: "attribute_not_exists(PK)" }));
}

/** Replaces a file list with `after`; false when it changed (or vanished) since `before` was read. */
export async function replaceFileList(before: FileListRow, after: FileListRow): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new PutCommand({ TableName: tableName(), Item: record(after), ...sameAs(before) })));
}

/** Deletes a file list as read; false when it changed or was already gone. */
export async function deleteFileListRow(before: FileListRow): Promise<boolean> {
  return appliedUnlessChanged(() => ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.fileList(before.companyId, before.id), ...sameAs(before) })));
}
