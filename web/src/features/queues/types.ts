/** Queue and queue option as the API returns them (docs/product/queues.md) and the queue form. */
import type { ResponseOf } from "../../api/operations.ts";

/** A queue as the lists hold it (the API's fields; frames and other features may carry only some). */
export type Queue = Pick<ResponseOf<"GET /api/queue/{id}">, "id" | "name" | "color"> & Partial<ResponseOf<"GET /api/queue/{id}">>;
export type QueueOption = ResponseOf<"POST /api/queue-options">;

/** One weekday's hours (`weekdayEn` monday..sunday, times HH:MM). */
export interface Schedule {
  weekday: string;
  weekdayEn: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
  startTime: string;
  endTime: string;
}

/** POST /api/queue and PUT /api/queue/{id} body. */
export interface QueueForm {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  schedules: Schedule[];
  promptId: number | null;
  integrationId: number | null;
}
