/**
 * Queue option rules (docs/product/queues.md#options): the nested chatbot tree of a queue.
 *
 * - Admins only (`can(actor, "queues:manage")`, 403 `ERR_NO_PERMISSION`); the queue and the option must be of the
 *   caller's company (404 `ERR_NO_QUEUE_FOUND` / `ERR_NO_QUEUE_OPTION_FOUND`, never another company's data).
 * - Siblings are numbered 1..n by `option` (what the customer types). A new option goes last unless a position is
 *   given; giving a node a position moves it there and renumbers its siblings, so a menu never has gaps or twins.
 * - Deleting an option deletes its whole subtree and renumbers the remaining siblings.
 * - Media: one file per option under `media/<cid>/queue-options/<id>/` (size and MIME type recorded), sent with the
 *   option's message by the bot; the object a new upload replaces, a removal drops or a deleted subtree held is deleted
 *   from S3 (messages already sent keep their own copy).
 * - Every change dispatches `queueOption.created|updated|deleted` with the queue's whole tree (`./events.ts`: frame
 *   `company-{id}-queueOption` to admins), so other admins' open queue dialogs follow live; the bot reads the
 *   repository at each step.
 */
import { can } from "../../access/permissions.ts";
import type { AuthContext } from "../../auth/tokens.ts";
import { nextId } from "../../db/counters.ts";
import { AppError } from "../../errors.ts";
import { dispatch } from "../../events/index.ts";
import { dropAttachments, replaceAttachment, type Upload } from "../../media/attachments.ts";
import { NO_MEDIA } from "../../media/schema.ts";
import "../errors.ts";
import { getQueue } from "../repository.ts";
import "./events.ts";
import { deleteQueueOptions, getQueueOption, listQueueOptions, putQueueOption } from "./repository.ts";
import { buildOptionTree, compareOptions, QUEUE_OPTION_MEDIA, type CreateQueueOptionBody, type QueueOptionItem, type QueueOptionNode, type UpdateQueueOptionBody } from "./schema.ts";

const requireAdmin = (a: AuthContext) => {
  if (!can(a, "queues:manage")) throw new AppError("ERR_NO_PERMISSION", 403);
};

async function requireQueue(companyId: number, queueId: number) {
  const q = await getQueue(companyId, queueId);
  if (!q) throw new AppError("ERR_NO_QUEUE_FOUND", 404);
  return q;
}

async function requireOption(companyId: number, optionId: number): Promise<QueueOptionItem> {
  const o = await getQueueOption(companyId, optionId);
  if (!o) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
  return o;
}

/** The node `id` with its subtree, found in a queue's flat list. */
function nodeOf(all: QueueOptionItem[], id: number): QueueOptionNode | undefined {
  return nodeIn(buildOptionTree(all), id);
}

/** The queue's tree as stored now. */
const treeOf = async (companyId: number, queueId: number) => buildOptionTree(await listQueueOptions(companyId, queueId));

/** Tells the company's admins that option `option` of the queue changed; returns the tree it sent. */
async function announce(kind: "created" | "updated", option: QueueOptionItem): Promise<QueueOptionNode[]> {
  const options = await treeOf(option.companyId, option.queueId);
  const stored = nodeIn(options, option.id) ?? { ...option, children: [] };
  const { children: _children, ...item } = stored;
  await dispatch({ type: `queueOption.${kind}`, companyId: option.companyId, queueId: option.queueId, option: item, options });
  return options;
}

/** Node `id` in a built tree. */
function nodeIn(list: QueueOptionNode[], id: number): QueueOptionNode | undefined {
  for (const n of list) {
    if (n.id === id) return n;
    const hit = nodeIn(n.children, id);
    if (hit) return hit;
  }
  return undefined;
}

/** Every node of a subtree, itself first. */
const flatten = (n: QueueOptionNode): QueueOptionNode[] => [n, ...n.children.flatMap(flatten)];

/**
 * Renumbers the siblings under `parentId` 1..n in their current order, with `moved` (if given) placed at `position`
 * (1-based, clamped); writes only the options whose number changed. Returns the siblings as stored.
 */
async function renumber(all: QueueOptionItem[], parentId: number | null, moved?: { id: number; position: number }): Promise<QueueOptionItem[]> {
  const siblings = all.filter((o) => o.parentId === parentId).sort(compareOptions);
  if (moved) {
    const i = siblings.findIndex((o) => o.id === moved.id);
    if (i >= 0) {
      const [it] = siblings.splice(i, 1);
      siblings.splice(Math.max(0, Math.min(siblings.length, moved.position - 1)), 0, it);
    }
  }
  const now = new Date().toISOString();
  const out: QueueOptionItem[] = [];
  for (const [i, o] of siblings.entries()) {
    const option = String(i + 1);
    if (o.option === option) {
      out.push(o);
      continue;
    }
    const next = { ...o, option, updatedAt: now };
    await putQueueOption(next);
    out.push(next);
  }
  return out;
}

/**
 * `GET /api/queue-options?queueId&parentId` (admin): the options under `parentId` (absent or -1: the top level), each
 * with its ordered subtree. Unknown queue (or another company's) → 404 `ERR_NO_QUEUE_FOUND`.
 */
export async function listOptions(auth: AuthContext, queueId: number, parentId: number | null = null): Promise<QueueOptionNode[]> {
  requireAdmin(auth);
  await requireQueue(auth.companyId, queueId);
  const all = await listQueueOptions(auth.companyId, queueId);
  if (parentId == null) return buildOptionTree(all);
  const parent = nodeOf(all, parentId);
  if (!parent) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
  return parent.children;
}

/**
 * `POST /api/queue-options` (admin): a new option in the caller's queue, under `parentId` (which must be an option of
 * the same queue, else 404 `ERR_NO_QUEUE_OPTION_FOUND`), at `option` or last. Returns it with no children.
 */
export async function createOption(auth: AuthContext, body: CreateQueueOptionBody): Promise<QueueOptionNode> {
  requireAdmin(auth);
  await requireQueue(auth.companyId, body.queueId);
  const parentId = body.parentId ?? null;
  const all = await listQueueOptions(auth.companyId, body.queueId);
  if (parentId !== null && !all.some((o) => o.id === parentId)) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
  const now = new Date().toISOString();
  const siblings = all.filter((o) => o.parentId === parentId).length;
  const o: QueueOptionItem = {
    id: await nextId(auth.companyId, "queueOption"),
    companyId: auth.companyId,
    queueId: body.queueId,
    parentId,
    title: body.title,
    message: body.message,
    option: String(siblings + 1),
    mediaPath: null,
    mediaName: null,
    createdAt: now,
    updatedAt: now,
  };
  await putQueueOption(o);
  const position = body.option ? Number(body.option) : siblings + 1;
  const stored = (await renumber([...all, o], parentId, { id: o.id, position })).find((x) => x.id === o.id) ?? o;
  await announce("created", stored);
  return { ...stored, children: [] };
}

/**
 * `PUT /api/queue-options/{id}` (admin): changes title and message; a new `option` moves the node to that position
 * among its siblings (the others renumbered). Returns the node with its subtree.
 */
export async function updateOption(auth: AuthContext, optionId: number, body: UpdateQueueOptionBody): Promise<QueueOptionNode> {
  requireAdmin(auth);
  const before = await requireOption(auth.companyId, optionId);
  const after: QueueOptionItem = {
    ...before,
    ...(body.title !== undefined ? { title: body.title } : {}),
    ...(body.message !== undefined ? { message: body.message } : {}),
    updatedAt: new Date().toISOString(),
  };
  await putQueueOption(after);
  const all = (await listQueueOptions(auth.companyId, before.queueId)).map((o) => (o.id === after.id ? { ...after, option: o.option } : o));
  if (body.option !== undefined) await renumber(all, before.parentId, { id: before.id, position: Number(body.option) });
  const node = nodeIn(await announce("updated", after), optionId);
  if (!node) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
  return node;
}

/** `DELETE /api/queue-options/{id}` (admin): deletes the option and its whole subtree; its siblings are renumbered. */
export async function deleteOption(auth: AuthContext, optionId: number): Promise<void> {
  requireAdmin(auth);
  const o = await requireOption(auth.companyId, optionId);
  const all = await listQueueOptions(auth.companyId, o.queueId);
  const node = nodeOf(all, optionId);
  const doomed = node ? flatten(node) : [o];
  await deleteQueueOptions(doomed);
  await dropAttachments(...doomed.map((d) => d.mediaPath));
  const gone = new Set(doomed.map((d) => d.id));
  await renumber(
    all.filter((x) => !gone.has(x.id)),
    o.parentId,
  );
  await dispatch({ type: "queueOption.deleted", companyId: auth.companyId, queueId: o.queueId, optionId, options: await treeOf(auth.companyId, o.queueId) });
}

/**
 * `POST /api/queue-options/{id}/media-upload` (admin, multipart): stores the file under the company's media prefix
 * and sets the option's `mediaPath`/`mediaName`. 400 `ERR_QUEUE_MEDIA_REQUIRED` without a file.
 */
export async function uploadOptionMedia(auth: AuthContext, optionId: number, upload: { files: Upload[] } | undefined): Promise<QueueOptionNode> {
  requireAdmin(auth);
  const before = await requireOption(auth.companyId, optionId);
  await replaceAttachment(QUEUE_OPTION_MEDIA, auth.companyId, optionId, upload, before.mediaPath, (media) =>
    putQueueOption({ ...before, ...media, updatedAt: new Date().toISOString() }),
  );
  return nodeIn(await announce("updated", before), optionId) ?? { ...before, children: [] };
}

/** `DELETE /api/queue-options/{id}/media-upload` (admin): the option keeps its message, without media. */
export async function deleteOptionMedia(auth: AuthContext, optionId: number): Promise<QueueOptionNode> {
  requireAdmin(auth);
  const before = await requireOption(auth.companyId, optionId);
  await putQueueOption({ ...before, ...NO_MEDIA, updatedAt: new Date().toISOString() });
  await dropAttachments(before.mediaPath);
  return nodeIn(await announce("updated", before), optionId) ?? { ...before, children: [] };
}
