/** Queues' permissions, declared from the feature's folder (composed into `access/permissions.ts`). */
import { definePermissions } from "../access/define.ts";

export const QUEUE_PERMISSIONS = definePermissions({
  /** Queues and their option trees: create, edit, delete, media. */
  "queues:manage": ["admin"],
});
