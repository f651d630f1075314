/** The platform logos' operations (docs/product/logos.md). */
import { defineRoutes } from "../contract.ts";
import { LogoUploaded, LogoUploadQuery, LogosResponse } from "./schema.ts";

export const logosRoutes = defineRoutes("logos", {
  /** Public: the login page shows them before anyone logs in. */
  "GET /api/logos": { auth: "public", response: LogosResponse },
  "POST /api/settings/media-upload": { auth: "super", query: LogoUploadQuery, multipart: true, response: LogoUploaded },
});
