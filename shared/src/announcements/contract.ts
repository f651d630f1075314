/**
 * Announcements operations (docs/product/announcements.md). Reads are open to every logged-in user of every company
 * (inactive ones only to super users); writes are `super` (403 `ERR_NO_PERMISSION` for anyone else, nothing written).
 * Media: `POST /api/announcements/{id}/media-upload` is `multipart/form-data` with one png, jpg or jpeg in `file`
 * (or `medias`); `DELETE .../media-upload` removes it.
 */
import { defineRoutes } from "../contract.ts";
import {
  Announcement,
  AnnouncementDeleted,
  AnnouncementIdParams,
  AnnouncementsPage,
  CreateAnnouncementBody,
  ListAnnouncementsQuery,
  UpdateAnnouncementBody,
} from "./schema.ts";

export const announcementsRoutes = defineRoutes("announcements", {
  "GET /api/announcements": { auth: "user", query: ListAnnouncementsQuery, response: AnnouncementsPage },
  "GET /api/announcements/{id}": { auth: "user", params: AnnouncementIdParams, response: Announcement },
  "POST /api/announcements": { auth: "super", body: CreateAnnouncementBody, response: Announcement },
  "PUT /api/announcements/{id}": { auth: "super", params: AnnouncementIdParams, body: UpdateAnnouncementBody, response: Announcement },
  "DELETE /api/announcements/{id}": { auth: "super", params: AnnouncementIdParams, response: AnnouncementDeleted },
  "POST /api/announcements/{id}/media-upload": { auth: "super", params: AnnouncementIdParams, multipart: true, response: Announcement },
  "DELETE /api/announcements/{id}/media-upload": { auth: "super", params: AnnouncementIdParams, response: Announcement },
});
