/**
 * Scheduled messages area. Thin: call the schedules service; who may do what is decided there. Contract:
 * `shared/src/schedules/contract.ts`. Sending at `sendAt` is the minute tick and the dispatch queue (`../jobs/dispatch.ts`).
 */
import {
  createSchedule,
  deleteSchedule,
  deleteScheduleMedia,
  listSchedulesFor,
  showSchedule,
  updateSchedule,
  uploadScheduleMedia,
} from "@atende/shared/schedules/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("schedules", {
  "GET /api/schedules": async (ctx) => listSchedulesFor(ctx.auth, ctx.query),
  "GET /api/schedules/{id}": async (ctx) => showSchedule(ctx.auth, ctx.params.id),
  "POST /api/schedules": async (ctx) => createSchedule(ctx.auth, ctx.body),
  "PUT /api/schedules/{id}": async (ctx) => updateSchedule(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/schedules/{id}": answering("Schedule deleted", (ctx) => deleteSchedule(ctx.auth, ctx.params.id)),
  "POST /api/schedules/{id}/media-upload": async (ctx) => uploadScheduleMedia(ctx.auth, ctx.params.id, ctx.upload),
  "DELETE /api/schedules/{id}/media-upload": async (ctx) => deleteScheduleMedia(ctx.auth, ctx.params.id),
});
