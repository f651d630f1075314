/**
 * Help videos in DynamoDB: global items `HELPS` / `HELP#<id>` (`keys.help`), read together with one prefix Query (the
 * platform holds a small set of them). Changes and deletes are conditioned on the item existing, so a help deleted
 * meanwhile is never written back.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { setFields } from "../db/update.ts";
import { HelpItem } from "./schema.ts";

/** Every help, in id order (strongly consistent). */
export async function listHelpItems(): Promise<HelpItem[]> {
  const { PK, SKPrefix } = keys.helpsPrefix();
  return (await queryAllByPrefix(PK, SKPrefix, { ConsistentRead: true })).map((it) => parseStored(HelpItem, it));
}

/** Writes a new help (its id must be fresh). */
export async function putNewHelp(item: HelpItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.help(item.id), _type: "help", ...item }, ConditionExpression: "attribute_not_exists(PK)" }));
}

/** Sets the given fields (and `updatedAt`) of a help; answers it as stored after, or `undefined` when it is gone. */
export async function updateHelpItem(id: number, fields: Partial<Pick<HelpItem, "title" | "description" | "video">>, now: string): Promise<HelpItem | undefined> {
  try {
    const out = await ddb().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.help(id), ...setFields(fields, now), ConditionExpression: "attribute_exists(PK)", ReturnValues: "ALL_NEW" }),
    );
    return parseStored(HelpItem, out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}

/** Deletes a help; false when it was already gone. */
export async function deleteHelpItem(id: number): Promise<boolean> {
  const out = await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.help(id), ReturnValues: "ALL_OLD" }));
  return !!out.Attributes;
}
