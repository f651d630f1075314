/**
 * Personal data's permission, declared from the feature's folder (composed into `access/permissions.ts`): who may
 * export or erase everything stored about one contact.
 */
import { definePermissions } from "../access/define.ts";

export const PRIVACY_PERMISSIONS = definePermissions({
  /** Export a contact's personal data as a zip, or erase it (`/api/contacts/{id}/personal-data/*`). */
  "personal-data:manage": ["admin"],
});
