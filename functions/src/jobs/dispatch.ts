/**
 * Consumer of the dispatch queue: each message names one send the minute tick found due (`{kind: "schedule",
 * companyId, scheduleId}`, parsed with zod; an unreadable one is logged and dropped). A scheduled message goes out
 * exactly once however often its message is delivered (`shared/src/schedules/send.ts`). A campaign's shipping
 * (`{kind: "campaign", companyId, campaignId, seq, run}`, planned by the campaign's timer) likewise
 * (`shared/src/campaigns/engine.ts`). Platform frames (`{kind: "platformFrames", shard, frames}`, an announcement for
 * every company) are posted to the sockets of that shard of the platform channel (`shared/src/realtime/platform.ts`;
 * best-effort: a redelivery posts again). A send that throws returns
 * the record in `batchItemFailures` (ReportBatchItemFailures): it comes back after the visibility timeout.
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { log } from "@atende/shared/log";
import { ScheduleDispatchMessage } from "@atende/shared/schedules/schema";
import { sendDueSchedule } from "@atende/shared/schedules/send";
import { CampaignDispatchMessage } from "@atende/shared/campaigns/schema";
import { sendShipping } from "@atende/shared/campaigns/engine";
import { framesOf, PlatformFramesMessage } from "@atende/shared/realtime/platform";
import { sendPlatformShardFrames } from "@atende/shared/realtime/publish";
import type { SqsEvent } from "./command-dlq.ts";

/** The kinds of message the dispatch queue carries. */
const DispatchMessage = {
  safeParse: (v: unknown) => {
    const campaign = CampaignDispatchMessage.safeParse(v);
    if (campaign.success) return campaign;
    const platform = PlatformFramesMessage.safeParse(v);
    return platform.success ? platform : ScheduleDispatchMessage.safeParse(v);
  },
};

export async function handler(event: SqsEvent): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  await Promise.all(
    (event.Records ?? []).map(async (r) => {
      const parsed = DispatchMessage.safeParse(
        (() => {
          try {
            return JSON.parse(r.body);
          } catch {
            return null;
          }
        })(),
      );
      if (!parsed.success) {
        log("error", "dispatch message unreadable: dropped", { messageId: r.messageId });
        return;
      }
      try {
        if (parsed.data.kind === "campaign") await sendShipping(parsed.data);
        else if (parsed.data.kind === "platformFrames") await sendPlatformShardFrames(parsed.data.shard, framesOf(parsed.data));
        else await sendDueSchedule(parsed.data);
      } catch (err) {
        log("error", "dispatch send failed; the message comes back", { ...parsed.data, err });
        batchItemFailures.push({ itemIdentifier: r.messageId });
      }
    }),
  );
  return { batchItemFailures };
}
