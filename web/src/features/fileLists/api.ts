/**
 * File lists data: `useFileListPages(search)` (GET /api/files → pages of `{files, count, hasMore}`), `fileListCalls`
 * (POST, PUT /{id}, DELETE /{id}) run by `useFileListMutations()`, and `uploadFileListFile(id, optionId, file)`
 * (POST /api/files/uploadList/{id}?fileId, one `file`). `fileListsCache` keeps the pages current for mutations and
 * `company-{id}-file` frames.
 */
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls } from "../../ui/kit/crud.ts";

export type FileList = ResponseOf<"GET /api/files/{id}">;
export type FileListForm = BodyOf<"POST /api/files">;

export const fileListsCache = pagedCache<FileList, "files">({ root: "fileLists", field: "files", matches: (f, s) => !s || f.name.toLowerCase().includes(s.toLowerCase()) });

export const useFileListPages = (search: string) => useNumberedPages(fileListsCache, search, (query) => call("GET /api/files", { query }));

export const fileListCalls: CrudCalls<FileList, FileListForm> = {
  create: (form) => call("POST /api/files", { body: form }),
  update: (id, form) => call("PUT /api/files/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/files/{id}", { params: { id } }),
};
export const useFileListMutations = () => useCrudMutations(fileListCalls, fileListsCache);

/** Stores `file` as option `optionId`'s file (replacing its earlier one); answers the list. */
export function uploadFileListFile(id: number, optionId: number, file: File): Promise<FileList> {
  const form = new FormData();
  form.append("file", file, file.name);
  return call("POST /api/files/uploadList/{id}", { params: { id }, query: { fileId: optionId }, form });
}
