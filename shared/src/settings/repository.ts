/**
 * DynamoDB access for company settings: one item per key at `C#<cid>` / `SET#<key>`; a key without an
 * item has its default from {@link SETTING_DEFAULTS}. Items are parsed with {@link SettingItem} on read.
 */
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { VisibilitySettings } from "../access/tickets.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { GLOBAL_SETTINGS, type PublicSettingKey, SETTING_DEFAULTS, SettingItem, type SettingKey } from "./schema.ts";

/** Every setting of a company, defaults filled in for keys without an item. */
export type SettingsMap = Record<SettingKey, string>;

/** Every setting of the company as a map (one Query of the `SET#` items), defaults filled in. */
export async function readSettings(companyId: number): Promise<SettingsMap> {
  const map: SettingsMap = { ...SETTING_DEFAULTS };
  for (const it of await queryAllByPrefix(keys.companyPartition(companyId), keys.prefix.setting)) {
    const parsed = SettingItem.safeParse(it);
    if (parsed.success) map[parsed.data.key] = parsed.data.value;
  }
  return map;
}

/** One setting value of the company (one GetItem), its default when unset or unreadable. */
export async function readSetting(companyId: number, key: SettingKey): Promise<string> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.setting(companyId, key) }));
  const parsed = SettingItem.safeParse(out.Item);
  return parsed.success ? parsed.data.value : SETTING_DEFAULTS[key];
}

/** True when the company's setting `key` is `enabled` (e.g. `sendGreetingAccepted`). */
export async function settingEnabled(companyId: number, key: SettingKey): Promise<boolean> {
  return (await readSetting(companyId, key)) === "enabled";
}

/**
 * The settings the ticket visibility rule reads (`canSee` in `access/tickets.ts`): `viewclosed` and `viewgroups`
 * (closed and group tickets of others depend on them unless admin; docs/product/tickets.md#who-sees-a-ticket). One Query.
 */
export async function visibilitySettings(companyId: number): Promise<Required<VisibilitySettings>> {
  const map = await readSettings(companyId);
  return { viewclosed: map.viewclosed, viewgroups: map.viewgroups };
}

/** The platform-wide settings (`GLOBAL_SETTINGS`; one Query of the small `SETTINGS` partition), defaults filled in. */
export async function readGlobalSettings(): Promise<Record<PublicSettingKey, string>> {
  const map = Object.fromEntries(GLOBAL_SETTINGS.map((k) => [k, SETTING_DEFAULTS[k]])) as Record<PublicSettingKey, string>;
  for (const it of await queryAllByPrefix(keys.globalSettingsPartition, keys.prefix.setting)) {
    const key = GLOBAL_SETTINGS.find((k) => k === it.key);
    if (key && typeof it.value === "string") map[key] = it.value;
  }
  return map;
}

/** One platform-wide setting (one GetItem), its default when unset. */
export async function readGlobalSetting(key: PublicSettingKey): Promise<string> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.globalSetting(key) }));
  return typeof out.Item?.value === "string" ? out.Item.value : SETTING_DEFAULTS[key];
}

/** Stores one platform-wide setting (last write wins); `by` is the super user's company, kept for the record. */
export async function putGlobalSetting(key: PublicSettingKey, value: string, by: { companyId: number }): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.globalSetting(key), _type: "globalSetting", key, value, updatedByCompanyId: by.companyId, updatedAt: new Date().toISOString() } }),
  );
}

/** Stores one setting value (unconditional: the last write wins). */
export async function putSetting(item: SettingItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.setting(item.companyId, item.key), _type: "setting", ...item } }));
}

/**
 * The transact-write Puts that store every default setting of a new company (`overrides` replace defaults),
 * each conditional on the key being absent.
 */
export function defaultSettingItems(companyId: number, overrides: Partial<SettingsMap> = {}) {
  const now = new Date().toISOString();
  return (Object.keys(SETTING_DEFAULTS) as SettingKey[]).map((key) => ({
    Put: {
      TableName: tableName(),
      Item: { ...keys.setting(companyId, key), _type: "setting", key, value: overrides[key] ?? SETTING_DEFAULTS[key], companyId, updatedAt: now },
      ConditionExpression: "attribute_not_exists(PK)",
    },
  }));
}
