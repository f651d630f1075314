/**
 * Consumer of the push queue: each message is a fan-out of one pushed fact or a retry of one device
 * (`shared/src/push/schema.ts` `PushMessage`, parsed with zod; an unreadable one is logged and dropped). The work is
 * `shared/src/push/delivery.ts`; a record that throws is returned in `batchItemFailures` and comes back after the
 * visibility timeout (its devices' notifications collapse by tag if sent twice).
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { log } from "@atende/shared/log";
import { handlePushMessage } from "@atende/shared/push/delivery";
import { PushMessage } from "@atende/shared/push/schema";
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
      const parsed = PushMessage.safeParse(raw);
      if (!parsed.success) {
        log("error", "push message unreadable: dropped", { messageId: r.messageId });
        return;
      }
      try {
        await handlePushMessage(parsed.data);
      } catch (err) {
        log("error", "push message failed; it comes back", { type: parsed.data.type, companyId: parsed.data.companyId, err });
        batchItemFailures.push({ itemIdentifier: r.messageId });
      }
    }),
  );
  return { batchItemFailures };
}
