/** File lists area. Thin: call the file lists service. Contract: `shared/src/fileLists/contract.ts`. */
import { createFileList, deleteFileList, pageFileLists, showFileList, updateFileList, uploadFileListFile } from "@atende/shared/fileLists/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("fileLists", {
  "GET /api/files": async (ctx) => pageFileLists(ctx.auth, ctx.query),
  "GET /api/files/{id}": async (ctx) => showFileList(ctx.auth, ctx.params.id),
  "POST /api/files": async (ctx) => createFileList(ctx.auth, ctx.body),
  "PUT /api/files/{id}": async (ctx) => updateFileList(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/files/{id}": answering("File List deleted", (ctx) => deleteFileList(ctx.auth, ctx.params.id)),
  "POST /api/files/uploadList/{id}": async (ctx) => uploadFileListFile(ctx.auth, ctx.params.id, ctx.query, ctx.upload),
});
