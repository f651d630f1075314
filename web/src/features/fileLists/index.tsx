/**
 * File lists area (docs/product/file-lists.md): /files for admins in the administration menu, texts, and the
 * `company-{id}-file` frames.
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { fileListsCache } from "./api.ts";
import { fileListsErrorTexts, fileListsMenuTexts, fileListsTexts } from "./i18n.ts";

const FileListsPage = lazyPage(() => import("./FileListsPage.tsx"), "FileListsPage");

const onFrame: RealtimeHandler<"file"> = (data, { queryClient }) => {
  if (data.action === "delete") fileListsCache.remove(queryClient, data.fileListId);
  else fileListsCache.upsert(queryClient, data.fileList);
};

export const fileListsFeature: Feature = {
  id: "files",
  access: ADMIN_ONLY,
  routes: [{ path: "/files", element: <FileListsPage /> }],
  menu: { path: "/files", labelKey: "menu.files", group: "administration", order: 25 },
  texts: { fileLists: fileListsTexts, menu: fileListsMenuTexts, errors: fileListsErrorTexts },
  realtime: { file: onFrame },
};
