/**
 * The shared loop of an SQS consumer whose records are independent: every record's body is parsed with `schema` at
 * the edge (an unreadable one is logged and dropped, never retried), the parsed ones are handled concurrently, and a
 * record whose handling throws is returned in `batchItemFailures` (ReportBatchItemFailures) so that only it comes back
 * after the visibility timeout.
 */
import type { z } from "zod";
import { log } from "@atende/shared/log";
import type { SqsEvent } from "./command-dlq.ts";

/** What an SQS consumer with partial batch failures answers Lambda. */
export interface BatchResult {
  batchItemFailures: { itemIdentifier: string }[];
}

/**
 * Handles `event`'s records with `handle` after parsing each with `schema`. `name` names the queue's messages in the
 * log lines; `context` picks what of a failed message the log line carries (default: nothing but its id).
 */
export async function consumeRecords<S extends z.ZodType>(
  event: SqsEvent,
  schema: S,
  name: string,
  handle: (message: z.infer<S>) => Promise<unknown>,
  context: (message: z.infer<S>) => Record<string, unknown> = () => ({}),
): Promise<BatchResult> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  await Promise.all(
    (event.Records ?? []).map(async (r) => {
      let raw: unknown = null;
      try {
        raw = JSON.parse(r.body);
      } catch {
        // unreadable: dropped below
      }
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        log("error", `${name} message unreadable: dropped`, { messageId: r.messageId });
        return;
      }
      try {
        await handle(parsed.data);
      } catch (err) {
        log("error", `${name} message failed; it comes back`, { messageId: r.messageId, ...context(parsed.data), err });
        batchItemFailures.push({ itemIdentifier: r.messageId });
      }
    }),
  );
  return { batchItemFailures };
}
