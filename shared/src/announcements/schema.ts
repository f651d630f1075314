/**
 * Announcements (docs/product/announcements.md): notices the platform's super users write for every user of every
 * company (the top bar's announcements popover). Three blocks: the stored item, request schemas, response and
 * realtime shapes.
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";
import { defineAttachmentKind } from "../media/kinds.ts";
import { attachedMedia } from "../media/schema.ts";

/** Announcements per page of `GET /api/announcements`. */
export const ANNOUNCEMENTS_PAGE_SIZE = 20;
export const ANNOUNCEMENT_TITLE_MAX = 200;
export const ANNOUNCEMENT_TEXT_MAX = 5000;
/** Priorities: 1 high (red), 2 medium (orange), 3 low (grey, the default). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;

/** An announcement's image: png, jpg or jpeg only. */
export const ANNOUNCEMENT_MEDIA = defineAttachmentKind({
  folder: "announcements",
  types: ["image/png", "image/jpeg"],
  typeMessage: "Somente arquivos .png, .jpg ou .jpeg",
  maxBytes: 5 * 1024 * 1024,
});

// ---------------------------------------------------------------------------------------------
// 1. Stored item

/**
 * Announcement item `ANNOUNCEMENTS` / `ANN#<id>` (`keys.announcement`; platform-wide). `companyId` is the writer's
 * company: its media lives under `media/<companyId>/announcements/<id>/`. `status` true is "Ativo" (shown to every
 * user), false "Inativo" (only super users see it).
 */
export const AnnouncementItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  title: z.string(),
  text: z.string(),
  priority: z.number().int().min(1).max(3).default(3),
  status: z.boolean().default(true),
  ...attachedMedia,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AnnouncementItem = z.infer<typeof AnnouncementItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

const required = (max: number) =>
  z
    .string({ error: () => "Obrigatório" })
    .trim()
    .min(1, "Obrigatório")
    .max(max, "Too Long!");

/** A priority as forms send it: 1, 2 or 3 (number or digit). */
const priority = z.coerce.number().int().refine((n) => n === 1 || n === 2 || n === 3, "Prioridade inválida");

/** A flag as forms send it: a boolean, or "true"/"false". */
const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

/** `POST /api/announcements`: title and text required; priority default 3; status default true. */
export const CreateAnnouncementBody = z.object({
  title: required(ANNOUNCEMENT_TITLE_MAX),
  text: required(ANNOUNCEMENT_TEXT_MAX),
  priority: priority.optional(),
  status: flag.optional(),
});
export type CreateAnnouncementBody = z.infer<typeof CreateAnnouncementBody>;

/** `PUT /api/announcements/{id}`: every field optional; absent = unchanged. */
export const UpdateAnnouncementBody = z.object({
  title: required(ANNOUNCEMENT_TITLE_MAX).optional(),
  text: required(ANNOUNCEMENT_TEXT_MAX).optional(),
  priority: priority.optional(),
  status: flag.optional(),
});
export type UpdateAnnouncementBody = z.infer<typeof UpdateAnnouncementBody>;

/** `GET /api/announcements`: `searchParam` (title or text contains), `pageNumber`. */
export const ListAnnouncementsQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber: zPageNumber });
export type ListAnnouncementsQuery = z.infer<typeof ListAnnouncementsQuery>;

export const AnnouncementIdParams = z.object({ id: zId });

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/** An announcement as answered: the stored fields plus `mediaUrl`, a short-lived presigned GET of its image (or null). */
export const Announcement = AnnouncementItem.extend({ mediaUrl: z.string().nullable() });
export type Announcement = z.infer<typeof Announcement>;

/** `GET /api/announcements`: highest priority first, then newest. */
export const AnnouncementsPage = z.object({ records: z.array(Announcement), count: z.number().int(), hasMore: z.boolean() });
export type AnnouncementsPage = z.infer<typeof AnnouncementsPage>;

export const AnnouncementDeleted = z.object({ message: z.string() });

/**
 * `company-{id}-announcement` frames, to every connected user of every company: `{action: "create"|"update", record}`
 * or `{action: "delete", id}` (an announcement made inactive is a delete for users who are not super).
 */
export const AnnouncementEvent = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), record: Announcement }),
  z.object({ action: z.literal("update"), record: Announcement }),
  z.object({ action: z.literal("delete"), id: z.number().int() }),
]);
export type AnnouncementEvent = z.infer<typeof AnnouncementEvent>;
