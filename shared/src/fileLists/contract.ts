/**
 * File lists operations (the administration area: admins). Another company's list is 404 `ERR_NO_FILE_LIST_FOUND`.
 *
 * Files: `POST /api/files/uploadList/{id}` is `multipart/form-data` with one file in `file` (or `medias`)
 * for the option named by the query's `fileId` (or `id`; `mediaType` optional); the spec's other form fields are
 * accepted and ignored. It answers the file list with the option's new file.
 */
import { defineRoutes } from "../contract.ts";
import { FileList, FileListBody, FileListDeleted, FileListIdParams, FileListsPage, PageFileListsQuery, UploadFileListQuery } from "./schema.ts";

export const fileListsRoutes = defineRoutes("fileLists", {
  "GET /api/files": { auth: "admin", query: PageFileListsQuery, response: FileListsPage },
  "GET /api/files/{id}": { auth: "admin", params: FileListIdParams, response: FileList },
  "POST /api/files": { auth: "admin", body: FileListBody, response: FileList },
  "PUT /api/files/{id}": { auth: "admin", params: FileListIdParams, body: FileListBody, response: FileList },
  "DELETE /api/files/{id}": { auth: "admin", params: FileListIdParams, response: FileListDeleted },
  "POST /api/files/uploadList/{id}": { auth: "admin", params: FileListIdParams, query: UploadFileListQuery, multipart: true, response: FileList },
});
