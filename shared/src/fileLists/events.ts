/** File lists' domain events and the `company-{id}-file` frame (to the admins, who manage them). */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { FileList, FileListEvent } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "fileList.created": { type: "fileList.created"; companyId: number; fileList: FileList };
    "fileList.updated": { type: "fileList.updated"; companyId: number; fileList: FileList };
    "fileList.deleted": { type: "fileList.deleted"; companyId: number; id: number };
  }
}

defineEvents({
  "fileList.created": baseEvent("fileList.created").extend({ fileList: FileList }),
  "fileList.updated": baseEvent("fileList.updated").extend({ fileList: FileList }),
  "fileList.deleted": baseEvent("fileList.deleted").extend({ id: z.number().int() }),
});

defineFrames({ file: FileListEvent });

realtimeFrames("fileList.created", (e) => [{ name: "file", data: { action: "create", fileList: e.fileList }, audience: { kind: "admins" } }]);
realtimeFrames("fileList.updated", (e) => [{ name: "file", data: { action: "update", fileList: e.fileList }, audience: { kind: "admins" } }]);
realtimeFrames("fileList.deleted", (e) => [{ name: "file", data: { action: "delete", fileListId: e.id }, audience: { kind: "admins" } }]);
