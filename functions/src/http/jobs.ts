/**
 * Jobs area: a background job's progress, `GET /api/jobs/{jobId}`. Thin: who may read it is decided by the jobs
 * service. Contract: `shared/src/jobs/contract.ts`.
 */
import { showJob } from "@atende/shared/jobs/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("jobs", {
  "GET /api/jobs/{jobId}": async (ctx) => showJob(ctx.auth, ctx.params.jobId),
});
