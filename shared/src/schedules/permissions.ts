/**
 * Scheduled messages' permissions, declared from the feature's folder (composed into `access/permissions.ts`). Every
 * user of the company sees the company's schedules and schedules messages; who may change one: `canEditSchedule` in
 * `./access.ts`.
 */
import { definePermissions } from "../access/define.ts";

export const SCHEDULE_PERMISSIONS = definePermissions({
  /** Editing and deleting every schedule of the company; a user only the ones they scheduled. */
  "schedules:editAny": ["admin", "supervisor"],
});
