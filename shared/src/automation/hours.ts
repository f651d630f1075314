/**
 * Business hours (docs/product/business-hours.md): is a company or a queue open at an
 * instant? Evaluated on the wall clock of the company's IANA zone with `@date-fns/tz` (never the server's zone), so
 * daylight-saving changes move the hours with the local clock.
 *
 * A week is a list of `{weekdayEn, startTime, endTime}` entries ("HH:mm"):
 * - `start < end`: open from start (inclusive) to end (exclusive) on that weekday;
 * - `start > end`: the day runs across midnight (22:00-02:00 = 22:00 to 24:00 that weekday and 00:00 to 02:00 the
 *   next morning, which still belongs to the entry of the day it started);
 * - `start == end` (the default Sunday, 00:00-00:00), an empty time, or a weekday without an entry: closed that
 *   day. 00:00-00:00 is shown as "closed"; an empty time is what remains when an admin clears a day, which
 *   means the same. (The old system counted empty days as open, so clearing a day silently opened it all day.)
 * - An empty list (hours never saved, e.g. a queue created before `scheduleType` was switched to `queue`) uses the
 *   default week, Monday to Friday 08:00-18:00 and Saturday 08:00-12:00, like a new company or queue.
 */
import { TZDate } from "@date-fns/tz";
import { DEFAULT_SCHEDULES, type QueueSchedule } from "../queues/schema.ts";
import { DEFAULT_TIME_ZONE } from "./variables.ts";

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

/** "HH:mm" → minutes of the day, or null for an empty or malformed time. */
function minutesOf(hhmm: string | undefined): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm ?? "");
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h <= 24 && min < 60 ? Math.min(h * 60 + min, 24 * 60) : null;
}

/** The [start, end) minutes of a weekday's entry, or null when that day is closed. */
function dayRange(schedules: QueueSchedule[], weekday: string): { start: number; end: number } | null {
  const entry = schedules.find((s) => s.weekdayEn.trim().toLowerCase() === weekday);
  const start = minutesOf(entry?.startTime);
  const end = minutesOf(entry?.endTime);
  if (start == null || end == null || start === end) return null;
  return { start, end };
}

/**
 * True when `schedules` say open at `at`, on the wall clock of `timeZone` (IANA; an unknown zone falls back to
 * America/Sao_Paulo). Rules in the module docstring. Never throws.
 */
export function isOpenAt(schedules: QueueSchedule[], at: Date, timeZone = DEFAULT_TIME_ZONE): boolean {
  const week = schedules.length ? schedules : DEFAULT_SCHEDULES;
  let local: TZDate;
  try {
    local = new TZDate(at.getTime(), timeZone);
    if (Number.isNaN(local.getHours())) throw new Error("bad zone");
  } catch {
    local = new TZDate(at.getTime(), DEFAULT_TIME_ZONE);
  }
  const day = local.getDay();
  const minute = local.getHours() * 60 + local.getMinutes();
  const today = dayRange(week, WEEKDAYS[day]);
  if (today) {
    if (today.start < today.end && minute >= today.start && minute < today.end) return true;
    if (today.start > today.end && minute >= today.start) return true;
  }
  // The tail of yesterday's hours when they ran across midnight.
  const yesterday = dayRange(week, WEEKDAYS[(day + 6) % 7]);
  return !!yesterday && yesterday.start > yesterday.end && minute < yesterday.end;
}

const MINUTE = 60_000;
const STEP = 15 * MINUTE;

/**
 * The first whole minute at or after `from` when `schedules` say open (same rules as {@link isOpenAt}), looking at
 * most `horizonDays` ahead; null when the week never opens. Scans in 15-minute steps and then back to the exact
 * minute (an opening window shorter than 15 minutes that falls between two steps is not seen).
 */
export function nextOpening(schedules: QueueSchedule[], from: Date, timeZone = DEFAULT_TIME_ZONE, horizonDays = 8): Date | null {
  const start = Math.ceil(from.getTime() / MINUTE) * MINUTE;
  if (isOpenAt(schedules, new Date(start), timeZone)) return new Date(start);
  for (let t = start + STEP; t <= start + horizonDays * 86_400_000; t += STEP) {
    if (!isOpenAt(schedules, new Date(t), timeZone)) continue;
    let first = t;
    while (first - MINUTE > t - STEP && isOpenAt(schedules, new Date(first - MINUTE), timeZone)) first -= MINUTE;
    return new Date(first);
  }
  return null;
}
