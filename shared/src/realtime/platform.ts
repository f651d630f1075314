/**
 * Platform frames off the request (docs/product/announcements.md#live): a frame for every company (an announcement)
 * becomes one message per shard of the platform channel on the dispatch queue, `{kind: "platformFrames", shard,
 * frames}`; the dispatch consumer (`functions/src/jobs/dispatch.ts`) parses it with {@link PlatformFramesMessage} and
 * posts to that shard's sockets (`publish.ts` `sendPlatformShardFrames`). The writer's request only enqueues
 * (one SendMessageBatch per ten shards), whatever the number of sockets; each shard is its own job, so the send time
 * stays that of one shard as sockets grow. Frames are best-effort: a redelivered message posts its shard again, a
 * shard whose listing failed comes back alone (the others are done).
 */
import { z } from "zod";
import { PERMISSIONS, type Permission } from "../access/permissions.ts";
import { getConfig } from "../config.ts";
import { WS_PLATFORM_SHARDS } from "../db/keys.ts";
import { log } from "../log.ts";
import { enqueueBatch } from "../sqs/enqueue.ts";
import { type Audience, type OutboundFrame, sendPlatformFrames } from "./publish.ts";

/** The audiences a platform frame may carry (whoever of each company's sockets: everyone, admins, one user, a permission). */
const PlatformAudience = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("company") }),
  z.object({ kind: z.literal("admins") }),
  z.object({ kind: z.literal("user"), userId: z.number().int() }),
  z.object({
    kind: z.literal("permission"),
    permission: z.string().refine((p): p is Permission => p in PERMISSIONS, "Unknown permission"),
    not: z.boolean().optional(),
    alsoUserId: z.number().int().optional(),
    exceptUserId: z.number().int().optional(),
  }),
]);

/** A dispatch-queue message: the platform frames to post to the sockets of one shard of the platform channel. */
export const PlatformFramesMessage = z.object({
  kind: z.literal("platformFrames"),
  shard: z.number().int().min(0).max(WS_PLATFORM_SHARDS - 1),
  frames: z.array(z.object({ name: z.string().min(1), data: z.unknown(), audience: PlatformAudience, room: z.string().optional() })).min(1),
});
export type PlatformFramesMessage = z.infer<typeof PlatformFramesMessage>;

/** The frames of a parsed message, as the sender takes them. */
export const framesOf = (m: PlatformFramesMessage): OutboundFrame[] => m.frames.map((f) => ({ ...f, audience: f.audience as Audience }));

/**
 * Queues platform frames: one dispatch-queue message per shard of the platform channel ({@link WS_PLATFORM_SHARDS}).
 * Without a dispatch queue (a test or tool with no SQS) they are sent from this process instead. Never throws: a
 * shard SQS refused is logged (frames are best-effort; the web refetches announcements when it reconnects).
 */
export async function queuePlatformFrames(frames: OutboundFrame[]): Promise<void> {
  if (!frames.length) return;
  const url = getConfig().DISPATCH_QUEUE_URL;
  if (!url) return sendPlatformFrames(frames);
  const messages: PlatformFramesMessage[] = Array.from({ length: WS_PLATFORM_SHARDS }, (_, shard) => ({
    kind: "platformFrames",
    shard,
    frames: frames.map((f) => ({ ...f, audience: f.audience as PlatformFramesMessage["frames"][number]["audience"] })),
  }));
  try {
    const refused = await enqueueBatch(url, messages);
    if (refused.length) log("warn", "realtime: platform frames not queued for some shards", { shards: refused.map((m) => m.shard) });
  } catch (err) {
    log("warn", "realtime: platform frames not queued", { err });
  }
}
