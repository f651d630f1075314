/**
 * Media area (docs/product/messages.md#media): `GET /api/media/{messageId}` → `{url, expiresInSeconds}`, a short-lived presigned S3 GET
 * for the media of a message the caller may see (company-scoped key; 403/404 otherwise); `POST /api/media/uploads` →
 * a presigned PUT for one outbound file (key chosen here, type and size signed).
 * Contract: `shared/src/messages/contract.ts` (`mediaRoutes`).
 */
import { createMediaUpload, mediaUrlOf } from "@atende/shared/messages/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("media", {
  "GET /api/media/{messageId}": async (ctx) => mediaUrlOf(ctx.auth, ctx.params.messageId),
  "POST /api/media/uploads": async (ctx) => createMediaUpload(ctx.auth, ctx.body),
});
