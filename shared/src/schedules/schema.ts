/**
 * Scheduled messages (docs/product/schedules.md): a text (and optionally one picture) that goes out to a contact at
 * `sendAt`, through the contact's conversation. Three blocks:
 *
 * 1. the stored item (what DynamoDB holds),
 * 2. request schemas (bodies, queries, path params, the dispatch queue's message): the edge parses every input with these,
 * 3. response and realtime shapes (what the API answers and what `company-{id}-schedule` carries).
 */
import { z } from "zod";
import { zId, zIso, zPageNumber } from "../common.ts";
import { defineAttachmentKind } from "../media/kinds.ts";
import { attachedMedia, NO_MEDIA } from "../media/schema.ts";

/** Schedules per page of `GET /api/schedules/`. */
export const SCHEDULES_PAGE_SIZE = 20;
/** Shortest message text ('Mensagem muito curta' below it). */
export const SCHEDULE_BODY_MIN = 5;
/** Longest message text (a WhatsApp text). */
export const SCHEDULE_BODY_MAX = 65536;
/** A schedule sent this many seconds or more after its `sendAt` shows that it went out late. */
export const LATE_AFTER_SECONDS = 60;

/**
 * PENDENTE (waiting for its time), AGENDADA (its time came: handed to the sender), ENVIADA (sent, `sentAt` set), ERRO
 * (not sent: `error` holds the reason, e.g. `ERR_NO_DEF_WAPP_FOUND`).
 */
export const SCHEDULE_STATUSES = ["PENDENTE", "AGENDADA", "ENVIADA", "ERRO"] as const;
export const ScheduleStatus = z.enum(SCHEDULE_STATUSES);
export type ScheduleStatus = z.infer<typeof ScheduleStatus>;

/** A schedule's picture: png, jpg or jpeg only, within the outbound image limit. */
export const SCHEDULE_MEDIA = defineAttachmentKind({
  folder: "schedules",
  types: ["image/png", "image/jpeg", "image/jpg"],
  typeMessage: "Apenas arquivos png, jpg ou jpeg",
});

// ---------------------------------------------------------------------------------------------
// 1. Stored item

/**
 * Schedule item `C#<cid>` / `SCHED#<id>` (`keys.schedule`). While PENDENTE or AGENDADA it also carries its due-time
 * index entry (GSI1 `SCHEDDUE#<shard>` / `<due>#<cid>#<id>`, `keys.scheduleDueIndex`), removed when it is sent or
 * failed. `userId` is who scheduled it (the message is signed with their name); `ticketId` the conversation it was
 * scheduled from (its connection sends it), else none; `messageId` the WhatsApp id reserved for its one message
 * (so a second delivery of the same send finds it instead of sending again); `whatsappId` the connection that sent it;
 * `lateSeconds` how long after `sendAt` it went out; `claims` how many times a tick claimed it for its current time
 * (each claim holds it twice as long as the one before: `./send.ts` `claimHoldMs`).
 */
export const ScheduleItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  contactId: z.number().int(),
  ticketId: z.number().int().nullable().default(null),
  userId: z.number().int().nullable().default(null),
  body: z.string(),
  sendAt: z.string(),
  sentAt: z.string().nullable().default(null),
  status: ScheduleStatus,
  error: z.string().nullable().default(null),
  messageId: z.string().nullable().default(null),
  whatsappId: z.number().int().nullable().default(null),
  lateSeconds: z.number().int().nullable().default(null),
  claims: z.number().int().default(0),
  ...attachedMedia,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScheduleItem = z.infer<typeof ScheduleItem>;

/** A new schedule as created: PENDENTE, nothing sent, no picture; `at` its creation time (ISO). */
export function pendingSchedule(
  s: Pick<ScheduleItem, "id" | "companyId" | "contactId" | "ticketId" | "userId" | "body" | "sendAt">,
  at: string,
): ScheduleItem {
  return {
    ...s,
    sentAt: null,
    status: "PENDENTE",
    error: null,
    messageId: null,
    whatsappId: null,
    lateSeconds: null,
    claims: 0,
    ...NO_MEDIA,
    createdAt: at,
    updatedAt: at,
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Requests

const required = (iss: { input: unknown }) => (iss.input == null || iss.input === "" ? "Obrigatório" : "Invalid input");

/** body: required, trimmed, at least {@link SCHEDULE_BODY_MIN} characters ('Mensagem muito curta'). */
const body = z
  .string({ error: required })
  .trim()
  .min(SCHEDULE_BODY_MIN, "Mensagem muito curta")
  .max(SCHEDULE_BODY_MAX, "Too Long!");

/** sendAt: required ('Obrigatório'), a date-time with its offset (ISO 8601), stored as UTC ISO. */
const sendAt = z
  .string({ error: required })
  .min(1, "Obrigatório")
  .max(40)
  .pipe(zIso)
  .transform((v) => new Date(v).toISOString());

/** contactId: required ('Obrigatório'). */
const contactId = z.preprocess((v) => (v === "" ? undefined : v), z.union([zId, z.undefined()])).refine((v) => v !== undefined, "Obrigatório") as unknown as typeof zId;

/**
 * `POST /api/schedules`: contactId, body, sendAt (the dialog proposes now plus one hour); `ticketId` when scheduled
 * from a conversation (its connection sends it). The scheduler is the caller; `userId`, `companyId`, `status` in the
 * body are ignored.
 */
export const CreateScheduleBody = z.object({
  contactId,
  body,
  sendAt,
  ticketId: zId.nullish(),
});
export type CreateScheduleBody = z.infer<typeof CreateScheduleBody>;

/** `PUT /api/schedules/{id}`: every field optional; absent = unchanged. A sent schedule is not editable. */
export const UpdateScheduleBody = z.object({
  contactId: zId.optional(),
  body: body.optional(),
  sendAt: sendAt.optional(),
});
export type UpdateScheduleBody = z.infer<typeof UpdateScheduleBody>;

/** `GET /api/schedules/`: `searchParam` (the text or the contact's name), `pageNumber`, `contactId` (one contact's). */
export const ListSchedulesQuery = z.object({
  searchParam: z.string().max(100).optional(),
  pageNumber: zPageNumber,
  contactId: zId.optional(),
});
export type ListSchedulesQuery = z.infer<typeof ListSchedulesQuery>;

export const ScheduleIdParams = z.object({ id: zId });

/** A message of the dispatch queue asking for one schedule's send (the minute tick puts it there when due). */
export const ScheduleDispatchMessage = z.object({ kind: z.literal("schedule"), companyId: zId, scheduleId: zId });
export type ScheduleDispatchMessage = z.infer<typeof ScheduleDispatchMessage>;

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/**
 * A schedule as every route answers it: the stored fields (without the reserved `messageId` and the tick's `claims`) plus its `contact`
 * (id, name, number; null when the contact was deleted) and `late` (sent {@link LATE_AFTER_SECONDS} s or more after
 * `sendAt`).
 */
export const Schedule = ScheduleItem.omit({ messageId: true, claims: true }).extend({
  contact: z.object({ id: z.number().int(), name: z.string(), number: z.string() }).nullable(),
  late: z.boolean(),
});
export type Schedule = z.infer<typeof Schedule>;

/** `GET /api/schedules/`: one page, newest `sendAt` first; `count` = every schedule matching the search. */
export const SchedulesPage = z.object({ schedules: z.array(Schedule), count: z.number().int(), hasMore: z.boolean() });
export type SchedulesPage = z.infer<typeof SchedulesPage>;

/** `DELETE /api/schedules/{id}`. */
export const ScheduleDeleted = z.object({ message: z.string() });

/** `company-{id}-schedule` frames: `{action: "create"|"update", schedule}` or `{action: "delete", scheduleId}`. */
export const ScheduleEvent = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), schedule: Schedule }),
  z.object({ action: z.literal("update"), schedule: Schedule }),
  z.object({ action: z.literal("delete"), scheduleId: z.number().int() }),
]);
export type ScheduleEvent = z.infer<typeof ScheduleEvent>;

/** `company-{id}-schedule` frames' data: a schedule created or changed (each status move), or deleted. */
export const ScheduleFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), schedule: Schedule }),
  z.object({ action: z.literal("update"), schedule: Schedule }),
  z.object({ action: z.literal("delete"), scheduleId: z.number().int() }),
]);
export type ScheduleFrame = z.infer<typeof ScheduleFrame>;
