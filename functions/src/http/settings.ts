/**
 * Settings area (administration.md §3 Setting, §7; issue 2 §4). Unknown keys → 400 `ERR_VALIDATION`.
 */
import { z } from "zod";
import { SettingKey, UpdateSettingBody } from "@atende/shared/settings/schema";
import { listSettings, updateSetting } from "@atende/shared/settings/service";
import { AppError } from "@atende/shared/errors";
import { areaHandler, route } from "./core/http.ts";

export const handler = areaHandler("settings", {
  "GET /api/settings": route({
    handler: async (ctx) => listSettings(ctx.auth),
  }),
  "PUT /api/settings/{key}": route({
    params: z.object({ key: SettingKey }),
    body: UpdateSettingBody,
    handler: async (ctx) => {
      if (ctx.body.key !== undefined && ctx.body.key !== ctx.params.key) {
        throw new AppError("ERR_VALIDATION", 400, { fields: [{ path: "key", message: "key differs from the path" }] });
      }
      return updateSetting(ctx.auth, ctx.params.key, ctx.body.value);
    },
  }),
});
