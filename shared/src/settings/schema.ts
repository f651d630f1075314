/**
 * Company settings (docs/product/settings.md; defaults are the old system's). Unknown keys are refused with 400.
 */
import { z } from "zod";

/** Every key a company may hold, with its default value for a new company. */
export const SETTING_DEFAULTS = {
  userRating: "disabled",
  scheduleType: "disabled",
  call: "disabled",
  /** `enabled` = group messages are ignored. */
  CheckMsgIsGroup: "enabled",
  allowregister: "disabled",
  viewclosed: "disabled",
  viewgroups: "disabled",
  sendGreetingAccepted: "disabled",
  sendMsgTransfTicket: "disabled",
  viewregister: "disabled",
  sendGreetingMessageOneQueues: "disabled",
  chatBotType: "text",
  trial: "3",
  ipixc: "",
  tokenixc: "",
  ipmkauth: "",
  clientidmkauth: "",
  clientsecretmkauth: "",
  asaas: "",
} as const satisfies Record<string, string>;

export const SettingKey = z.enum(Object.keys(SETTING_DEFAULTS) as [keyof typeof SETTING_DEFAULTS, ...(keyof typeof SETTING_DEFAULTS)[]]);
export type SettingKey = z.infer<typeof SettingKey>;

/** Keys holding third-party credentials: never sent to non-admin users. */
export const SECRET_SETTINGS: readonly SettingKey[] = ["ipixc", "tokenixc", "ipmkauth", "clientidmkauth", "clientsecretmkauth", "asaas"];

/**
 * What the API answers for a credential that is set (never its value); "" when unset. A `PUT` of this very text keeps
 * the stored credential (a form sending back what it was shown).
 */
export const SECRET_MASK = "********";

/** Keys only a super user may change (global section of the Settings page). */
export const SUPER_ONLY_SETTINGS: readonly SettingKey[] = ["allowregister", "viewregister", "trial", "ipixc", "tokenixc", "ipmkauth", "clientidmkauth", "clientsecretmkauth", "asaas"];

/**
 * The platform-wide keys of the super's global section of the Settings page ("registration allowed,
 * registration visible, trial days"). They belong to no company: one item each at `SETTINGS` / `SET#<key>`
 * (`keys.globalSetting`), written by a super user from any company, shown in every company's settings list and read
 * unauthenticated by the login and sign-up screens (`GET /api/settings/{key}`).
 */
export const GLOBAL_SETTINGS = ["allowregister", "viewregister", "trial"] as const satisfies readonly SettingKey[];
/** A key `GET /api/settings/{key}` answers without a token (only the global, non-secret ones). */
export const PublicSettingKey = z.enum(GLOBAL_SETTINGS);
export type PublicSettingKey = z.infer<typeof PublicSettingKey>;

export const SettingItem = z.object({ key: SettingKey, value: z.string(), companyId: z.number().int(), updatedAt: z.string() });
export type SettingItem = z.infer<typeof SettingItem>;

/** PUT /api/settings/{key} body. */
export const UpdateSettingBody = z.object({ key: SettingKey.optional(), value: z.string().max(2000) });
