/**
 * The pacing of a connection's campaign sends (docs/product/campaigns.md#pacing), pure so a test drives it with a
 * controlled clock and random source. One state per connection (every campaign of that connection shares it):
 *
 * - `messageInterval` seconds between two sends, and `greaterInterval` instead after every `longerIntervalAfter`
 *   sends (each taken as given: seconds and a count; never below `messageInterval`);
 * - plus a random jitter of up to {@link JITTER_FRACTION} of that gap (never less than the gap: no two sends of a
 *   connection closer than `messageInterval`);
 * - only within the company's business hours (quiet hours outside them): a send that would fall outside moves to the
 *   next opening plus a jitter, so connections do not all start at the same second;
 * - at most {@link DAILY_CAP} sends per connection per local day: the next goes to the next day's opening.
 */
import { TZDate } from "@date-fns/tz";
import { isOpenAt, nextOpening } from "../automation/hours.ts";
import type { QueueSchedule } from "../queues/schema.ts";
import type { CampaignSettings, PacerState } from "./schema.ts";

/** The largest random addition to a gap, as a fraction of it (a 20 s interval waits 20 to 30 s). */
export const JITTER_FRACTION = 0.5;
/** The largest jitter (ms) after an opening (quiet hours ended, a new day). */
export const OPENING_JITTER_MS = 60_000;
/** Sends per connection per local day. */
export const DAILY_CAP = 1000;

export interface PacingRules extends Pick<CampaignSettings, "messageInterval" | "longerIntervalAfter" | "greaterInterval"> {
  /** The company's business hours and zone; absent = any time. */
  hours?: { schedules: QueueSchedule[]; timeZone: string };
  dailyCap?: number;
}

/** The local day (yyyy-mm-dd) of `at` in `timeZone`. */
export function localDay(at: number, timeZone = "America/Sao_Paulo"): string {
  const d = new TZDate(at, timeZone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The local midnight that starts the day after `at`'s, in `timeZone` (epoch ms). */
function nextMidnight(at: number, timeZone: string): number {
  const d = new TZDate(at, timeZone);
  return new TZDate(d.getFullYear(), d.getMonth(), d.getDate() + 1, 0, 0, 0, timeZone).getTime();
}

/** The gap (ms, before jitter) that must follow the state's last send. */
export function baseGapMs(state: Pick<PacerState, "sent">, rules: PacingRules): number {
  const longer = rules.longerIntervalAfter > 0 && state.sent > 0 && state.sent % rules.longerIntervalAfter === 0;
  const seconds = longer ? Math.max(rules.greaterInterval, rules.messageInterval) : rules.messageInterval;
  return seconds * 1000;
}

/**
 * The next send time of a connection (epoch ms) from its state at `now`, and the state after it. `rand` returns a
 * number in [0, 1). Returns null when the business hours never open (nothing may be sent).
 */
export function nextSlot(state: PacerState, rules: PacingRules, now: number, rand: () => number): { at: number; state: PacerState } | null {
  const gap = baseGapMs(state, rules);
  let at = state.lastAt == null ? now : Math.max(now, state.lastAt + gap + Math.floor(rand() * JITTER_FRACTION * gap));
  const zone = rules.hours?.timeZone ?? "America/Sao_Paulo";
  const cap = rules.dailyCap ?? DAILY_CAP;
  for (let guard = 0; guard < 20; guard++) {
    const day = localDay(at, zone);
    if (day === state.day && state.dayCount >= cap) {
      at = nextMidnight(at, zone) + Math.floor(rand() * OPENING_JITTER_MS);
      continue;
    }
    if (rules.hours && !isOpenAt(rules.hours.schedules, new Date(at), zone)) {
      const open = nextOpening(rules.hours.schedules, new Date(at), zone);
      if (!open) return null;
      at = open.getTime() + Math.floor(rand() * OPENING_JITTER_MS);
      // The jitter may have crossed a closing minute: check again.
      continue;
    }
    return { at, state: { ...state, lastAt: at, sent: state.sent + 1, day, dayCount: day === state.day ? state.dayCount + 1 : 1, version: state.version + 1 } };
  }
  return null;
}
