/** Settings operations (docs/product/settings.md). Unknown keys → 400 `ERR_VALIDATION`. */
import { z } from "zod";
import { defineRoutes } from "../contract.ts";
import { PublicSettingKey, SettingKey, UpdateSettingBody } from "./schema.ts";

/** One setting as the API shows it. */
export const SettingView = z.object({ key: SettingKey, value: z.string() });

export const settingsRoutes = defineRoutes("settings", {
  "GET /api/settings": { auth: "user", response: z.array(SettingView) },
  /** Public: the global section's keys only (allowregister, viewregister, trial); any other key is 400. */
  "GET /api/settings/{key}": { auth: "public", params: z.object({ key: PublicSettingKey }), response: SettingView },
  "PUT /api/settings/{key}": { auth: "admin", permission: "settings:manage", params: z.object({ key: SettingKey }), body: UpdateSettingBody, response: SettingView },
});

/** `company-{id}-settings` frames: the changed setting as `GET /api/settings` lists it. */
export const SettingFrame = z.object({ action: z.literal("update"), setting: SettingView });
export type SettingFrame = z.infer<typeof SettingFrame>;
