/**
 * Contact lists operations: the campaigns area's, for admins of companies whose plan has campaigns (`useCampaigns`;
 * 403 `ERR_PLAN_FEATURE_DISABLED` otherwise). A list or item of another company is 404.
 *
 * Import: `POST /api/contact-lists/{id}/upload` is `multipart/form-data` with one spreadsheet (.xls or .xlsx) in
 * `file` (or `medias`). A file of another type, too large or unreadable is refused at once (400, nothing written).
 * `?preview=true` reads and checks it without writing and answers the report: rows that would be added, updated
 * (same number already in the list: name and email replaced) and skipped, with the reason of each skipped row and a
 * warning per row whose e-mail was dropped. Without it the answer is 202 with a background job (`jobId`, `job`;
 * progress by `GET /api/jobs/{jobId}` and the `company-{id}-job` frames) whose `result` ends with the counts
 * `{added, updated, skipped}`. Numbers are normalized (country code, area code, number); the WhatsApp check of the
 * rows added or changed follows through the session runner (`isWhatsappValid` per row).
 */
import { z } from "zod";
import { defineRoutes } from "../contract.ts";
import { JobStarted } from "../jobs/schema.ts";
import { ImportQuery, ImportReport } from "./import-schema.ts";
import {
  ContactList,
  ContactListBody,
  ContactListDeleted,
  ContactListIdParams,
  ContactListItem,
  ContactListItemIdParams,
  ContactListItemsPage,
  ContactListList,
  ContactListsPage,
  CreateContactListItemBody,
  ListContactListsQuery,
  PageContactListItemsQuery,
  PageContactListsQuery,
  UpdateContactListItemBody,
} from "./schema.ts";

const plan = "useCampaigns" as const;

export const contactListsRoutes = defineRoutes("contactLists", {
  "GET /api/contact-lists": { auth: "admin", plan, query: PageContactListsQuery, response: ContactListsPage },
  "GET /api/contact-lists/list": { auth: "admin", plan, query: ListContactListsQuery, response: ContactListList },
  "GET /api/contact-lists/{id}": { auth: "admin", plan, params: ContactListIdParams, response: ContactList },
  "POST /api/contact-lists": { auth: "admin", plan, body: ContactListBody, response: ContactList },
  "PUT /api/contact-lists/{id}": { auth: "admin", plan, params: ContactListIdParams, body: ContactListBody, response: ContactList },
  "DELETE /api/contact-lists/{id}": { auth: "admin", plan, params: ContactListIdParams, response: ContactListDeleted },
  /** Multipart: one .xls or .xlsx in `file` (or `medias`). The preview's report, or 202 with the import's job. */
  "POST /api/contact-lists/{id}/upload": {
    auth: "admin",
    plan,
    params: ContactListIdParams,
    query: ImportQuery,
    multipart: true,
    response: z.union([ImportReport, JobStarted]),
  },
  "GET /api/contact-list-items": { auth: "admin", plan, query: PageContactListItemsQuery, response: ContactListItemsPage },
  "GET /api/contact-list-items/{id}": { auth: "admin", plan, params: ContactListItemIdParams, response: ContactListItem },
  "POST /api/contact-list-items": { auth: "admin", plan, body: CreateContactListItemBody, response: ContactListItem },
  "PUT /api/contact-list-items/{id}": { auth: "admin", plan, params: ContactListItemIdParams, body: UpdateContactListItemBody, response: ContactListItem },
  "DELETE /api/contact-list-items/{id}": {
    auth: "admin",
    permission: "contacts-page:deleteContact",
    plan,
    params: ContactListItemIdParams,
    response: ContactListDeleted,
  },
});
