/**
 * The pacing of a connection's campaign sends with a controlled clock and a seeded random source: 1,000 sends, the
 * achieved schedule printed in the assertions' messages (gaps between sends, where the longer pauses fell, what
 * happened at the quiet hours and at the daily cap).
 */
import { describe, expect, it } from "vitest";
import { isOpenAt } from "../automation/hours.ts";
import { DEFAULT_SCHEDULES } from "../queues/schema.ts";
import { DAILY_CAP, JITTER_FRACTION, localDay, nextSlot, type PacingRules } from "./pacing.ts";
import { PacerState } from "./schema.ts";

/** A seeded random source (mulberry32), so a failure is reproducible. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The send times of `n` sends planned back to back from `start` (the planner always asks as soon as it may). */
function schedule(n: number, rules: PacingRules, start: number, seed = 7): number[] {
  let state = PacerState.parse({});
  const rand = seeded(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const slot = nextSlot(state, rules, out.length ? out[out.length - 1] : start, rand);
    if (!slot) break;
    out.push(slot.at);
    state = slot.state;
  }
  return out;
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => (t - times[i]) / 1000);
const summary = (g: number[]) => `min ${Math.min(...g)} s, max ${Math.max(...g)} s, first gaps ${g.slice(0, 25).join(" ")}`;
// A Monday 09:00 in São Paulo (12:00 UTC).
const MONDAY_9 = Date.parse("2026-11-30T12:00:00Z");

describe("campaign pacing per connection", () => {
  it("1,000 sends at 20 s: every gap within [20, 30] s, a longer pause of [60, 90] s after every 20th send, jitter spread", () => {
    const rules: PacingRules = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60 };
    const times = schedule(1000, rules, MONDAY_9);
    const g = gaps(times);
    expect(times.length).toBe(1000);
    const longer = g.filter((_, i) => (i + 1) % 20 === 0);
    const normal = g.filter((_, i) => (i + 1) % 20 !== 0);
    const report = `achieved schedule: ${summary(g)}; longer pauses ${longer.slice(0, 10).join(" ")}`;
    expect(Math.min(...normal), report).toBeGreaterThanOrEqual(20);
    expect(Math.max(...normal), report).toBeLessThanOrEqual(20 * (1 + JITTER_FRACTION));
    expect(Math.min(...longer), report).toBeGreaterThanOrEqual(60);
    expect(Math.max(...longer), report).toBeLessThanOrEqual(60 * (1 + JITTER_FRACTION));
    expect(longer.length, report).toBe(49);
    // The jitter really varies: the gaps are not one fixed interval (the old engine's ban risk).
    expect(new Set(normal.map((x) => Math.round(x))).size, report).toBeGreaterThan(8);
    const mean = normal.reduce((a, b) => a + b, 0) / normal.length;
    expect(mean, report).toBeGreaterThan(22);
    expect(mean, report).toBeLessThan(28);
  });

  it("applies each interval in its own unit: 5 s between sends, 10 s after every 5th (not 5,000 sends)", () => {
    const g = gaps(schedule(30, { messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 10 }, MONDAY_9));
    const report = `achieved gaps ${g.join(" ")}`;
    g.forEach((x, i) => {
      if ((i + 1) % 5 === 0) expect(x, report).toBeGreaterThanOrEqual(10);
      else expect(x, report).toBeLessThan(10);
      expect(x, report).toBeGreaterThanOrEqual(5);
    });
  });

  it("zero intervals send back to back (the ceiling), never before the previous send", () => {
    const times = schedule(1000, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 }, MONDAY_9);
    expect(Math.min(...gaps(times))).toBe(0);
    expect(times[999]).toBe(MONDAY_9);
  });

  it("1,000 sends at 20 s within business hours: none at night nor on Sunday, resuming at the next opening", () => {
    const rules: PacingRules = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, hours: { schedules: DEFAULT_SCHEDULES, timeZone: "America/Sao_Paulo" } };
    // Friday 17:50: ten minutes of Friday, then Saturday 08:00-12:00, then Monday.
    const start = Date.parse("2026-12-04T20:50:00Z");
    const times = schedule(1000, rules, start);
    const closed = times.filter((t) => !isOpenAt(DEFAULT_SCHEDULES, new Date(t), "America/Sao_Paulo"));
    const byDay = new Map<string, number>();
    for (const t of times) byDay.set(localDay(t), (byDay.get(localDay(t)) ?? 0) + 1);
    const report = `achieved sends per local day: ${[...byDay].map(([d, n]) => `${d}=${n}`).join(", ")}; first after Friday ${new Date(times[(byDay.get("2026-12-04") ?? 0)]).toISOString()}`;
    expect(closed.map((t) => new Date(t).toISOString()), report).toEqual([]);
    expect([...byDay.keys()], report).toEqual(["2026-12-04", "2026-12-05", "2026-12-07"]);
    // Saturday starts at 08:00 local (11:00 UTC), within the opening jitter.
    const firstSaturday = times[byDay.get("2026-12-04") ?? 0];
    expect(firstSaturday - Date.parse("2026-12-05T11:00:00Z"), report).toBeGreaterThanOrEqual(0);
    expect(firstSaturday - Date.parse("2026-12-05T11:00:00Z"), report).toBeLessThan(60_000);
  });

  it("stops a connection at the daily cap and goes on the next local day", () => {
    const times = schedule(DAILY_CAP + 50, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 }, MONDAY_9);
    const byDay = new Map<string, number>();
    for (const t of times) byDay.set(localDay(t), (byDay.get(localDay(t)) ?? 0) + 1);
    const report = `achieved sends per local day: ${[...byDay].map(([d, n]) => `${d}=${n}`).join(", ")}`;
    expect([...byDay.values()], report).toEqual([DAILY_CAP, 50]);
  });
});
