/**
 * A background job's progress (`GET /api/jobs/{jobId}` and the `company-{id}-job` frames), cached under
 * `["jobs", id]`. Frames write the cache as they come; `useJob` polls the route every 2 s while the job runs, and
 * skips the network when a frame arrived in the last 2 s (so polling only carries it when frames do not come).
 */
import { JobView } from "@atende/shared/jobs/schema";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { call } from "../../api/operations.ts";
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { isStale } from "../../ui/kit/crud.ts";

/** How often a running job is read when no frame came in between (ms). */
export const JOB_POLL_MS = 2000;

export const jobKey = (id: string) => ["jobs", id] as const;

/** When each job's last frame arrived (ms since epoch). */
const lastFrameAt = new Map<string, number>();

/** Puts `job` in the cache unless the cached one is newer. */
function putJob(qc: QueryClient, job: JobView): void {
  qc.setQueryData<JobView>(jobKey(job.id), (cached) => (isStale(cached, job) ? cached : job));
}

/** `company-{id}-job` `{action: "update", job}`: the progress of a job this user started; other shapes are ignored. */
export const jobFrame: RealtimeHandler<"job"> = (data, { queryClient }) => {
  const parsed = JobView.safeParse(data.job);
  if (data.action !== "update" || !parsed.success) return;
  lastFrameAt.set(parsed.data.id, Date.now());
  putJob(queryClient, parsed.data);
};

/** Job `id`'s view (null id: nothing), read every {@link JOB_POLL_MS} while it runs unless frames keep it current. */
export function useJob(id: string | null) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: jobKey(id ?? ""),
    enabled: !!id,
    queryFn: async () => {
      const cached = qc.getQueryData<JobView>(jobKey(id ?? ""));
      if (cached && Date.now() - (lastFrameAt.get(cached.id) ?? 0) < JOB_POLL_MS) return cached;
      return call("GET /api/jobs/{jobId}", { params: { jobId: id ?? "" } });
    },
    refetchInterval: (q) => (q.state.data?.status === "running" && !q.state.error ? JOB_POLL_MS : false),
    retry: 1,
  });
}

/** Seeds the cache with a job a route just started (its 202 answer), so progress shows before the first read. */
export function useSeedJob() {
  const qc = useQueryClient();
  return useCallback((job: JobView) => putJob(qc, job), [qc]);
}
