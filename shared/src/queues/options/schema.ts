/**
 * Queue option: one node of a queue's chatbot tree (docs/product/queues.md#options: id, title, message, option
 * (position), queueId, parentId, mediaPath, mediaName, children). Root options have `parentId` null.
 * `option` is what the customer types to pick it ("1", "2", ...); siblings are shown ordered by `option`.
 */
import { z } from "zod";
import { zId } from "../../common.ts";
// The queue error codes named below (type only: nothing of it reaches the web bundle).
import type {} from "../errors.ts";
import { defineAttachmentKind } from "../../media/kinds.ts";
import { attachedMedia } from "../../media/schema.ts";

/** A queue option's media (sent with its message when the option is reached): any type, the outbound limit of its type. */
export const QUEUE_OPTION_MEDIA = defineAttachmentKind({ folder: "queue-options", missingFile: "ERR_QUEUE_MEDIA_REQUIRED" });

export const QueueOptionItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  queueId: z.number().int(),
  parentId: z.number().int().nullable().default(null),
  title: z.string(),
  message: z.string().default(""),
  option: z.string(),
  /** The option's media under `media/<cid>/`, sent with the message when the option is reached. */
  ...attachedMedia,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QueueOptionItem = z.infer<typeof QueueOptionItem>;

/** A node with its children (GET responses and the bot's walk). */
export type QueueOptionNode = QueueOptionItem & { children: QueueOptionNode[] };

/** Sibling order: numeric options numerically ("2" before "10"), then text, then creation. */
export function compareOptions(a: Pick<QueueOptionItem, "option" | "createdAt">, b: Pick<QueueOptionItem, "option" | "createdAt">): number {
  const na = Number(a.option);
  const nb = Number(b.option);
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  return a.option.localeCompare(b.option) || a.createdAt.localeCompare(b.createdAt);
}

/** Builds the ordered tree of a queue's options (items of one queue, any order). Orphans (lost parent) are dropped. */
export function buildOptionTree(items: QueueOptionItem[]): QueueOptionNode[] {
  const nodes = new Map(items.map((i) => [i.id, { ...i, children: [] as QueueOptionNode[] }]));
  const roots: QueueOptionNode[] = [];
  for (const n of nodes.values()) {
    if (n.parentId == null) roots.push(n);
    else nodes.get(n.parentId)?.children.push(n);
  }
  const sort = (list: QueueOptionNode[]) => {
    list.sort(compareOptions);
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

/** A node as the API answers it: the stored fields and its ordered children (whole subtree). */
export const QueueOptionView: z.ZodType<QueueOptionNode> = z.lazy(() => QueueOptionItem.extend({ children: z.array(QueueOptionView) })) as never;

/** `-1`, empty or absent = top level (the old clients send `parentId` -1 for the top level). */
const parentRef = z.union([z.enum(["", "-1"]).transform(() => null), z.literal(-1).transform(() => null), z.null(), zId]);
/** A position typed by the admin: a whole number 1-99 (what the customer types to pick the option). */
const position = z.coerce.string().trim().regex(/^[1-9]\d?$/, "Invalid position");

/** `GET /api/queue-options` query: `queueId` required; `parentId` absent or -1 = the whole tree from the top level. */
export const ListQueueOptionsQuery = z.object({ queueId: zId, parentId: parentRef.optional() });

/** `POST /api/queue-options`: `option` absent = after the last sibling. */
export const CreateQueueOptionBody = z.object({
  queueId: zId,
  parentId: parentRef.optional(),
  title: z.string({ error: (iss) => (iss.input == null ? "Required" : "Invalid input") }).trim().min(1, "Required").max(100, "Too Long!"),
  message: z.string().max(4096, "Too Long!").default(""),
  option: position.optional(),
});
export type CreateQueueOptionBody = z.infer<typeof CreateQueueOptionBody>;

/** `PUT /api/queue-options/{id}`: absent = unchanged; a new `option` moves the node among its siblings. */
export const UpdateQueueOptionBody = z.object({
  title: z.string().trim().min(1, "Required").max(100, "Too Long!").optional(),
  message: z.string().max(4096, "Too Long!").optional(),
  option: position.optional(),
});
export type UpdateQueueOptionBody = z.infer<typeof UpdateQueueOptionBody>;

/** `company-{id}-queueOption` frames: the option changed (or the deleted one's id) and the queue's whole tree after it. */
const tree = z.object({ queueId: z.number().int(), options: z.array(QueueOptionView) });
export const QueueOptionFrame = z.discriminatedUnion("action", [
  tree.extend({ action: z.literal("create"), option: QueueOptionItem }),
  tree.extend({ action: z.literal("update"), option: QueueOptionItem }),
  tree.extend({ action: z.literal("delete"), optionId: z.number().int() }),
]);
export type QueueOptionFrame = z.infer<typeof QueueOptionFrame>;
