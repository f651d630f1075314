/**
 * Background jobs' permissions, declared from the feature's folder (composed into `access/permissions.ts`): who may
 * follow a job somebody else started (the starter always follows their own).
 */
import { definePermissions } from "../access/define.ts";

export const JOB_PERMISSIONS = definePermissions({
  /** Reading the progress of any job of the company (`GET /api/jobs/{jobId}`), not only one's own. */
  "jobs:readAny": ["admin"],
});
