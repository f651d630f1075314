/**
 * Scheduled messages' domain events, declared from the feature's own folder: `schedule.created|updated` carry the
 * schedule as the API answers it (each status move, PENDENTE → AGENDADA → ENVIADA or ERRO, is an update),
 * `schedule.deleted` its id. The realtime frame is `company-{id}-schedule` `{action: "create"|"update", schedule}` /
 * `{action: "delete", scheduleId}` to the whole company (everyone sees the company's calendar).
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { Schedule, ScheduleFrame } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "schedule.created": { type: "schedule.created"; companyId: number; schedule: Schedule };
    "schedule.updated": { type: "schedule.updated"; companyId: number; schedule: Schedule };
    "schedule.deleted": { type: "schedule.deleted"; companyId: number; scheduleId: number };
  }
}

defineEvents({
  "schedule.created": baseEvent("schedule.created").extend({ schedule: Schedule }),
  "schedule.updated": baseEvent("schedule.updated").extend({ schedule: Schedule }),
  "schedule.deleted": baseEvent("schedule.deleted").extend({ scheduleId: z.number().int() }),
});

defineFrames({ schedule: ScheduleFrame });

realtimeFrames("schedule.created", (e) => [{ name: "schedule", data: { action: "create", schedule: e.schedule }, audience: { kind: "company" } }]);
realtimeFrames("schedule.updated", (e) => [{ name: "schedule", data: { action: "update", schedule: e.schedule }, audience: { kind: "company" } }]);
realtimeFrames("schedule.deleted", (e) => [{ name: "schedule", data: { action: "delete", scheduleId: e.scheduleId }, audience: { kind: "company" } }]);
