/**
 * Jobs' domain event: `job.updated` carries the job as the API shows it after each saved step; the realtime frame
 * `company-{id}-job` `{action: "update", job}` goes to the user who started it (their progress bar).
 */
import { z } from "zod";
import { defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { JobFrame, JobView } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "job.updated": { type: "job.updated"; companyId: number; userId: number; job: JobView };
  }
}

defineEvents({
  "job.updated": z.object({ type: z.literal("job.updated"), companyId: z.number().int(), userId: z.number().int(), job: JobView }),
});

defineFrames({ job: JobFrame });

realtimeFrames("job.updated", (e) => [{ name: "job", data: { action: "update", job: e.job }, audience: { kind: "user", userId: e.userId } }]);
