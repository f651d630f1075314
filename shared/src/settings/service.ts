/**
 * Company settings (docs/product/settings.md). One item per key at
 * `C#<cid>` / `SET#<key>`; a key without an item has its default from {@link SETTING_DEFAULTS}.
 *
 * - `GET /api/settings` returns `[{key, value}]` for every known key. Integration credentials (ipixc, tokenixc,
 *   ipmkauth, clientidmkauth, clientsecretmkauth, asaas) are listed to admins only, and never in clear: stored sealed
 *   (`./sealed.ts`, KMS in the cloud), answered as `SECRET_MASK` when set ("" when not), in lists, answers and frames.
 * - `PUT /api/settings/{key}` (admin): values are checked per key (enabled/disabled; scheduleType disabled, queue,
 *   company; chatBotType text; trial 1-7); super-only keys need the super flag (403). Publishes
 *   `company-{id}-settings` `{action: "update", setting: {key, value}}`.
 * - The global section's keys (`GLOBAL_SETTINGS`: allowregister, viewregister, trial) are platform-wide, not the
 *   company's: a super user's PUT stores them once for the whole platform, every company's list shows that value, and
 *   `GET /api/settings/{key}` answers them without a token (the login screen's "Cadastre-se!" link).
 */
import { can } from "../access/permissions.ts";
import { z } from "zod";
import type { AuthContext } from "../auth/tokens.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import "./events.ts";
import { putGlobalSetting, putSetting, readGlobalSetting, readGlobalSettings, readSetting, readSettings, type SettingsMap } from "./repository.ts";
import { GLOBAL_SETTINGS, type PublicSettingKey, SECRET_MASK, SECRET_SETTINGS, type SettingItem, SUPER_ONLY_SETTINGS, type SettingKey } from "./schema.ts";
import { openSetting, sealSetting } from "./sealed.ts";

export { defaultSettingItems, type SettingsMap } from "./repository.ts";

export { SECRET_SETTINGS };

const enabledDisabled = z.enum(["enabled", "disabled"]);
/** Allowed values per key (keys not listed take any string up to 2000 characters). */
const VALUE_RULES: Partial<Record<SettingKey, z.ZodType<string>>> = {
  userRating: enabledDisabled,
  call: enabledDisabled,
  CheckMsgIsGroup: enabledDisabled,
  allowregister: enabledDisabled,
  viewclosed: enabledDisabled,
  viewgroups: enabledDisabled,
  sendGreetingAccepted: enabledDisabled,
  sendMsgTransfTicket: enabledDisabled,
  viewregister: enabledDisabled,
  sendGreetingMessageOneQueues: enabledDisabled,
  scheduleType: z.enum(["disabled", "queue", "company"]),
  chatBotType: z.enum(["text"]),
  trial: z.enum(["1", "2", "3", "4", "5", "6", "7"]),
};

/** Every setting of the company as a map, defaults filled in for keys without an item. */
export const getCompanySettings = (companyId: number): Promise<SettingsMap> => readSettings(companyId);

/** One setting value of the company (its default when unset). */
export const getSetting = (companyId: number, key: SettingKey): Promise<string> => readSetting(companyId, key);

/** The `[{key, value}]` list a caller may see (credentials left out for non-admins). */
export function visibleSettings(map: SettingsMap, caller: Pick<AuthContext, "profile" | "super">): { key: SettingKey; value: string }[] {
  const admin = can(caller, "secrets:view");
  return (Object.keys(map) as SettingKey[]).filter((k) => admin || !SECRET_SETTINGS.includes(k)).map((key) => ({ key, value: shownValue(key, map[key]) }));
}

/** A setting's value as the API shows it: a credential only as {@link SECRET_MASK} when set. */
const shownValue = (key: SettingKey, value: string): string => (SECRET_SETTINGS.includes(key) ? (value ? SECRET_MASK : "") : value);

/** A credential setting of the company in clear (for the integration that uses it); "" when unset. @throws Error when unreadable. */
export async function readCredential(companyId: number, key: SettingKey): Promise<string> {
  return openSetting(await readSetting(companyId, key), { companyId, key });
}

/** `GET /api/settings`: the caller's company settings as `[{key, value}]`, the global section's keys from the platform. */
export async function listSettings(auth: AuthContext): Promise<{ key: SettingKey; value: string }[]> {
  const [company, global] = await Promise.all([getCompanySettings(auth.companyId), readGlobalSettings()]);
  return visibleSettings({ ...company, ...global }, auth);
}

/**
 * `GET /api/settings/{key}` (public; e.g. `GET /settings/allowregister` answers the value): the
 * platform-wide value of a global key (`allowregister`, `viewregister`, `trial`). No company is involved: the caller
 * is not logged in, and these keys belong to the platform, so no company's data can be read this way.
 */
export async function getPublicSetting(key: PublicSettingKey): Promise<{ key: PublicSettingKey; value: string }> {
  return { key, value: await readGlobalSetting(key) };
}

/**
 * `PUT /api/settings/{key}` (admin): stores `value` for `key` in the caller's company.
 * Value not allowed for the key → 400 `ERR_VALIDATION`; super-only key without the super flag → 403 `ERR_NO_PERMISSION`.
 */
export async function updateSetting(auth: AuthContext, key: SettingKey, value: string): Promise<{ key: SettingKey; value: string }> {
  if (!can(auth, "settings:manage")) throw new AppError("ERR_NO_PERMISSION");
  if (SUPER_ONLY_SETTINGS.includes(key) && !can(auth, "settings:global")) throw new AppError("ERR_NO_PERMISSION");
  const rule = VALUE_RULES[key];
  if (rule && !rule.safeParse(value).success) {
    throw new AppError("ERR_VALIDATION", { fields: [{ path: "value", message: `Invalid value for ${key}` }] });
  }
  const secret = SECRET_SETTINGS.includes(key);
  if (secret && value === SECRET_MASK) return { key, value: shownValue(key, await readSetting(auth.companyId, key)) };
  const globalKey = GLOBAL_SETTINGS.find((k) => k === key);
  if (globalKey) await putGlobalSetting(globalKey, value, auth);
  else {
    const stored = secret ? await sealSetting(value, { companyId: auth.companyId, key }) : value;
    const item: SettingItem = { key, value: stored, companyId: auth.companyId, updatedAt: new Date().toISOString() };
    await putSetting(item);
  }
  const setting = { key, value: shownValue(key, value) };
  await dispatch({ type: "setting.updated", companyId: auth.companyId, key, value: setting.value });
  return setting;
}
