/**
 * File list rules (docs/product/file-lists.md): the admins' (the routes say so); every read and write keyed by the
 * caller's company, another company's list answered as missing (404 `ERR_NO_FILE_LIST_FOUND`).
 *
 * - name at least 3 characters ("nome muito curto"), message required;
 * - options: the modal sends the whole set; an option sent with its `id` keeps its file, one sent without gets a new
 *   id, one left out is removed and its file deleted;
 * - files only through the media port (`media/attachments.ts`): `POST /api/files/uploadList/{id}?fileId=<option>`
 *   stores one file as that option's, replacing its earlier one; deleting the list deletes its files.
 */
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { dropAttachments, replaceAttachment, type Upload } from "../media/attachments.ts";
import { NO_MEDIA } from "../media/schema.ts";
import "./errors.ts";
import "./events.ts";
import { deleteFileListRow, getFileList, listFileLists, putNewFileList, replaceFileList } from "./repository.ts";
import {
  FILE_LIST_MEDIA,
  FILE_LISTS_PAGE_SIZE,
  type FileList,
  type FileListBody,
  type FileListOption,
  type FileListRow,
  type FileListsPage,
  type PageFileListsQuery,
  type UploadFileListQuery,
} from "./schema.ts";

/** A file list as the API answers it. */
const view = ({ nextOptionId: _n, ...rest }: FileListRow): FileList => rest;

/** One file list of the company, else 404 `ERR_NO_FILE_LIST_FOUND`. Campaigns read their file list with it. */
export async function requireFileList(companyId: number, id: number): Promise<FileListRow> {
  const row = await getFileList(companyId, id);
  if (!row) throw new AppError("ERR_NO_FILE_LIST_FOUND");
  return row;
}

/** `GET /api/files`: one page of {@link FILE_LISTS_PAGE_SIZE} by name → `{files, count, hasMore}`. */
export async function pageFileLists(auth: AuthContext, q: PageFileListsQuery): Promise<FileListsPage> {
  const term = normalizeName(q.searchParam ?? "");
  const all = (await listFileLists(auth.companyId))
    .filter((f) => !term || normalizeName(f.name).includes(term))
    .sort((a, b) => a.name.localeCompare(b.name, "pt", { sensitivity: "base" }) || a.id - b.id);
  const from = (q.pageNumber - 1) * FILE_LISTS_PAGE_SIZE;
  const files = all.slice(from, from + FILE_LISTS_PAGE_SIZE).map(view);
  return { files, count: all.length, hasMore: from + files.length < all.length };
}

/** `GET /api/files/{id}`. */
export async function showFileList(auth: AuthContext, id: number): Promise<FileList> {
  return view(await requireFileList(auth.companyId, id));
}

/** The options after a save: kept ones (by id) with their file, new ones numbered from `nextOptionId`; and the removed ones. */
function mergeOptions(before: FileListRow | undefined, sent: FileListBody["options"]): { options: FileListOption[]; removed: FileListOption[]; nextOptionId: number } {
  const old = before?.options ?? [];
  let next = before?.nextOptionId ?? 1;
  if (!sent) return { options: old, removed: [], nextOptionId: next };
  const options = sent.map((o) => {
    const kept = o.id !== undefined ? old.find((x) => x.id === o.id) : undefined;
    if (kept) return { ...kept, name: o.name, mediaType: o.mediaType ?? kept.mediaType };
    return { id: next++, name: o.name, path: null, mediaType: o.mediaType ?? null, ...NO_MEDIA };
  });
  const removed = old.filter((x) => !options.some((o) => o.id === x.id));
  return { options, removed, nextOptionId: next };
}

/** `POST /api/files`: a new file list in the caller's company. Dispatches `fileList.created`. */
export async function createFileList(auth: AuthContext, body: FileListBody): Promise<FileList> {
  const now = nowIso();
  const { options, nextOptionId } = mergeOptions(undefined, body.options ?? []);
  const row: FileListRow = { id: await nextId(auth.companyId, "fileList"), companyId: auth.companyId, name: body.name, message: body.message, options, nextOptionId, createdAt: now, updatedAt: now };
  await putNewFileList(row);
  const fileList = view(row);
  await dispatch({ type: "fileList.created", companyId: auth.companyId, fileList });
  return fileList;
}

/** Saves `after` over `before` (409 `ERR_CONFLICT` when it changed meanwhile) and dispatches the update. */
async function save(before: FileListRow, after: FileListRow): Promise<FileList> {
  if (!(await replaceFileList(before, after))) throw new AppError("ERR_CONFLICT");
  const fileList = view(after);
  await dispatch({ type: "fileList.updated", companyId: after.companyId, fileList });
  return fileList;
}

/** `PUT /api/files/{id}`: name, message and (when sent) the options; removed options' files are deleted. */
export async function updateFileList(auth: AuthContext, id: number, body: FileListBody): Promise<FileList> {
  const before = await requireFileList(auth.companyId, id);
  const { options, removed, nextOptionId } = mergeOptions(before, body.options);
  const out = await save(before, { ...before, name: body.name, message: body.message, options, nextOptionId, updatedAt: nowIso() });
  await dropAttachments(...removed.map((o) => o.mediaPath));
  return out;
}

/** `DELETE /api/files/{id}`: the list and its files. */
export async function deleteFileList(auth: AuthContext, id: number): Promise<void> {
  const before = await requireFileList(auth.companyId, id);
  if (!(await deleteFileListRow(before))) throw new AppError("ERR_CONFLICT");
  await dropAttachments(...before.options.map((o) => o.mediaPath));
  await dispatch({ type: "fileList.deleted", companyId: auth.companyId, id });
}

/**
 * `POST /api/files/uploadList/{id}?fileId=<option id>` (multipart, one file): the option's file, replacing its earlier
 * one. 404 `ERR_NO_FILE_LIST_FOUND` for another company's list or an option it does not have; 400 `ERR_VALIDATION`
 * without a file or over its type's limit.
 */
export async function uploadFileListFile(auth: AuthContext, id: number, q: UploadFileListQuery, upload: { files: Upload[] } | undefined): Promise<FileList> {
  const before = await requireFileList(auth.companyId, id);
  const optionId = q.fileId ?? q.id;
  const option = before.options.find((o) => o.id === optionId);
  if (!option) throw new AppError("ERR_NO_FILE_LIST_FOUND");
  return replaceAttachment(FILE_LIST_MEDIA, auth.companyId, id, upload, option.mediaPath, (media) =>
    save(before, {
      ...before,
      options: before.options.map((o) => (o.id === option.id ? { ...o, ...media, path: media.mediaName, mediaType: q.mediaType ?? (media.mediaMime?.split("/")[0] || o.mediaType) } : o)),
      updatedAt: nowIso(),
    }),
  );
}
