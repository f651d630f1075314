/**
 * Consumer of the webhooks queue: each message names one attempt of a company webhook delivery
 * (`{kind: "webhookDelivery", companyId, webhookId, at, eventId, attempt}`, parsed with zod; an unreadable one is
 * logged and dropped). The attempt is made and recorded by `shared/src/webhooks/delivery.ts` (retries go through its
 * timer, not through this queue's redelivery). A record that throws (its outcome not recorded) is returned in
 * `batchItemFailures` and comes back after the visibility timeout; a duplicate is skipped by the delivery's attempt count.
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { attemptDelivery } from "@atende/shared/webhooks/delivery";
import { WebhookDeliveryMessage } from "@atende/shared/webhooks/schema";
import type { SqsEvent } from "./command-dlq.ts";
import { type BatchResult, consumeRecords } from "./sqs-consumer.ts";

export const handler = (event: SqsEvent): Promise<BatchResult> => consumeRecords(event, WebhookDeliveryMessage, "webhook", attemptDelivery, (m) => ({ ...m }));
