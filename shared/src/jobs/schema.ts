/**
 * Background jobs: work too long for one request (deleting a tag from every ticket, closing every ticket of a tab),
 * run by the jobs queue's consumer in resumable steps. One item per job holds its progress (`done` of `total`) and
 * where its next step starts (`cursor`), so a consumer that dies goes on from the last step it saved.
 */
import { z } from "zod";

export const JobKind = z.enum(["deleteTag", "closeAllTickets", "exportContactData", "eraseContactData", "deleteCompany", "exportReport", "importPhoneBook", "importContactList"]);
export type JobKind = z.infer<typeof JobKind>;

export const JobItem = z.object({
  id: z.string().uuid(),
  companyId: z.number().int(),
  /** Who started it: the realtime progress frames go to them. */
  userId: z.number().int(),
  kind: JobKind,
  params: z.record(z.string(), z.unknown()),
  /** `failed`: a step failed for good (see `error`); the job stops where it was. */
  status: z.enum(["running", "done", "failed"]),
  /** Why a failed job stopped: an error table code (`ERR_INTERNAL` when the cause is not the user's business). */
  error: z.string().nullable().default(null),
  /** Failed runs of the current step so far (a step failing {@link JOB_MAX_ATTEMPTS} times fails the job). */
  attempts: z.number().int().default(0),
  /** Items handled so far, and how many there were when the job started counting (null before). */
  done: z.number().int(),
  total: z.number().int().nullable(),
  /** The kind's own resume point (JSON), null before the first step. */
  cursor: z.string().nullable(),
  /** What the kind counted so far (e.g. contacts added, existing, skipped), summed over the saved steps. */
  result: z.record(z.string(), z.number().int()).nullable().default(null),
  /** Steps saved so far: each save is conditioned on the one read, so two consumers never both apply a step. */
  step: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type JobItem = z.infer<typeof JobItem>;

/** Runs of one step that may fail (each comes back through the queue) before the job is marked failed. */
export const JOB_MAX_ATTEMPTS = 3;

/** A job as the API and the realtime frame `company-{id}-job` show it. */
export const JobView = JobItem.pick({ id: true, kind: true, status: true, error: true, done: true, total: true, result: true, createdAt: true, updatedAt: true });
export type JobView = z.infer<typeof JobView>;

/** `GET /api/jobs/{jobId}`'s path: the job's id, a UUID. */
export const JobIdParams = z.object({ jobId: z.string().uuid() });

/** The jobs queue's message body: which job to run (parsed at the consumer's edge). */
export const JobMessage = z.object({ companyId: z.number().int().positive(), jobId: z.string().uuid() });
export type JobMessage = z.infer<typeof JobMessage>;

/** What a route that starts a job answers (202): the job, to follow by its id. */
export const JobStarted = z.object({ message: z.string(), jobId: z.string().uuid(), job: JobView });

/** `company-{id}-job` frames: the job as `GET /api/jobs/{jobId}` shows it. */
export const JobFrame = z.object({ action: z.literal("update"), job: JobView });
export type JobFrame = z.infer<typeof JobFrame>;
