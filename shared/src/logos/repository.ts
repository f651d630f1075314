/** DynamoDB access for the platform's logos: `SETTINGS` / `LOGO#<ref>` items, parsed with {@link LogoItem}. */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { LogoItem } from "./schema.ts";

/** Every stored logo (one Query of the small platform settings partition). */
export async function listLogoItems(): Promise<LogoItem[]> {
  return (await queryAllByPrefix(keys.globalSettingsPartition, keys.logoPrefix, { ConsistentRead: true })).map((it) => parseStored(LogoItem, it));
}

/** Stores (replaces) the logo of one destination. */
export async function putLogoItem(item: LogoItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.logo(item.ref), _type: "logo", ...item } }));
}
