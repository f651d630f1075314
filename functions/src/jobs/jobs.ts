/**
 * Consumer of the background jobs queue (`shared/src/jobs/`): each message names a job (`{companyId, jobId}`, parsed
 * with zod; an unreadable one is logged and dropped). The job runs step by step from its last saved step for about
 * 20 s; with work left it queues itself again. A step that throws returns the record in `batchItemFailures`
 * (ReportBatchItemFailures): it comes back after the visibility timeout and the job goes on from where it stopped.
 */
import { JobMessage } from "@atende/shared/jobs/schema";
import { runJob } from "@atende/shared/jobs/service";
// The features whose job kinds this consumer runs register them at import.
import "@atende/shared/tags/service";
import "@atende/shared/tickets/actions";
import "@atende/shared/privacy/service";
import "@atende/shared/reports/export";
import "@atende/shared/companies/purge";
import "@atende/shared/contacts/import";
import "@atende/shared/contactLists/service";
import type { SqsEvent } from "./command-dlq.ts";
import { type BatchResult, consumeRecords } from "./sqs-consumer.ts";

/** How long one message works on its job before queuing the rest (ms): well under the function's 60 s timeout. */
const BUDGET_MS = 20_000;

/** Runs each record's job for up to {@link BUDGET_MS}; a failed step's record comes back (see the file's header). */
export function handler(event: SqsEvent): Promise<BatchResult> {
  return consumeRecords(event, JobMessage, "job", (m) => runJob(m.companyId, m.jobId, BUDGET_MS), (m) => ({ ...m }));
}
