/**
 * Background jobs' operations: `GET /api/jobs/{jobId}` reads a job's progress (the web's fallback when the realtime
 * `company-{id}-job` frames do not arrive). Open to the company's users; the service lets only its starter and admins read it.
 */
import { defineRoutes } from "../contract.ts";
import { JobIdParams, JobView } from "./schema.ts";

export const jobsRoutes = defineRoutes("jobs", {
  "GET /api/jobs/{jobId}": { auth: "user", params: JobIdParams, response: JobView },
});
