/** Logos area. Thin: call the logos service. Contract: `shared/src/logos/contract.ts` (docs/product/logos.md). */
import { listLogos, uploadLogo } from "@atende/shared/logos/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("logos", {
  "GET /api/logos": async () => listLogos(),
  "POST /api/settings/media-upload": async (ctx) => uploadLogo(ctx.auth, ctx.query.ref, ctx.upload),
});
