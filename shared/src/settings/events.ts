/**
 * Settings' domain event (see `docs/architecture.md` §4): `setting.updated` `{key, value}`. Realtime frame
 * `company-{id}-settings` `{action:"update", setting:{key, value}}` to the company; a credential setting
 * (`SECRET_SETTINGS`: API tokens, client secrets) only to holders of `secrets:view` (admins): others never list those
 * keys.
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { SettingFrame } from "./contract.ts";
import { SECRET_SETTINGS, type SettingKey } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "setting.updated": { type: "setting.updated"; companyId: number; key: SettingKey; value: string };
  }
}

defineEvents({ "setting.updated": baseEvent("setting.updated").extend({ key: z.string(), value: z.string() }) });

defineFrames({ settings: SettingFrame });

realtimeFrames("setting.updated", (e) => [
  {
    name: "settings",
    data: { action: "update", setting: { key: e.key, value: e.value } },
    audience: SECRET_SETTINGS.includes(e.key) ? { kind: "permission", permission: "secrets:view" } : { kind: "company" },
  },
]);
