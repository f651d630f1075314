/**
 * Scheduled messages operations (docs/product/schedules.md), all behind the plan flag `useSchedules` (403
 * `ERR_PLAN_FEATURE_DISABLED` for a company whose plan has it off). Every logged-in user of the company lists, reads
 * and creates schedules; admins and supervisors edit and delete every one, a user only the ones they scheduled (403
 * `ERR_NO_PERMISSION`). Another company's schedule is 404 `ERR_NO_SCHEDULE_FOUND`. A sent schedule is not editable
 * (409 `ERR_SCHEDULE_ALREADY_SENT`).
 *
 * Media: `POST /api/schedules/{id}/media-upload` is `multipart/form-data` with one png, jpg or jpeg in `file`; it
 * replaces any earlier file. `DELETE .../media-upload` removes it.
 */
import { defineRoutes } from "../contract.ts";
import {
  CreateScheduleBody,
  ListSchedulesQuery,
  Schedule,
  ScheduleDeleted,
  ScheduleIdParams,
  SchedulesPage,
  UpdateScheduleBody,
} from "./schema.ts";

const plan = "useSchedules" as const;

export const schedulesRoutes = defineRoutes("schedules", {
  "GET /api/schedules": { auth: "user", plan, query: ListSchedulesQuery, response: SchedulesPage },
  "GET /api/schedules/{id}": { auth: "user", plan, params: ScheduleIdParams, response: Schedule },
  "POST /api/schedules": { auth: "user", plan, body: CreateScheduleBody, response: Schedule },
  "PUT /api/schedules/{id}": { auth: "user", plan, params: ScheduleIdParams, body: UpdateScheduleBody, response: Schedule },
  "DELETE /api/schedules/{id}": { auth: "user", plan, params: ScheduleIdParams, response: ScheduleDeleted },
  /** Multipart: one png, jpg or jpeg in `file`. Answers the schedule with its new media. */
  "POST /api/schedules/{id}/media-upload": { auth: "user", plan, params: ScheduleIdParams, multipart: true, response: Schedule },
  "DELETE /api/schedules/{id}/media-upload": { auth: "user", plan, params: ScheduleIdParams, response: Schedule },
});
