/**
 * Queue entity and payloads (docs/product/queues.md#queues: name 2-50, color 3-9 unique in the company).
 */
import { z } from "zod";
// The queue error codes named below (type only: nothing of it reaches the web bundle).
import type {} from "./errors.ts";
import { defineAttachmentKind } from "../media/kinds.ts";
import { attachedMedia } from "../media/schema.ts";
import { zId } from "../common.ts";

/** A queue's media (sent with its greeting): any type, the outbound limit of its type. */
export const QUEUE_MEDIA = defineAttachmentKind({ folder: "queues", missingFile: "ERR_QUEUE_MEDIA_REQUIRED" });

/** `HH:MM`, 00:00 to 23:59 (working-hours times), or empty. */
const hhmm = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Invalid time")
  .or(z.literal(""));

export const QueueSchedule = z.object({
  weekday: z.string().max(40),
  weekdayEn: z.enum(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]),
  startTime: hhmm,
  endTime: hhmm,
});

export type QueueSchedule = z.infer<typeof QueueSchedule>;

/**
 * Default weekly hours of a company and of a new queue (docs/product/business-hours.md): Monday to Friday 08:00-18:00,
 * Saturday 08:00-12:00, Sunday closed (00:00-00:00). `weekdayEn` is the key the hours check uses.
 */
export const DEFAULT_SCHEDULES: QueueSchedule[] = [
  { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Terça-feira", weekdayEn: "tuesday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Quarta-feira", weekdayEn: "wednesday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Quinta-feira", weekdayEn: "thursday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Sexta-feira", weekdayEn: "friday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Sábado", weekdayEn: "saturday", startTime: "08:00", endTime: "12:00" },
  { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
];

/**
 * The seven days, Monday to Sunday, as the hours check reads `schedules` (`automation/hours.ts`): an empty list is the
 * defaults; otherwise a weekday without an entry is closed (00:00-00:00). Screens show this, so an admin sees the
 * week the bot uses.
 */
export function fullWeek<S extends QueueSchedule>(schedules: readonly S[]): (QueueSchedule | S)[] {
  if (!schedules.length) return DEFAULT_SCHEDULES.map((d) => ({ ...d }));
  return DEFAULT_SCHEDULES.map((d) => schedules.find((s) => s.weekdayEn === d.weekdayEn) ?? { ...d, startTime: "00:00", endTime: "00:00" });
}

export const QueueItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string().default(""),
  outOfHoursMessage: z.string().default(""),
  orderQueue: z.number().int().nullable().default(null),
  integrationId: z.number().int().nullable().default(null),
  promptId: z.number().int().nullable().default(null),
  schedules: z.array(QueueSchedule).default([]),
  /** The queue's media under `media/<cid>/queues/`, sent with its greeting. */
  ...attachedMedia,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QueueItem = z.infer<typeof QueueItem>;

const queueName = z.string({ error: (iss) => (iss.input == null ? "Required" : "Invalid input") }).trim().min(2, "Too Short!").max(50, "Too Long!");
const queueColor = z.string({ error: (iss) => (iss.input == null ? "Required" : "Invalid input") }).trim().min(3, "Too Short!").max(9, "Too Long!");
const optionalInt = z.union([z.literal("").transform(() => null), z.coerce.number().int().nullable()]);
const optionalId = z.union([z.literal("").transform(() => null), zId.nullable()]);

/** POST /api/queue */
export const CreateQueueBody = z.object({
  name: queueName,
  color: queueColor,
  greetingMessage: z.string().max(4096).default(""),
  outOfHoursMessage: z.string().max(4096).default(""),
  orderQueue: optionalInt.optional(),
  schedules: z.array(QueueSchedule).max(7).optional(),
  promptId: optionalId.optional(),
  integrationId: optionalId.optional(),
});
export type CreateQueueBody = z.infer<typeof CreateQueueBody>;

/** PUT /api/queue/{id}: every field optional; absent = unchanged (no defaults applied). */
export const UpdateQueueBody = z.object({
  name: queueName.optional(),
  color: queueColor.optional(),
  greetingMessage: z.string().max(4096).optional(),
  outOfHoursMessage: z.string().max(4096).optional(),
  orderQueue: optionalInt.optional(),
  schedules: z.array(QueueSchedule).max(7).optional(),
  promptId: optionalId.optional(),
  integrationId: optionalId.optional(),
});
export type UpdateQueueBody = z.infer<typeof UpdateQueueBody>;

/** `company-{id}-queue` frames: the queue as the API shows it, or the deleted one's id. */
export const QueueFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), queue: QueueItem }),
  z.object({ action: z.literal("update"), queue: QueueItem }),
  z.object({ action: z.literal("delete"), queueId: z.number().int() }),
]);
export type QueueFrame = z.infer<typeof QueueFrame>;
