/**
 * Background jobs (`schema.ts`). A route starts one ({@link startJob}: the job item, then a message on the jobs queue)
 * and answers 202 with its id; the jobs queue's consumer runs it ({@link runJob}) in steps of a few items, saving
 * progress and the resume point after each, and publishing `job.updated`. A consumer that dies (or a Lambda that
 * times out) leaves the message to come back: the next run starts from the last saved step, and each kind's step is
 * idempotent for the items between that save and the death (re-checked, never applied twice).
 */
import { randomUUID } from "node:crypto";
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { getConfig } from "../config.ts";
import { notFound } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { log } from "../log.ts";
import { enqueue } from "../sqs/enqueue.ts";
import "./events.ts";
import { AppError } from "../errors.ts";
import { getJob, putJob, saveJobFailure, saveJobStep } from "./repository.ts";
import { JOB_MAX_ATTEMPTS, type JobItem, type JobKind, JobView } from "./schema.ts";

/** What one step of a kind did: items handled, the total when first known, where the next step starts, and whether it is the last. */
export interface JobStepResult {
  handled: number;
  total?: number;
  cursor: string | null;
  finished: boolean;
  /** What the step counted, added to the job's `result` in the same save. */
  counts?: Record<string, number>;
}

/** One step of a kind: handles at most `limit` items from `job.cursor`; must be idempotent for items handled before. */
export type JobStep = (job: JobItem, limit: number) => Promise<JobStepResult>;

const kinds = new Map<JobKind, { step: JobStep; items: number }>();

/**
 * Registers the step of a job kind (once, at module load, by the feature that owns the work). `items`: the most
 * items one step handles (default {@link JOB_STEP_ITEMS}), for a kind whose items are cheap and written in batches.
 */
export function registerJobKind(kind: JobKind, step: JobStep, opts: { items?: number } = {}): void {
  kinds.set(kind, { step, items: opts.items ?? JOB_STEP_ITEMS });
}

/** `result` with `counts` added key by key. */
function sumCounts(result: Record<string, number> | null, counts: Record<string, number>): Record<string, number> {
  const out = { ...result };
  for (const [k, v] of Object.entries(counts)) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** Items per step: each step is saved, so a death repeats at most this many checks. */
export const JOB_STEP_ITEMS = 25;

const viewOf = (job: JobItem): JobView => JobView.parse(job);

/**
 * Creates job `kind` with `params` for user `userId` of company `companyId` and queues it. Returns its view (status
 * `running`, `done` 0). Throws when the queue refuses the message (the job item is then left unfinished, unseen).
 */
export async function startJob(companyId: number, userId: number, kind: JobKind, params: Record<string, unknown>): Promise<JobView> {
  const now = nowIso();
  const job: JobItem = { id: randomUUID(), companyId, userId, kind, params, status: "running", error: null, attempts: 0, done: 0, total: null, cursor: null, result: null, step: 0, createdAt: now, updatedAt: now };
  await putJob(job);
  await enqueueJob(companyId, job.id);
  return viewOf(job);
}

/**
 * Job `jobId` of the caller's company as the API shows it. Only who started it and the company's admins may read it;
 * anyone else, and a job of another company or past its 7 days, gets `ERR_NOT_FOUND` (nothing tells them it exists).
 */
export async function showJob(auth: AuthContext, jobId: string): Promise<JobView> {
  const job = await getJob(auth.companyId, jobId);
  if (!job || (job.userId !== auth.userId && !can(auth, "jobs:readAny"))) throw notFound();
  return viewOf(job);
}

async function enqueueJob(companyId: number, jobId: string): Promise<void> {
  const url = getConfig().JOBS_QUEUE_URL;
  if (!url) throw new Error("JOBS_QUEUE_URL is not set");
  await enqueue(url, { companyId, jobId });
}

/**
 * Runs job `jobId` of company `companyId` step by step for about `budgetMs` (ms); when time is up with work left, it
 * queues itself again and returns `"continued"`. `"done"` when finished (or already), `"failed"` when a step failed
 * for good (or already had), `"lost"` when another consumer saved a step first, `"unknown"` for a job that does not
 * exist. A step that throws: an {@link AppError} fails the job at once with its code (the user's business, e.g. a
 * file that cannot be read); any other error propagates (the message comes back and the step runs again) until the
 * step has failed {@link JOB_MAX_ATTEMPTS} times, when the job fails with `ERR_INTERNAL` (logged). A failed job publishes
 * `job.updated` like a step, so the screen that follows it shows the error.
 */
export async function runJob(companyId: number, jobId: string, budgetMs = 20_000): Promise<"done" | "failed" | "continued" | "lost" | "unknown"> {
  const started = Date.now();
  let job = await getJob(companyId, jobId);
  if (!job) return "unknown";
  const kind = kinds.get(job.kind);
  if (!kind) throw new Error(`no step registered for job kind ${job.kind}`);
  while (job.status === "running") {
    if (Date.now() - started > budgetMs) {
      await enqueueJob(companyId, jobId);
      return "continued";
    }
    let r: JobStepResult;
    try {
      r = await kind.step(job, kind.items);
    } catch (err) {
      const error = err instanceof AppError ? err.code : job.attempts + 1 >= JOB_MAX_ATTEMPTS ? "ERR_INTERNAL" : null;
      const saved = await saveJobFailure(job, error, nowIso());
      if (!saved || !error) throw err;
      log("error", "job failed", { companyId, jobId, kind: job.kind, error, err });
      await dispatch({ type: "job.updated", companyId, userId: saved.userId, job: viewOf(saved) });
      return "failed";
    }
    const total = r.total ?? job.total;
    // A finished job handled everything, including items a dead consumer handled in a step it could not save.
    const done = r.finished ? Math.max(job.done + r.handled, total ?? 0) : job.done + r.handled;
    const saved: JobItem | null = await saveJobStep(job, {
      done,
      total,
      cursor: r.cursor,
      result: r.counts ? sumCounts(job.result, r.counts) : job.result,
      status: r.finished ? "done" : "running",
      updatedAt: nowIso(),
    });
    if (!saved) {
      log("info", "job step saved by another consumer", { companyId, jobId });
      return "lost";
    }
    job = saved;
    await dispatch({ type: "job.updated", companyId, userId: job.userId, job: viewOf(job) });
  }
  return job.status === "failed" ? "failed" : "done";
}
