/**
 * Queue rules (docs/product/queues.md#queues).
 *
 * - Any user of the company reads its queues; admins create, edit and delete them.
 * - name 2-50, unique in the company in any letter case (409 `ERR_QUEUE_NAME_ALREADY_EXISTS`); color 3-9 characters,
 *   a CSS colour (400 `ERR_QUEUE_INVALID_COLOR`, e.g. "azul") and unique in the company (409
 *   `ERR_QUEUE_COLOR_ALREADY_EXISTS`).
 * - Media: one file per queue ({@link QUEUE_MEDIA}, through the media port `media/attachments.ts`),
 *   `POST/DELETE .../media-upload`; its size and MIME type are recorded; the object a new upload replaces, or a
 *   removal drops, is deleted from S3.
 * - Deleting a queue removes it from its users' `queueIds` and deletes its option tree and their media objects.
 * - Every change publishes `company-{id}-queue` `{action: "create"|"update", queue}` or `{action: "delete", queueId}`.
 */
import { planSlot, planSlotRelease, withPlanSlot } from "../plans/service.ts";
import colorString from "color-string";
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { pendingRunPuts } from "../events/durable.ts";
import "./events.ts";
import "../users/events.ts";
import { listUsers, patchUser } from "../users/repository.ts";
import { publicUser } from "../users/service.ts";
import { removeQueueFromWhatsapps } from "../whatsapp/service.ts";
import { NO_MEDIA } from "../media/schema.ts";
import { dropAttachments, replaceAttachment, type Upload } from "../media/attachments.ts";
import { deleteQueueOptions, listQueueOptions } from "./options/repository.ts";
import { countQueues, deleteQueueItems, getQueue, listQueues, putNewQueue, replaceQueue } from "./repository.ts";
import "./errors.ts";
import { QUEUE_MEDIA, type CreateQueueBody, type QueueItem, type UpdateQueueBody } from "./schema.ts";

const requireAdmin = (a: AuthContext) => {
  if (!can(a, "queues:manage")) throw new AppError("ERR_NO_PERMISSION");
};

/** Queue as the API returns it (the stored fields; `companyId` is the caller's). */
export type PublicQueue = QueueItem;

/** `GET /api/queue`: the caller's company queues ordered by `orderQueue` (unset last), then id. */
export async function listCompanyQueues(auth: AuthContext): Promise<PublicQueue[]> {
  const qs = await listQueues(auth.companyId);
  return qs.sort((a, b) => (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) || a.id - b.id);
}

/** `GET /api/queue/{id}`: one queue of the caller's company, else 404 `ERR_NO_QUEUE_FOUND`. */
export async function showQueue(auth: AuthContext, queueId: number): Promise<PublicQueue> {
  const q = await getQueue(auth.companyId, queueId);
  if (!q) throw new AppError("ERR_NO_QUEUE_FOUND");
  return q;
}

/** True when `v` is a CSS colour (hex, a named colour such as "red", rgb()/hsl()/hwb()); "azul" is not. */
export function isCssColor(v: string): boolean {
  return colorString.get(v.trim()) !== null;
}

/** 400 `ERR_QUEUE_INVALID_COLOR` (with the field, so forms show it under the colour) unless `color` is a CSS colour. */
function requireCssColor(color: string | undefined): void {
  if (color !== undefined && !isCssColor(color)) throw new AppError("ERR_QUEUE_INVALID_COLOR", { fields: [{ path: "color", message: "Invalid color" }] });
}

/**
 * 409 `ERR_QUEUE_NAME_ALREADY_EXISTS` / `ERR_QUEUE_COLOR_ALREADY_EXISTS` when another queue of the company has this
 * name or colour (any letter case), read before the id counter so a refused queue takes no id; the markers written
 * with the queue still settle two saves at the same time.
 */
async function requireFreeNameAndColor(companyId: number, name: string, color: string): Promise<void> {
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  const queues = await listQueues(companyId);
  if (queues.some((q) => same(q.name, name))) throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS");
  if (queues.some((q) => same(q.color, color))) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
}

/**
 * `POST /api/queue` (admin): creates a queue in the caller's company; publishes `{action: "create", queue}`. The plan's
 * queue count reached → 403 `ERR_QUEUE_CREATION_COUNT`.
 */
export async function createQueue(auth: AuthContext, body: CreateQueueBody): Promise<PublicQueue> {
  requireAdmin(auth);
  requireCssColor(body.color);
  await requireFreeNameAndColor(auth.companyId, body.name, body.color);
  const slot = await planSlot(auth.companyId, "queues", () => countQueues(auth.companyId));
  const now = new Date().toISOString();
  const q: QueueItem = {
    id: await nextId(auth.companyId, "queue"),
    companyId: auth.companyId,
    name: body.name,
    color: body.color,
    greetingMessage: body.greetingMessage,
    outOfHoursMessage: body.outOfHoursMessage,
    orderQueue: body.orderQueue ?? null,
    integrationId: body.integrationId ?? null,
    promptId: body.promptId ?? null,
    schedules: body.schedules ?? [],
    mediaPath: null,
    mediaName: null,
    createdAt: now,
    updatedAt: now,
  };
  await withPlanSlot(slot, (extra) => putNewQueue(q, extra));
  await dispatch({ type: "queue.created", companyId: auth.companyId, queue: q });
  return q;
}

/** `PUT /api/queue/{id}` (admin): changes the given fields; publishes `{action: "update", queue}`. */
export async function updateQueue(auth: AuthContext, queueId: number, body: UpdateQueueBody): Promise<PublicQueue> {
  requireAdmin(auth);
  requireCssColor(body.color);
  const before = await showQueue(auth, queueId);
  const defined = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const after: QueueItem = { ...before, ...defined, id: before.id, companyId: before.companyId, updatedAt: new Date().toISOString() };
  const event = { type: "queue.updated", companyId: auth.companyId, queue: after } as const;
  await replaceQueue(before, after, pendingRunPuts(event));
  await dispatch(event);
  return after;
}

/**
 * `DELETE /api/queue/{id}` (admin): deletes the queue and its colour marker, removes it from the users that had it
 * (each gets a `company-{id}-user` update) and from the connections that routed to it (each gets a `whatsapp`
 * update), and publishes `{action: "delete", queueId}`.
 */
export async function deleteQueue(auth: AuthContext, queueId: number): Promise<void> {
  requireAdmin(auth);
  const q = await showQueue(auth, queueId);
  await deleteQueueItems(q, [planSlotRelease(auth.companyId, "queues")]);
  const options = await listQueueOptions(auth.companyId, queueId);
  await deleteQueueOptions(options);
  await dropAttachments(q.mediaPath, ...options.map((o) => o.mediaPath));
  await removeQueueFromWhatsapps(auth.companyId, queueId);
  for (const u of await listUsers(auth.companyId)) {
    if (!u.queueIds.includes(queueId)) continue;
    const updated = await patchUser(auth.companyId, u.id, { queueIds: u.queueIds.filter((id) => id !== queueId) });
    if (updated) await dispatch({ type: "user.updated", companyId: auth.companyId, user: await publicUser(updated), changed: ["queueIds"] });
  }
  await dispatch({ type: "queue.deleted", companyId: auth.companyId, queueId });
}

/**
 * `POST /api/queue/{id}/media-upload` (admin, multipart): stores the file under the company's media prefix and sets the
 * queue's `mediaPath`/`mediaName` (replacing any previous one); publishes `{action: "update", queue}`.
 * 404 `ERR_NO_QUEUE_FOUND` for another company's queue; 400 `ERR_QUEUE_MEDIA_REQUIRED` without a file.
 */
export async function uploadQueueMedia(auth: AuthContext, queueId: number, upload: { files: Upload[] } | undefined): Promise<PublicQueue> {
  requireAdmin(auth);
  const before = await showQueue(auth, queueId);
  const after = await replaceAttachment(QUEUE_MEDIA, auth.companyId, queueId, upload, before.mediaPath, async (media) => {
    const next: QueueItem = { ...before, ...media, updatedAt: new Date().toISOString() };
    await replaceQueue(before, next, pendingRunPuts({ type: "queue.updated", companyId: auth.companyId, queue: next }));
    return next;
  });
  await dispatch({ type: "queue.updated", companyId: auth.companyId, queue: after });
  return after;
}

/** `DELETE /api/queue/{id}/media-upload` (admin): clears the queue's media (its object deleted); publishes `{action: "update", queue}`. */
export async function deleteQueueMedia(auth: AuthContext, queueId: number): Promise<PublicQueue> {
  requireAdmin(auth);
  const before = await showQueue(auth, queueId);
  const after: QueueItem = { ...before, ...NO_MEDIA, updatedAt: new Date().toISOString() };
  const event = { type: "queue.updated", companyId: auth.companyId, queue: after } as const;
  await replaceQueue(before, after, pendingRunPuts(event));
  await dropAttachments(before.mediaPath);
  await dispatch(event);
  return after;
}
