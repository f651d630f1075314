/**
 * Personal data area (docs/product/personal-data.md). Thin: the rules are in `shared/src/privacy/service.ts`; the
 * work runs as background jobs.
 */
import { contactExportLink, startContactErase, startContactExport } from "@atende/shared/privacy/service";
import { areaHandler, started } from "./core/http.ts";

export const handler = areaHandler("privacy", {
  "POST /api/contacts/{id}/personal-data/export": async (ctx) => started("Export started", await startContactExport(ctx.auth, ctx.params.id)),
  "GET /api/contacts/{id}/personal-data/export/{jobId}": async (ctx) => contactExportLink(ctx.auth, ctx.params.id, ctx.params.jobId),
  "POST /api/contacts/{id}/personal-data/erase": async (ctx) => started("Erase started", await startContactErase(ctx.auth, ctx.params.id)),
});
