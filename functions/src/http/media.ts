/**
 * Media area (issue 4 §6): `GET /api/media/{messageId}` → `{url, expiresInSeconds}`, a short-lived presigned S3 GET
 * for the media of a message the caller may see (company-scoped key; 403/404 otherwise).
 */
import { z } from "zod";
import { mediaUrlOf } from "@atende/shared/messages/service";
import { areaHandler, route } from "./core/http.ts";

export const handler = areaHandler("media", {
  "GET /api/media/{messageId}": route({
    params: z.object({ messageId: z.string().min(1).max(128) }),
    handler: async (ctx) => mediaUrlOf(ctx.auth, ctx.params.messageId),
  }),
});
