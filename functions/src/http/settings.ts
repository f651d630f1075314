/**
 * Settings area (docs/product/settings.md). Unknown keys → 400 `ERR_VALIDATION`.
 * Contract: `shared/src/settings/contract.ts`.
 */
import { AppError } from "@atende/shared/errors";
import { getPublicSetting, listSettings, updateSetting } from "@atende/shared/settings/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("settings", {
  "GET /api/settings": async (ctx) => listSettings(ctx.auth),
  "GET /api/settings/{key}": async (ctx) => getPublicSetting(ctx.params.key),
  "PUT /api/settings/{key}": async (ctx) => {
    if (ctx.body.key !== undefined && ctx.body.key !== ctx.params.key) {
      throw new AppError("ERR_VALIDATION", { fields: [{ path: "key", message: "key differs from the path" }] });
    }
    return updateSetting(ctx.auth, ctx.params.key, ctx.body.value);
  },
});
