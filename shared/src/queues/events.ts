/**
 * Queues' domain events (see `docs/architecture.md` §4): `queue.created|updated` carry the stored queue,
 * `queue.deleted` its id. Realtime frame `company-{id}-queue` `{action, queue | queueId}` to the whole company.
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { QueueFrame, QueueItem } from "./schema.ts";

type Base<T extends string> = { type: T; companyId: number };

declare module "../events/registry.ts" {
  interface EventMap {
    "queue.created": Base<"queue.created"> & { queue: QueueItem };
    "queue.updated": Base<"queue.updated"> & { queue: QueueItem };
    "queue.deleted": Base<"queue.deleted"> & { queueId: number };
  }
}

defineEvents({
  "queue.created": baseEvent("queue.created").extend({ queue: QueueItem }),
  "queue.updated": baseEvent("queue.updated").extend({ queue: QueueItem }),
  "queue.deleted": baseEvent("queue.deleted").extend({ queueId: z.number().int() }),
});

defineFrames({ queue: QueueFrame });

realtimeFrames("queue.created", (e) => [{ name: "queue", data: { action: "create", queue: e.queue } }]);
realtimeFrames("queue.updated", (e) => [{ name: "queue", data: { action: "update", queue: e.queue } }]);
realtimeFrames("queue.deleted", (e) => [{ name: "queue", data: { action: "delete", queueId: e.queueId } }]);
