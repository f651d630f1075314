/**
 * Scheduled message rules (docs/product/schedules.md).
 *
 * - Every user of the company lists and reads the company's schedules and schedules messages to the company's
 *   contacts; the scheduler is the caller (`userId`). Admins and supervisors (`schedules:editAny`) edit and delete
 *   every schedule, a user only their own (403 `ERR_NO_PERMISSION`, `./permissions.ts`).
 * - A schedule is PENDENTE until its time; the minute tick and the dispatch queue send it (`./send.ts`). A sent one
 *   (ENVIADA), or one being sent (its message id reserved), is not editable: 409 `ERR_SCHEDULE_ALREADY_SENT`. Editing a
 *   failed one (ERRO) makes it PENDENTE again, its error cleared.
 * - Media: one png, jpg or jpeg per schedule through the media port ({@link SCHEDULE_MEDIA}); deleting the schedule
 *   deletes its file; sending copies it into the message.
 * - Every change dispatches `schedule.created|updated|deleted` (`./events.ts`).
 */
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { batchGetContacts, getContactItem } from "../contacts/repository.ts";
import type { ContactItem } from "../contacts/schema.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { dropAttachments, replaceAttachment, type Upload } from "../media/attachments.ts";
import { NO_MEDIA } from "../media/schema.ts";
import { getAccessibleTicket } from "../tickets/service.ts";
import "./errors.ts";
import "./events.ts";
import { canEditSchedule } from "./access.ts";
import { deleteScheduleItem, getSchedule, listSchedules, putNewSchedule, replaceSchedule } from "./repository.ts";
import {
  LATE_AFTER_SECONDS,
  pendingSchedule,
  SCHEDULE_MEDIA,
  SCHEDULES_PAGE_SIZE,
  type CreateScheduleBody,
  type ListSchedulesQuery,
  type Schedule,
  type ScheduleItem,
  type SchedulesPage,
  type UpdateScheduleBody,
} from "./schema.ts";

/** A schedule as the API answers it, with its contact (null when deleted). */
export function scheduleView(s: ScheduleItem, contact: Pick<ContactItem, "id" | "name" | "number"> | null | undefined): Schedule {
  const { messageId: _m, claims: _c, ...rest } = s;
  return {
    ...rest,
    contact: contact ? { id: contact.id, name: contact.name, number: contact.number } : null,
    late: s.status === "ENVIADA" && (s.lateSeconds ?? 0) >= LATE_AFTER_SECONDS,
  };
}

/** The view of one schedule, reading its contact. */
export async function viewOf(s: ScheduleItem): Promise<Schedule> {
  return scheduleView(s, await getContactItem(s.companyId, s.contactId));
}

/** One schedule of the caller's company, else 404 `ERR_NO_SCHEDULE_FOUND`. */
async function requireSchedule(auth: AuthContext, id: number): Promise<ScheduleItem> {
  const s = await getSchedule(auth.companyId, id);
  if (!s) throw new AppError("ERR_NO_SCHEDULE_FOUND");
  return s;
}

/** One schedule the caller may change and that is still changeable: 404, 403 `ERR_NO_PERMISSION`, 409 `ERR_SCHEDULE_ALREADY_SENT`. */
async function requireEditable(auth: AuthContext, id: number): Promise<ScheduleItem> {
  const s = await requireSchedule(auth, id);
  if (!canEditSchedule(auth, s)) throw new AppError("ERR_NO_PERMISSION");
  if (s.status === "ENVIADA" || s.sentAt || (s.status === "AGENDADA" && s.messageId)) throw new AppError("ERR_SCHEDULE_ALREADY_SENT");
  return s;
}

/** The company's contact `contactId`, else 404 `ERR_NO_CONTACT_FOUND` (another company's is absent). */
async function requireContact(companyId: number, contactId: number): Promise<ContactItem> {
  const c = await getContactItem(companyId, contactId);
  if (!c) throw new AppError("ERR_NO_CONTACT_FOUND");
  return c;
}

/** Writes `after` over `before` (409 `ERR_CONFLICT` when it changed meanwhile, e.g. its time came) and dispatches the update. */
async function save(before: ScheduleItem, after: ScheduleItem, contact?: ContactItem): Promise<Schedule> {
  if (!(await replaceSchedule(before, after))) throw new AppError("ERR_CONFLICT");
  const schedule = contact ? scheduleView(after, contact) : await viewOf(after);
  await dispatch({ type: "schedule.updated", companyId: after.companyId, schedule });
  return schedule;
}

/**
 * `GET /api/schedules/` (any user of the company): one page of {@link SCHEDULES_PAGE_SIZE}, latest `sendAt` first →
 * `{schedules, count, hasMore}`. `searchParam` matches the text or the contact's name (accent- and case-insensitive);
 * `contactId` keeps one contact's.
 */
export async function listSchedulesFor(auth: AuthContext, q: ListSchedulesQuery): Promise<SchedulesPage> {
  let items = await listSchedules(auth.companyId);
  if (q.contactId !== undefined) items = items.filter((s) => s.contactId === q.contactId);
  const contacts = await batchGetContacts(auth.companyId, items.map((s) => s.contactId));
  const term = normalizeName(q.searchParam ?? "");
  if (term) items = items.filter((s) => normalizeName(s.body).includes(term) || normalizeName(contacts.get(s.contactId)?.name ?? "").includes(term));
  items.sort((a, b) => b.sendAt.localeCompare(a.sendAt) || b.id - a.id);
  const from = (q.pageNumber - 1) * SCHEDULES_PAGE_SIZE;
  const page = items.slice(from, from + SCHEDULES_PAGE_SIZE);
  return { schedules: page.map((s) => scheduleView(s, contacts.get(s.contactId))), count: items.length, hasMore: from + page.length < items.length };
}

/** `GET /api/schedules/{id}`: one schedule of the caller's company, else 404 `ERR_NO_SCHEDULE_FOUND`. */
export async function showSchedule(auth: AuthContext, id: number): Promise<Schedule> {
  return viewOf(await requireSchedule(auth, id));
}

/**
 * `POST /api/schedules` (any user): a PENDENTE schedule by the caller to a contact of the company (404
 * `ERR_NO_CONTACT_FOUND` otherwise). With `ticketId` (scheduled from a conversation) the ticket must be one the caller
 * may see (404 / 403) and the contact's (400 `ERR_VALIDATION` on `ticketId`). Dispatches `schedule.created`.
 */
export async function createSchedule(auth: AuthContext, body: CreateScheduleBody): Promise<Schedule> {
  const contact = await requireContact(auth.companyId, body.contactId);
  if (body.ticketId != null) {
    const ticket = await getAccessibleTicket(auth, body.ticketId);
    if (ticket.contactId !== contact.id) throw new AppError("ERR_VALIDATION", { fields: [{ path: "ticketId", message: "Invalid input" }] });
  }
  const item = pendingSchedule(
    {
      id: await nextId(auth.companyId, "schedule"),
      companyId: auth.companyId,
      contactId: contact.id,
      ticketId: body.ticketId ?? null,
      userId: auth.userId,
      body: body.body,
      sendAt: body.sendAt,
    },
    nowIso(),
  );
  await putNewSchedule(item);
  const schedule = scheduleView(item, contact);
  await dispatch({ type: "schedule.created", companyId: auth.companyId, schedule });
  return schedule;
}

/**
 * `PUT /api/schedules/{id}`: changes the given fields of one the caller may edit (404 / 403 / 409 as above); it is
 * PENDENTE again at its (new) `sendAt`, a failed one's error cleared. Changing the contact drops the conversation it
 * was scheduled from (the default connection sends it). 409 `ERR_CONFLICT` when it changed meanwhile.
 */
export async function updateSchedule(auth: AuthContext, id: number, body: UpdateScheduleBody): Promise<Schedule> {
  const before = await requireEditable(auth, id);
  const contact = await requireContact(auth.companyId, body.contactId ?? before.contactId);
  const after: ScheduleItem = {
    ...before,
    contactId: contact.id,
    ticketId: contact.id === before.contactId ? before.ticketId : null,
    body: body.body ?? before.body,
    sendAt: body.sendAt ?? before.sendAt,
    status: "PENDENTE",
    error: null,
    // A failed send's id is not reused: the next send is a message of its own.
    messageId: null,
    // Due again at its (new) time: the tick's first claim holds it the shortest time.
    claims: 0,
    updatedAt: nowIso(),
  };
  return save(before, after, contact);
}

/** `DELETE /api/schedules/{id}`: removes one the caller may edit (404 / 403), sent or not, and its file. */
export async function deleteSchedule(auth: AuthContext, id: number): Promise<void> {
  const before = await requireSchedule(auth, id);
  if (!canEditSchedule(auth, before)) throw new AppError("ERR_NO_PERMISSION");
  if (!(await deleteScheduleItem(before))) throw new AppError("ERR_CONFLICT");
  await dropAttachments(before.mediaPath);
  await dispatch({ type: "schedule.deleted", companyId: auth.companyId, scheduleId: id });
}

/**
 * `POST /api/schedules/{id}/media-upload` (multipart, one png, jpg or jpeg): the schedule's new picture, replacing and
 * deleting any earlier file. 404 / 403 / 409 as for an edit; 400 `ERR_VALIDATION` without a file or of another type.
 */
export async function uploadScheduleMedia(auth: AuthContext, id: number, upload: { files: Upload[] } | undefined): Promise<Schedule> {
  const before = await requireEditable(auth, id);
  return replaceAttachment(SCHEDULE_MEDIA, auth.companyId, id, upload, before.mediaPath, (media) => save(before, { ...before, ...media, updatedAt: nowIso() }));
}

/** `DELETE /api/schedules/{id}/media-upload`: removes the picture (its file deleted). 404 / 403 / 409 as for an edit. */
export async function deleteScheduleMedia(auth: AuthContext, id: number): Promise<Schedule> {
  const before = await requireEditable(auth, id);
  const out = await save(before, { ...before, ...NO_MEDIA, updatedAt: nowIso() });
  await dropAttachments(before.mediaPath);
  return out;
}
