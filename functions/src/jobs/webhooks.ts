/**
 * Consumer of the webhooks queue: each message names one attempt of a company webhook delivery
 * (`{kind: "webhookDelivery", companyId, webhookId, at, eventId, attempt}`, parsed with zod; an unreadable one is
 * logged and dropped). The attempt is made and recorded by `shared/src/webhooks/delivery.ts` (retries go through its
 * timer, not through this queue's redelivery). A record that throws (its outcome not recorded) is returned in
 * `batchItemFailures` and comes back after the visibility timeout; a duplicate is skipped by the delivery's attempt count.
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { log } from "@atende/shared/log";
import { attemptDelivery } from "@atende/shared/webhooks/delivery";
import { WebhookDeliveryMessage } from "@atende/shared/webhooks/schema";
import type { SqsEvent } from "./command-dlq.ts";

export async function handler(event: SqsEvent): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  await Promise.all(
    (event.Records ?? []).map(async (r) => {
      let raw: unknown = null;
      try {
        raw = JSON.parse(r.body);
      } catch {
        // unreadable: dropped below
      }
      const parsed = WebhookDeliveryMessage.safeParse(raw);
      if (!parsed.success) {
        log("error", "webhook message unreadable: dropped", { messageId: r.messageId });
        return;
      }
      try {
        await attemptDelivery(parsed.data);
      } catch (err) {
        log("error", "webhook attempt not recorded; the message comes back", { ...parsed.data, err });
        batchItemFailures.push({ itemIdentifier: r.messageId });
      }
    }),
  );
  return { batchItemFailures };
}
