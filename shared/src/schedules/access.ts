/** Who may change one scheduled message (pure, so the web's buttons decide as the server does). */
import { can, type Actor } from "../access/permissions.ts";

/** True when the actor may edit and delete the schedule: `schedules:editAny` holders, else only its scheduler. */
export function canEditSchedule(actor: Actor & { userId?: number }, schedule: { userId: number | null }): boolean {
  return can(actor, "schedules:editAny") || (schedule.userId != null && schedule.userId === actor.userId);
}
