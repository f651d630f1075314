/**
 * Help videos area. Thin: call the helps service; reads are for every logged-in user, writes for super users (the
 * contract's auth levels). Contract: `shared/src/helps/contract.ts`.
 */
import { createHelp, deleteHelp, listHelps, pageHelps, updateHelp } from "@atende/shared/helps/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("helps", {
  "GET /api/helps/list": async () => listHelps(),
  "GET /api/helps": async (ctx) => pageHelps(ctx.query),
  "POST /api/helps": async (ctx) => createHelp(ctx.body),
  "PUT /api/helps/{id}": async (ctx) => updateHelp(ctx.params.id, ctx.body),
  "DELETE /api/helps/{id}": answering("Help deleted", (ctx) => deleteHelp(ctx.params.id)),
});
