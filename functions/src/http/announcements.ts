/**
 * Announcements area. Thin: call the announcements service. Contract: `shared/src/announcements/contract.ts`
 * (docs/product/announcements.md).
 */
import {
  createAnnouncement,
  deleteAnnouncement,
  deleteAnnouncementMedia,
  listAnnouncements,
  showAnnouncement,
  updateAnnouncement,
  uploadAnnouncementMedia,
} from "@atende/shared/announcements/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("announcements", {
  "GET /api/announcements": async (ctx) => listAnnouncements(ctx.auth, ctx.query),
  "GET /api/announcements/{id}": async (ctx) => showAnnouncement(ctx.auth, ctx.params.id),
  "POST /api/announcements": async (ctx) => createAnnouncement(ctx.auth, ctx.body),
  "PUT /api/announcements/{id}": async (ctx) => updateAnnouncement(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/announcements/{id}": answering("Announcement deleted", (ctx) => deleteAnnouncement(ctx.auth, ctx.params.id)),
  "POST /api/announcements/{id}/media-upload": async (ctx) => uploadAnnouncementMedia(ctx.auth, ctx.params.id, ctx.upload),
  "DELETE /api/announcements/{id}/media-upload": async (ctx) => deleteAnnouncementMedia(ctx.auth, ctx.params.id),
});
