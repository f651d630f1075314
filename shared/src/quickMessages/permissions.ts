/**
 * Quick messages' permissions, declared from the feature's folder (composed into `access/permissions.ts`). Who may
 * edit one given message: {@link canEditQuickMessage} in `./access.ts`.
 */
import { definePermissions } from "../access/define.ts";

export const QUICK_MESSAGE_PERMISSIONS = definePermissions({
  /** The "geral" (global) selector of the quick message modal: setting or clearing `geral`. */
  "quick-messages:global": ["admin"],
  /** Seeing, editing and deleting every quick message of the company; a user only their own that are not geral. */
  "quick-messages:editAny": ["admin", "supervisor"],
});
