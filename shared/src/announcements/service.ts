/**
 * Announcement rules (docs/product/announcements.md).
 *
 * - Super users write (create, edit, delete, media); the contract refuses everyone else (403 before the handler).
 * - Every logged-in user of every company reads the active ones; an inactive one is missing (404
 *   `ERR_NO_ANNOUNCEMENT_FOUND`) for users who are not super, and absent from their list. Super users see them all.
 * - The list is highest priority first (1 high, 2 medium, 3 low), newest first within a priority.
 * - Media: one png/jpg/jpeg per announcement through the media port ({@link ANNOUNCEMENT_MEDIA}), under the writer's
 *   company; every reader gets a short-lived presigned GET of it (`mediaUrl`).
 * - Every change dispatches `announcement.*` (`./events.ts`): platform frames to every company's sockets.
 */
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { dropAttachments, replaceAttachment, type Upload } from "../media/attachments.ts";
import { NO_MEDIA } from "../media/schema.ts";
import { presignMediaGet } from "../storage/media.ts";
import "./errors.ts";
import "./events.ts";
import { deleteAnnouncementItem, getAnnouncement, listAnnouncementItems, putNewAnnouncement, replaceAnnouncement } from "./repository.ts";
import {
  ANNOUNCEMENT_MEDIA,
  ANNOUNCEMENTS_PAGE_SIZE,
  type Announcement,
  type AnnouncementItem,
  type AnnouncementsPage,
  type CreateAnnouncementBody,
  type ListAnnouncementsQuery,
  type UpdateAnnouncementBody,
} from "./schema.ts";

/** Lifetime of an announcement image's presigned GET (seconds). */
const MEDIA_URL_TTL_SECONDS = 3600;

/** An announcement as answered: the item plus `mediaUrl` (presigned GET of its image, or null). */
export async function announcementView(a: AnnouncementItem): Promise<Announcement> {
  const mediaUrl = a.mediaPath ? await presignMediaGet(a.companyId, a.mediaPath, MEDIA_URL_TTL_SECONDS, a.mediaName ?? undefined, a.mediaMime) : null;
  return { ...a, mediaUrl };
}

/** Highest priority first, then newest. */
const byPriority = (a: AnnouncementItem, b: AnnouncementItem) => a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

const seesInactive = (auth: AuthContext) => auth.super;

/** `GET /api/announcements` (any user): a page of what the caller sees, highest priority and newest first. */
export async function listAnnouncements(auth: AuthContext, q: ListAnnouncementsQuery): Promise<AnnouncementsPage> {
  const term = normalizeName(q.searchParam ?? "");
  const all = (await listAnnouncementItems())
    .filter((a) => (a.status || seesInactive(auth)) && (!term || normalizeName(`${a.title} ${a.text}`).includes(term)))
    .sort(byPriority);
  const from = (q.pageNumber - 1) * ANNOUNCEMENTS_PAGE_SIZE;
  const records = await Promise.all(all.slice(from, from + ANNOUNCEMENTS_PAGE_SIZE).map(announcementView));
  return { records, count: all.length, hasMore: from + records.length < all.length };
}

/** One announcement the caller may see, else 404 `ERR_NO_ANNOUNCEMENT_FOUND`. */
async function requireVisible(auth: AuthContext, id: number): Promise<AnnouncementItem> {
  const a = await getAnnouncement(id);
  if (!a || (!a.status && !seesInactive(auth))) throw new AppError("ERR_NO_ANNOUNCEMENT_FOUND");
  return a;
}

/** `GET /api/announcements/{id}` (any user): an active one, or any for super users; else 404. */
export async function showAnnouncement(auth: AuthContext, id: number): Promise<Announcement> {
  return announcementView(await requireVisible(auth, id));
}

/** Writes `after` over `before` (409 `ERR_CONFLICT` when it changed meanwhile) and dispatches the update. */
async function save(auth: AuthContext, before: AnnouncementItem, after: AnnouncementItem): Promise<Announcement> {
  if (!(await replaceAnnouncement(before, after))) throw new AppError("ERR_CONFLICT");
  const record = await announcementView(after);
  await dispatch({ type: "announcement.updated", companyId: auth.companyId, record });
  return record;
}

/** `POST /api/announcements` (super): title and text, priority (default 3), status (default true). Dispatches the create. */
export async function createAnnouncement(auth: AuthContext, body: CreateAnnouncementBody): Promise<Announcement> {
  const now = nowIso();
  const item: AnnouncementItem = {
    id: await nextId("GLOBAL", "announcement"),
    companyId: auth.companyId,
    title: body.title,
    text: body.text,
    priority: body.priority ?? 3,
    status: body.status ?? true,
    ...NO_MEDIA,
    createdAt: now,
    updatedAt: now,
  };
  await putNewAnnouncement(item);
  const record = await announcementView(item);
  await dispatch({ type: "announcement.created", companyId: auth.companyId, record });
  return record;
}

/** `PUT /api/announcements/{id}` (super): the given fields; 404 when missing, 409 on a concurrent edit. */
export async function updateAnnouncement(auth: AuthContext, id: number, body: UpdateAnnouncementBody): Promise<Announcement> {
  const before = await requireVisible(auth, id);
  return save(auth, before, {
    ...before,
    title: body.title ?? before.title,
    text: body.text ?? before.text,
    priority: body.priority ?? before.priority,
    status: body.status ?? before.status,
    updatedAt: nowIso(),
  });
}

/** `DELETE /api/announcements/{id}` (super): the announcement and its image. Dispatches the delete. */
export async function deleteAnnouncement(auth: AuthContext, id: number): Promise<void> {
  const before = await requireVisible(auth, id);
  if (!(await deleteAnnouncementItem(before))) throw new AppError("ERR_CONFLICT");
  await dropAttachments(before.mediaPath);
  await dispatch({ type: "announcement.deleted", companyId: auth.companyId, id });
}

/**
 * `POST /api/announcements/{id}/media-upload` (super, multipart, one png/jpg/jpeg file): the announcement's new image,
 * replacing and deleting any earlier one; 400 `ERR_VALIDATION` for another type or without a file.
 */
export async function uploadAnnouncementMedia(auth: AuthContext, id: number, upload: { files: Upload[] } | undefined): Promise<Announcement> {
  const before = await requireVisible(auth, id);
  return replaceAttachment(ANNOUNCEMENT_MEDIA, before.companyId, id, upload, before.mediaPath, (media) => save(auth, before, { ...before, ...media, updatedAt: nowIso() }));
}

/** `DELETE /api/announcements/{id}/media-upload` (super): removes the image (its file deleted). */
export async function deleteAnnouncementMedia(auth: AuthContext, id: number): Promise<Announcement> {
  const before = await requireVisible(auth, id);
  const out = await save(auth, before, { ...before, ...NO_MEDIA, updatedAt: nowIso() });
  await dropAttachments(before.mediaPath);
  return out;
}
