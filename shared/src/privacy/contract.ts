/**
 * A contact's personal data (docs/product/personal-data.md): admins only (`personal-data:manage`). Export and erase
 * answer 202 with the background job to follow (`GET /api/jobs/{jobId}` or the `company-{id}-job` frames); the
 * finished export is read through a short-lived link. Another company's contact is 404 `ERR_NO_CONTACT_FOUND`.
 */
import { defineRoutes } from "../contract.ts";
import { JobStarted } from "../jobs/schema.ts";
import { ContactIdParams, ExportLink, ExportParams } from "./schema.ts";

export const privacyRoutes = defineRoutes("privacy", {
  "POST /api/contacts/{id}/personal-data/export": { auth: "admin", permission: "personal-data:manage", params: ContactIdParams, response: JobStarted },
  "GET /api/contacts/{id}/personal-data/export/{jobId}": { auth: "admin", permission: "personal-data:manage", params: ExportParams, response: ExportLink },
  "POST /api/contacts/{id}/personal-data/erase": { auth: "admin", permission: "personal-data:manage", params: ContactIdParams, response: JobStarted },
});
