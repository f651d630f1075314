/**
 * Queue options' domain events (events pattern of `shared/src/events/README.md`), declared from the
 * feature's own folder. Every change of a queue's chatbot tree (an option created, changed, moved, given or relieved
 * of media, deleted with its subtree) says which option and carries the queue's whole tree as it now is (siblings are
 * renumbered, so one change may move several nodes). Realtime frame `company-{id}-queueOption`
 * `{action: "create"|"update", queueId, option, options}` / `{action: "delete", queueId, optionId, options}` to the
 * holders of `queues:manage` (admins: the only ones who read the tree), so an open queue dialog shows other admins'
 * edits live. The `company-{id}-queue` frames are unchanged.
 */
import { z } from "zod";
import { defineEvents, defineFrames, realtimeFrames } from "../../events/index.ts";
import { QueueOptionFrame, QueueOptionItem, type QueueOptionNode, QueueOptionView } from "./schema.ts";

declare module "../../events/registry.ts" {
  interface EventMap {
    "queueOption.created": { type: "queueOption.created"; companyId: number; queueId: number; option: QueueOptionItem; options: QueueOptionNode[] };
    "queueOption.updated": { type: "queueOption.updated"; companyId: number; queueId: number; option: QueueOptionItem; options: QueueOptionNode[] };
    "queueOption.deleted": { type: "queueOption.deleted"; companyId: number; queueId: number; optionId: number; options: QueueOptionNode[] };
  }
}

const base = <T extends string>(type: T) => z.object({ type: z.literal(type), companyId: z.number().int(), queueId: z.number().int(), options: z.array(QueueOptionView) });
defineEvents({
  "queueOption.created": base("queueOption.created").extend({ option: QueueOptionItem }),
  "queueOption.updated": base("queueOption.updated").extend({ option: QueueOptionItem }),
  "queueOption.deleted": base("queueOption.deleted").extend({ optionId: z.number().int() }),
});

defineFrames({ queueOption: QueueOptionFrame });

const admins = { kind: "permission", permission: "queues:manage" } as const;
realtimeFrames("queueOption.created", (e) => [{ name: "queueOption", data: { action: "create", queueId: e.queueId, option: e.option, options: e.options }, audience: admins }]);
realtimeFrames("queueOption.updated", (e) => [{ name: "queueOption", data: { action: "update", queueId: e.queueId, option: e.option, options: e.options }, audience: admins }]);
realtimeFrames("queueOption.deleted", (e) => [{ name: "queueOption", data: { action: "delete", queueId: e.queueId, optionId: e.optionId, options: e.options }, audience: admins }]);
