/**
 * File lists: a named set of files with a message, sent by campaigns after their message (docs/product/file-lists.md).
 * Each option is one file (name, media type) stored through the media port. Stored item, requests, responses.
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";
import { defineAttachmentKind } from "../media/kinds.ts";
import { attachedMedia } from "../media/schema.ts";

/** File lists per page of `GET /api/files`. */
export const FILE_LISTS_PAGE_SIZE = 20;
/** Most options (files) of one file list. */
export const FILE_LIST_OPTIONS_MAX = 50;

/** An option's file: any type within the outbound limit of its type (it is sent as a WhatsApp message). */
export const FILE_LIST_MEDIA = defineAttachmentKind({ folder: "file-lists" });

/** One option: its file (`mediaPath`… through the media port; `path` the stored file name) and media type. */
export const FileListOption = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string().nullable().default(null),
  mediaType: z.string().nullable().default(null),
  ...attachedMedia,
});
export type FileListOption = z.infer<typeof FileListOption>;

/** File list `C#<cid>` / `FILES#<id>`; `nextOptionId` numbers its options. */
export const FileListRow = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  message: z.string(),
  options: z.array(FileListOption).default([]),
  nextOptionId: z.number().int().default(1),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FileListRow = z.infer<typeof FileListRow>;

const required = (iss: { input?: unknown }) => (iss.input == null ? "Required" : "Invalid input");

/** An option as the modal sends it: an existing one by `id` (its file kept), or a new one without. */
const OptionBody = z.object({
  id: zId.optional(),
  name: z.string({ error: required }).trim().min(1, "Required").max(100, "Too Long!"),
  mediaType: z.string().max(100).nullable().optional(),
});

/**
 * `POST /api/files` and `PUT /api/files/{id}`: name at least 3 characters ("nome muito curto"), message required;
 * `options` the list's files (absent on PUT: unchanged). A `companyId` in the body is ignored.
 */
export const FileListBody = z.object({
  name: z.string({ error: required }).trim().min(3, "nome muito curto").max(100, "Too Long!"),
  message: z.string({ error: required }).trim().min(1, "Required").max(65536, "Too Long!"),
  options: z.array(OptionBody).max(FILE_LIST_OPTIONS_MAX).optional(),
});
export type FileListBody = z.infer<typeof FileListBody>;

/** `GET /api/files`: `searchParam` (name contains), `pageNumber`; the spec's `companyId` is accepted and ignored. */
export const PageFileListsQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber: zPageNumber, companyId: z.string().max(20).optional() });
export type PageFileListsQuery = z.infer<typeof PageFileListsQuery>;

export const FileListIdParams = z.object({ id: zId });

/** `POST /api/files/uploadList/{id}`: which option the file is for (`fileId`, or the option's `id`). */
export const UploadFileListQuery = z.object({ fileId: zId.optional(), id: zId.optional(), mediaType: z.string().max(100).optional() });
export type UploadFileListQuery = z.infer<typeof UploadFileListQuery>;

/** A file list as every route answers it. */
export const FileList = FileListRow.omit({ nextOptionId: true });
export type FileList = z.infer<typeof FileList>;

/** `GET /api/files`: one page by name. */
export const FileListsPage = z.object({ files: z.array(FileList), count: z.number().int(), hasMore: z.boolean() });
export type FileListsPage = z.infer<typeof FileListsPage>;

export const FileListDeleted = z.object({ message: z.string() });

/** `company-{id}-file` frames. */
export const FileListEvent = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), fileList: FileList }),
  z.object({ action: z.literal("update"), fileList: FileList }),
  z.object({ action: z.literal("delete"), fileListId: z.number().int() }),
]);
export type FileListEvent = z.infer<typeof FileListEvent>;
