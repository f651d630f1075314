/** Tags' permissions, declared from the feature's folder (composed into `access/permissions.ts`). */
import { definePermissions } from "../access/define.ts";

export const TAG_PERMISSIONS = definePermissions({
  /** The Kanban switch of the tag modal (and the `kanban` field of tag writes): admin and supervisor. */
  "tags:kanban": ["admin", "supervisor"],
});
