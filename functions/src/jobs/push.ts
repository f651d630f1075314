/**
 * Consumer of the push queue: each message is a fan-out of one pushed fact or a retry of one device
 * (`shared/src/push/schema.ts` `PushMessage`, parsed with zod; an unreadable one is logged and dropped). The work is
 * `shared/src/push/delivery.ts`; a record that throws is returned in `batchItemFailures` and comes back after the
 * visibility timeout (its devices' notifications collapse by tag if sent twice).
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { handlePushMessage } from "@atende/shared/push/delivery";
import { PushMessage } from "@atende/shared/push/schema";
import type { SqsEvent } from "./command-dlq.ts";
import { type BatchResult, consumeRecords } from "./sqs-consumer.ts";

export const handler = (event: SqsEvent): Promise<BatchResult> => consumeRecords(event, PushMessage, "push", handlePushMessage, (m) => ({ type: m.type, companyId: m.companyId }));
