/**
 * Help videos operations (docs/product/helps.md). Helps are platform-wide: every logged-in user of every company
 * reads the same list; only super users create, change and delete them (anyone else 403 `ERR_NO_PERMISSION`,
 * nothing written). A missing help is 404 `ERR_NO_HELP_FOUND`.
 */
import { defineRoutes } from "../contract.ts";
import { CreateHelpBody, Help, HelpDeleted, HelpIdParams, HelpList, HelpsPage, PageHelpsQuery, UpdateHelpBody } from "./schema.ts";

export const helpsRoutes = defineRoutes("helps", {
  "GET /api/helps/list": { auth: "user", response: HelpList },
  "GET /api/helps": { auth: "user", query: PageHelpsQuery, response: HelpsPage },
  "POST /api/helps": { auth: "super", body: CreateHelpBody, response: Help },
  "PUT /api/helps/{id}": { auth: "super", params: HelpIdParams, body: UpdateHelpBody, response: Help },
  "DELETE /api/helps/{id}": { auth: "super", params: HelpIdParams, response: HelpDeleted },
});
