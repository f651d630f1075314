/**
 * Connections service (docs/product/connections.md). Holds the rules:
 * - defaults of every field (provider "beta", expiresTicket 0, timeUseBotQueues 0, maxUseBotQueues 3, ...);
 * - the first connection of a company becomes its default; making another one default unsets the old one; the
 *   default flag cannot be taken off the default (nor the default deleted while others exist): `ERR_NO_OTHER_WHATSAPP`
 *   ("at least one default connection is required");
 * - more than one queue needs a greeting message: `ERR_WAPP_GREETING_REQUIRED`;
 * - queueIds / transferQueueId must be queues of the same company: `ERR_NO_QUEUE_FOUND` (404);
 * - the API token is the server's (`./token.ts`): generated at creation, replaced by {@link regenerateWhatsappToken},
 *   stored sealed, looked up by its hash; shown in clear only to admins reading the connection through the API;
 * - session actions go to the session runner as commands (`sendSessionCommand`); the runner reports back through
 *   {@link updateSessionState}, which publishes `company-{id}-whatsappSession` and `company-{id}-whatsapp` to admins.
 */
import { planSlot, planSlotRelease, withPlanSlot } from "../plans/service.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { laterIso, nowIso } from "../common.ts";
import { dispatch, type EventOf } from "../events/index.ts";
import { pendingRunPuts } from "../events/durable.ts";
import "./events.ts";
import { sendSessionCommand, shardOf, type SessionCommandInput } from "./commands.ts";
import {
  deleteWhatsappItem,
  getWhatsappByTokenHash,
  getWhatsappItem,
  insertWhatsappItem,
  listQueueRefs,
  listWhatsappItems,
  patchSessionFields,
  replaceWhatsappItem,
  type QueueRef,
} from "./repository.ts";
import {
  SessionStatePatch,
  WhatsappItem,
  type CreateWhatsappBody,
  type UpdateWhatsappBody,
  type WhatsappView,
} from "./schema.ts";
import { connectionTokenHash, newConnectionToken, openConnectionToken, sealConnectionToken } from "./token.ts";

/** Who is asking: the company comes from the verified token; `admin` decides whether the API token is shown. */
export interface Caller {
  companyId: number;
  admin: boolean;
}

import { toView } from "./views.ts";

export { toView };

/** {@link toView} for an API caller: an admin gets the API token opened. */
async function apiView(caller: Caller, item: WhatsappItem, queues?: QueueRef[]): Promise<WhatsappView> {
  return toView(item, { admin: caller.admin, token: caller.admin ? await openConnectionToken(item.tokenSealed) : "", queues });
}

/** A fresh API token for a connection: the fields to store (sealed token and its hash) and the token in clear. */
async function freshToken(): Promise<{ token: string; tokenSealed: string; tokenHash: string }> {
  const token = newConnectionToken();
  return { token, tokenSealed: await sealConnectionToken(token), tokenHash: connectionTokenHash(token) };
}

const notFound = () => new AppError("ERR_NO_WAPP_FOUND");

/** Loads a connection of the caller's company or throws `ERR_NO_WAPP_FOUND` (404). */
export async function requireWhatsapp(companyId: number, whatsappId: number): Promise<WhatsappItem> {
  const item = await getWhatsappItem(companyId, whatsappId);
  if (!item) throw notFound();
  return item;
}

/** `GET /api/whatsapp`: every connection of the caller's company with its queues, ordered by id. */
export async function listWhatsapps(caller: Caller): Promise<WhatsappView[]> {
  const [items, queues] = await Promise.all([listWhatsappItems(caller.companyId), listQueueRefs(caller.companyId)]);
  return Promise.all(items.map((i) => apiView(caller, i, queues)));
}

/** `GET /api/whatsapp/{id}`: one connection (with `qrcode` and queues). 404 `ERR_NO_WAPP_FOUND` when not the caller's. */
export async function showWhatsapp(caller: Caller, whatsappId: number): Promise<WhatsappView> {
  const [item, queues] = await Promise.all([requireWhatsapp(caller.companyId, whatsappId), listQueueRefs(caller.companyId)]);
  return apiView(caller, item, queues);
}

async function checkQueues(companyId: number, queueIds: number[], transferQueueId: number | null): Promise<QueueRef[]> {
  const queues = await listQueueRefs(companyId);
  const known = new Set(queues.map((q) => q.id));
  for (const id of [...queueIds, ...(transferQueueId != null ? [transferQueueId] : [])]) {
    if (!known.has(id)) throw new AppError("ERR_NO_QUEUE_FOUND", { queueId: id });
  }
  return queues;
}

function checkGreeting(item: Pick<WhatsappItem, "queueIds" | "greetingMessage">) {
  if (item.queueIds.length > 1 && !item.greetingMessage.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED");
}

/** The `whatsapp.updated` of connection `item` (`previous`: an edit's state before, for the timers that follow it). */
function updatedEvent(item: WhatsappItem, previous?: WhatsappItem): EventOf<"whatsapp.updated"> {
  return { type: "whatsapp.updated", companyId: item.companyId, whatsapp: item, ...(previous ? { previous } : {}) };
}

/** The pending runs of `events` for the transaction that writes them (`events/durable.ts`). */
const runsOf = (...events: EventOf<"whatsapp.updated">[]) => events.flatMap((e) => pendingRunPuts(e));

async function command(cmd: SessionCommandInput): Promise<void> {
  await sendSessionCommand(cmd);
}

/**
 * `POST /api/whatsapp`: creates a connection with the product's defaults, makes it default when it is the company's first
 * (or when asked, unsetting the old default), publishes `whatsapp update` and asks the runner to start its session
 * (status OPENING until the runner reports a QR). The API token is generated here (a client's is never taken).
 * Errors: `ERR_WAPP_GREETING_REQUIRED`, `ERR_NO_QUEUE_FOUND`, 403 `ERR_CONNECTION_CREATION_COUNT` (the plan's count reached).
 */
export async function createWhatsapp(caller: Caller, body: CreateWhatsappBody): Promise<WhatsappView> {
  const companyId = caller.companyId;
  const existing = await listWhatsappItems(companyId);
  const queueIds = [...new Set(body.queueIds ?? [])];
  const queues = await checkQueues(companyId, queueIds, body.transferQueueId ?? null);
  const oldDefault = existing.find((w) => w.isDefault) ?? null;
  const isDefault = existing.length === 0 || !oldDefault || body.isDefault === true;
  // Every check before the id counter, so a refused connection takes no id.
  checkGreeting({ queueIds, greetingMessage: body.greetingMessage ?? "" });
  const slot = await planSlot(companyId, "connections", async () => (await listWhatsappItems(companyId)).length);
  // Global ids: sessions, auth state (`WA#<wid>`), shards and command groups are keyed by the connection id alone.
  const id = await nextId("GLOBAL", "whatsapp");
  const now = nowIso();
  const { token, tokenSealed, tokenHash } = await freshToken();
  const item = WhatsappItem.parse({
    ...body,
    tokenSealed,
    tokenHash,
    id,
    companyId,
    queueIds,
    isDefault,
    status: "OPENING",
    qrcode: "",
    retries: 0,
    number: "",
    shard: shardOf(id),
    createdAt: now,
    updatedAt: now,
  });
  const events = [...(isDefault && oldDefault ? [updatedEvent({ ...oldDefault, isDefault: false, updatedAt: now })] : []), updatedEvent(item)];
  await withPlanSlot(slot, (extra) => insertWhatsappItem(item, isDefault && oldDefault ? oldDefault.id : null, [...runsOf(...events), ...extra]));
  for (const e of events) await dispatch(e);
  await command({ type: "start", companyId, whatsappId: id });
  return toView(item, { admin: true, token, queues });
}

/**
 * `PUT /api/whatsapp/{id}`: changes the given fields. Setting `isDefault: true` unsets the old default; setting it to
 * false on the default is refused with `ERR_NO_OTHER_WHATSAPP`. Errors as {@link createWhatsapp}, plus 404.
 * Retries (up to 3 times) when the runner changed the session fields meanwhile.
 */
export async function updateWhatsapp(caller: Caller, whatsappId: number, body: UpdateWhatsappBody): Promise<WhatsappView> {
  const companyId = caller.companyId;
  for (let attempt = 0; ; attempt++) {
    const prev = await requireWhatsapp(companyId, whatsappId);
    if (prev.isDefault && body.isDefault === false) throw new AppError("ERR_NO_OTHER_WHATSAPP");
    const queueIds = body.queueIds ? [...new Set(body.queueIds)] : prev.queueIds;
    const transferQueueId = body.transferQueueId !== undefined ? body.transferQueueId : prev.transferQueueId;
    const queues = await checkQueues(companyId, body.queueIds ? queueIds : [], body.transferQueueId !== undefined ? transferQueueId : null);
    const now = nowIso();
    const next = WhatsappItem.parse({ ...prev, ...body, queueIds, transferQueueId, updatedAt: now });
    checkGreeting(next);
    let oldDefault: WhatsappItem | null = null;
    if (next.isDefault && !prev.isDefault) {
      oldDefault = (await listWhatsappItems(companyId)).find((w) => w.isDefault && w.id !== whatsappId) ?? null;
    }
    const events = [...(oldDefault ? [updatedEvent({ ...oldDefault, isDefault: false, updatedAt: now })] : []), updatedEvent(next, prev)];
    try {
      await replaceWhatsappItem(prev, next, oldDefault?.id ?? null, runsOf(...events));
    } catch (err) {
      if (err instanceof AppError && err.code === "ERR_CONFLICT" && !err.data && attempt < 3) continue;
      throw err;
    }
    for (const e of events) await dispatch(e);
    return apiView(caller, next, queues);
  }
}

/**
 * `POST /api/whatsapp/{id}/token`: gives the connection a new API token (the old one stops working at once: its
 * lookup item goes in the same transaction) and answers the connection with it. Publishes `whatsapp update` (without
 * the token). 404 `ERR_NO_WAPP_FOUND` when not the caller's; retried when the runner changed the session meanwhile.
 */
export async function regenerateWhatsappToken(caller: Caller, whatsappId: number): Promise<WhatsappView> {
  for (let attempt = 0; ; attempt++) {
    const prev = await requireWhatsapp(caller.companyId, whatsappId);
    const { token, tokenSealed, tokenHash } = await freshToken();
    const next: WhatsappItem = { ...prev, tokenSealed, tokenHash, updatedAt: nowIso() };
    const event = updatedEvent(next, prev);
    try {
      await replaceWhatsappItem(prev, next, null, runsOf(event));
    } catch (err) {
      if (err instanceof AppError && err.code === "ERR_CONFLICT" && attempt < 3) continue;
      throw err;
    }
    await dispatch(event);
    return toView(next, { admin: caller.admin, token, queues: await listQueueRefs(caller.companyId) });
  }
}

/**
 * `DELETE /api/whatsapp/{id}`: deletes the connection (and its token), publishes `whatsapp delete` and asks the runner
 * to log the session out and wipe its auth state. Deleting the default while other connections exist is refused with
 * `ERR_NO_OTHER_WHATSAPP` (make another one default first). 404 when not the caller's.
 */
export async function deleteWhatsapp(caller: Caller, whatsappId: number): Promise<void> {
  const companyId = caller.companyId;
  const item = await requireWhatsapp(companyId, whatsappId);
  if (item.isDefault) {
    const others = (await listWhatsappItems(companyId)).filter((w) => w.id !== whatsappId);
    if (others.length) throw new AppError("ERR_NO_OTHER_WHATSAPP");
  }
  if (!(await deleteWhatsappItem(item, [planSlotRelease(companyId, "connections")]))) throw notFound();
  await dispatch({ type: "whatsapp.deleted", companyId, whatsappId });
  await command({ type: "disconnect", companyId, whatsappId });
}

async function sessionAction(caller: Caller, whatsappId: number, type: "start" | "newQr" | "restart"): Promise<void> {
  await requireWhatsapp(caller.companyId, whatsappId);
  await updateSessionState(caller.companyId, whatsappId, { status: "OPENING", ...(type === "newQr" ? { qrcode: "", retries: 0 } : {}) });
  await command({ type, companyId: caller.companyId, whatsappId });
}

/** `POST /api/whatsappsession/{id}`: starts the session (status OPENING, then a QR or CONNECTED from the runner). */
export async function startWhatsappSession(caller: Caller, whatsappId: number): Promise<void> {
  await sessionAction(caller, whatsappId, "start");
}

/** `PUT /api/whatsappsession/{id}`: wipes the pairing and starts again, so a new QR is shown. */
export async function renewWhatsappQr(caller: Caller, whatsappId: number): Promise<void> {
  await sessionAction(caller, whatsappId, "newQr");
}

/** `DELETE /api/whatsappsession/{id}`: logs the session out; the runner reports DISCONNECTED. */
export async function disconnectWhatsappSession(caller: Caller, whatsappId: number): Promise<void> {
  await requireWhatsapp(caller.companyId, whatsappId);
  await command({ type: "disconnect", companyId: caller.companyId, whatsappId });
}

/** `POST /api/whatsapp-restart`: restarts every connection of the caller's company (end without logout, open again). */
export async function restartWhatsappSessions(caller: Caller): Promise<{ restarted: number }> {
  const items = await listWhatsappItems(caller.companyId);
  for (const w of items) {
    await updateSessionState(caller.companyId, w.id, { status: "OPENING" });
    await command({ type: "restart", companyId: caller.companyId, whatsappId: w.id });
  }
  return { restarted: items.length };
}

/**
 * Called by the session runner as a session lives (docs/product/connections.md#session-status): sets status / qrcode / retries / number and
 * `updatedAt`, then publishes `company-{id}-whatsappSession` `{action:"update", session}` and
 * `company-{id}-whatsapp` `{action:"update", whatsapp}` to the company's admins. Returns the new item, or null when
 * the connection was deleted meanwhile (nothing published).
 */
export async function updateSessionState(companyId: number, whatsappId: number, patch: SessionStatePatch): Promise<WhatsappItem | null> {
  const parsed = SessionStatePatch.parse(patch);
  const set = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined));
  for (let attempt = 0; ; attempt++) {
    const prev = await getWhatsappItem(companyId, whatsappId);
    if (!prev) {
      log("info", "session state for a deleted connection", { companyId, whatsappId });
      return null;
    }
    const item: WhatsappItem = { ...prev, ...set, updatedAt: laterIso(prev.updatedAt) };
    // The state is written with the pending runs of its event (ticket rows show the connection's status).
    const event = { type: "whatsapp.session", companyId, whatsapp: item, previousStatus: prev.status } as const;
    try {
      await patchSessionFields(prev, parsed, item.updatedAt, pendingRunPuts(event));
    } catch (err) {
      if (err instanceof AppError && err.code === "ERR_CONFLICT" && attempt < 3) continue;
      throw err;
    }
    await dispatch(event);
    return item;
  }
}

/**
 * "The company connection" for features that send without a ticket (schedules, number checks, imports): the default
 * connection when CONNECTED, else any CONNECTED one; `ERR_NO_DEF_WAPP_FOUND` (404) when none is connected.
 */
export async function getDefaultWhatsapp(companyId: number): Promise<WhatsappItem> {
  const items = await listWhatsappItems(companyId);
  const found = items.find((w) => w.isDefault && w.status === "CONNECTED") ?? items.find((w) => w.status === "CONNECTED");
  if (!found) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
  return found;
}

/** The connection of a public messages API token (`Authorization: Bearer <token>`, found by its hash), or null when unknown. */
export async function findWhatsappByToken(token: string): Promise<WhatsappItem | null> {
  const ref = await getWhatsappByTokenHash(connectionTokenHash(token));
  return ref ? getWhatsappItem(ref.companyId, ref.whatsappId) : null;
}

/**
 * Removes a deleted queue from every connection of the company (`queueIds`, and `transferQueueId` when it pointed
 * there), so no new ticket is routed into it; each changed connection gets a `whatsapp` update. Optimistic writes,
 * retried on a concurrent change (3 attempts per connection).
 */
export async function removeQueueFromWhatsapps(companyId: number, queueId: number): Promise<void> {
  for (const first of await listWhatsappItems(companyId)) {
    let prev: WhatsappItem | null = first;
    for (let attempt = 0; prev && attempt < 3; attempt++) {
      if (!prev.queueIds.includes(queueId) && prev.transferQueueId !== queueId) break;
      const next = WhatsappItem.parse({
        ...prev,
        queueIds: prev.queueIds.filter((id) => id !== queueId),
        transferQueueId: prev.transferQueueId === queueId ? null : prev.transferQueueId,
        updatedAt: nowIso(),
      });
      try {
        const event = updatedEvent(next);
        await replaceWhatsappItem(prev, next, null, runsOf(event));
        await dispatch(event);
        break;
      } catch (err) {
        if (!(err instanceof AppError && err.code === "ERR_CONFLICT")) throw err;
        prev = await getWhatsappItem(companyId, prev.id);
      }
    }
  }
}
