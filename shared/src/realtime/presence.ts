/**
 * The presence check's due-time item (due work is a due-time index item, never a scan): one timer
 * per user (`shared/src/timers`, kind {@link PRESENCE_CHECK}, ref = userId). Scheduled at every socket registration
 * for the registration's `expiresAt` (the newest registration replaces it, so it is due when the user's last socket
 * runs out), and for "now" wherever a socket is removed without `$disconnect` (a 410 on post, a revocation) or
 * `$disconnect` could not set the user offline. The handler (`./presence-kind.ts`, loaded by the minute tick) sets
 * the user offline when no live socket is left, and otherwise looks again when the newest one expires.
 * This module only schedules (no import of users or events), so the socket registry can call it without a cycle.
 */
import { scheduleTimer } from "../timers/index.ts";

/** Timer kind of the presence check. */
export const PRESENCE_CHECK = "presence";

/**
 * Schedules (or moves) user `userId`'s presence check in `companyId` to `dueAt` (Date, ISO or epoch ms; default now:
 * the next tick). One Put.
 */
export async function schedulePresenceCheck(companyId: number, userId: number, dueAt: Date | string | number = Date.now()): Promise<void> {
  await scheduleTimer(companyId, PRESENCE_CHECK, userId, dueAt);
}
