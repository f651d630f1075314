/**
 * The dashboard's permissions (composed into `access/permissions.ts`); seeing the dashboard itself is the core
 * `dashboard:view` (admins).
 */
import { definePermissions } from "../access/define.ts";

export const DASHBOARD_PERMISSIONS = definePermissions({
  /** The platform cards (connected sessions and companies over every company): super users only. */
  "dashboard:platform": [],
});
