/**
 * Queue rules (administration.md §3 Queue, §5 validation; issue 2 §4).
 *
 * - Any user of the company reads its queues; admins create, edit and delete them.
 * - name 2-50, color 3-9 characters and unique in the company (409 `ERR_QUEUE_COLOR_ALREADY_EXISTS`).
 * - Deleting a queue removes it from its users' `queueIds`.
 * - Every change publishes `company-{id}-queue` `{action: "create"|"update", queue}` or `{action: "delete", queueId}`.
 */
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { listUsers, patchUser } from "../users/repository.ts";
import { publicUser } from "../users/service.ts";
import { removeQueueFromWhatsapps } from "../whatsapp/service.ts";
import { deleteQueueItems, getQueue, listQueues, putNewQueue, replaceQueue } from "./repository.ts";
import type { CreateQueueBody, QueueItem, UpdateQueueBody } from "./schema.ts";

const requireAdmin = (a: AuthContext) => {
  if (!can(a, "queues:manage")) throw new AppError("ERR_NO_PERMISSION", 403);
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
  if (!q) throw new AppError("ERR_NO_QUEUE_FOUND", 404);
  return q;
}

/** `POST /api/queue` (admin): creates a queue in the caller's company; publishes `{action: "create", queue}`. */
export async function createQueue(auth: AuthContext, body: CreateQueueBody): Promise<PublicQueue> {
  requireAdmin(auth);
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
    createdAt: now,
    updatedAt: now,
  };
  await putNewQueue(q);
  await dispatch({ type: "queue.created", companyId: auth.companyId, queue: q });
  return q;
}

/** `PUT /api/queue/{id}` (admin): changes the given fields; publishes `{action: "update", queue}`. */
export async function updateQueue(auth: AuthContext, queueId: number, body: UpdateQueueBody): Promise<PublicQueue> {
  requireAdmin(auth);
  const before = await showQueue(auth, queueId);
  const defined = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const after: QueueItem = { ...before, ...defined, id: before.id, companyId: before.companyId, updatedAt: new Date().toISOString() };
  await replaceQueue(before, after);
  await dispatch({ type: "queue.updated", companyId: auth.companyId, queue: after });
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
  await deleteQueueItems(q);
  await removeQueueFromWhatsapps(auth.companyId, queueId);
  for (const u of await listUsers(auth.companyId)) {
    if (!u.queueIds.includes(queueId)) continue;
    const updated = await patchUser(auth.companyId, u.id, { queueIds: u.queueIds.filter((id) => id !== queueId) });
    if (updated) await dispatch({ type: "user.updated", companyId: auth.companyId, user: await publicUser(updated) });
  }
  await dispatch({ type: "queue.deleted", companyId: auth.companyId, queueId });
}
