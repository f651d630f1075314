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
import { z } from "zod";
import { ScheduleDispatchMessage } from "@atende/shared/schedules/schema";
import { sendDueSchedule } from "@atende/shared/schedules/send";
import { CampaignDispatchMessage } from "@atende/shared/campaigns/schema";
import { sendShipping } from "@atende/shared/campaigns/engine";
import { framesOf, PlatformFramesMessage } from "@atende/shared/realtime/platform";
import { sendPlatformShardFrames } from "@atende/shared/realtime/publish";
import type { SqsEvent } from "./command-dlq.ts";
import { type BatchResult, consumeRecords } from "./sqs-consumer.ts";

/** The kinds of message the dispatch queue carries, told apart by `kind`. */
const DispatchMessage = z.discriminatedUnion("kind", [CampaignDispatchMessage, PlatformFramesMessage, ScheduleDispatchMessage]);
type DispatchMessage = z.infer<typeof DispatchMessage>;

/** Sends the one due send a message names. Throws when the send fails (the record then comes back). */
async function send(m: DispatchMessage): Promise<void> {
  if (m.kind === "campaign") await sendShipping(m);
  else if (m.kind === "platformFrames") await sendPlatformShardFrames(m.shard, framesOf(m));
  else await sendDueSchedule(m);
}

/** Lambda entry: sends each record's due send; answers the records whose send threw. */
export const handler = (event: SqsEvent): Promise<BatchResult> => consumeRecords(event, DispatchMessage, "dispatch", send, (m) => m);
