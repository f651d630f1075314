import { describe, expect, it } from "vitest";
import { DEFAULT_SCHEDULES, fullWeek, type QueueSchedule } from "../queues/schema.ts";
import { isOpenAt } from "./hours.ts";

const day = (weekdayEn: QueueSchedule["weekdayEn"], startTime: string, endTime: string): QueueSchedule => ({ weekday: weekdayEn, weekdayEn, startTime, endTime });
const at = (iso: string) => new Date(iso);

describe("business hours in the company's zone", () => {
  it("uses the default week (Mon-Fri 08:00-18:00, Sat 08:00-12:00) in São Paulo, not the server's zone", () => {
    // Tuesday 2026-03-10; São Paulo is UTC-3.
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-10T10:59:00Z"))).toBe(false); // 07:59
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-10T11:00:00Z"))).toBe(true); // 08:00
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-10T20:59:00Z"))).toBe(true); // 17:59
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-10T21:00:00Z"))).toBe(false); // 18:00
    // Saturday 08:00-12:00, Sunday 00:00-00:00 = closed all day.
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-14T14:30:00Z"))).toBe(true); // Sat 11:30
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-14T15:00:00Z"))).toBe(false); // Sat 12:00
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-15T00:00:00Z"))).toBe(false); // Sat 21:00
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-15T15:00:00Z"))).toBe(false); // Sun 12:00
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-15T03:00:00Z"))).toBe(false); // Sun 00:00
    // The same instant in Tokyo is Tuesday 23:00 (before: Wednesday), closed there.
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-10T14:00:00Z"), "Asia/Tokyo")).toBe(false);
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-10T00:00:00Z"), "Asia/Tokyo")).toBe(true); // Tue 09:00
  });

  it("follows New York's daylight-saving change (8 March 2026): the same UTC instant is closed before it and open after", () => {
    const ny = "America/New_York";
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-06T12:30:00Z"), ny)).toBe(false); // Fri 07:30 EST
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-06T13:00:00Z"), ny)).toBe(true); // Fri 08:00 EST
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-09T12:30:00Z"), ny)).toBe(true); // Mon 08:30 EDT
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-09T11:59:00Z"), ny)).toBe(false); // Mon 07:59 EDT
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-09T21:59:00Z"), ny)).toBe(true); // Mon 17:59 EDT
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-09T22:00:00Z"), ny)).toBe(false); // Mon 18:00 EDT
    // Night hours over the change: Saturday 22:00 to Sunday 04:00, the clock jumps 02:00 → 03:00 on Sunday.
    const night = [day("saturday", "22:00", "04:00")];
    expect(isOpenAt(night, at("2026-03-08T06:59:00Z"), ny)).toBe(true); // Sun 01:59 EST
    expect(isOpenAt(night, at("2026-03-08T07:00:00Z"), ny)).toBe(true); // Sun 03:00 EDT (02:00 never happened)
    expect(isOpenAt(night, at("2026-03-08T07:59:00Z"), ny)).toBe(true); // Sun 03:59 EDT
    expect(isOpenAt(night, at("2026-03-08T08:00:00Z"), ny)).toBe(false); // Sun 04:00 EDT
  });

  it("follows Brazil's old daylight-saving time (from 4 November 2018, UTC-2)", () => {
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2018-10-29T10:30:00Z"))).toBe(false); // Mon 07:30 BRT
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2018-11-05T10:30:00Z"))).toBe(true); // Mon 08:30 BRST
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2018-11-05T19:59:00Z"))).toBe(true); // Mon 17:59 BRST
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2018-11-05T20:00:00Z"))).toBe(false); // Mon 18:00 BRST
  });

  it("runs a day across midnight into the next morning, and only that day's night", () => {
    const week = [day("friday", "22:00", "02:00")];
    expect(isOpenAt(week, at("2026-03-14T00:59:00Z"))).toBe(false); // Fri 21:59
    expect(isOpenAt(week, at("2026-03-14T01:00:00Z"))).toBe(true); // Fri 22:00
    expect(isOpenAt(week, at("2026-03-14T04:30:00Z"))).toBe(true); // Sat 01:30
    expect(isOpenAt(week, at("2026-03-14T05:00:00Z"))).toBe(false); // Sat 02:00
    expect(isOpenAt(week, at("2026-03-15T04:30:00Z"))).toBe(false); // Sun 01:30: Saturday has no night
    expect(isOpenAt(week, at("2026-03-13T04:30:00Z"))).toBe(false); // Fri 01:30: Thursday has no night
  });

  it("treats empty times, equal times and missing weekdays as closed, and an empty week as the defaults", () => {
    expect(isOpenAt([day("tuesday", "", "")], at("2026-03-10T15:00:00Z"))).toBe(false);
    expect(isOpenAt([day("tuesday", "08:00", "")], at("2026-03-10T15:00:00Z"))).toBe(false);
    expect(isOpenAt([day("tuesday", "09:00", "09:00")], at("2026-03-10T15:00:00Z"))).toBe(false);
    expect(isOpenAt([day("monday", "00:00", "24:00")], at("2026-03-10T15:00:00Z"))).toBe(false); // Tuesday missing
    expect(isOpenAt([day("tuesday", "00:00", "24:00")], at("2026-03-10T15:00:00Z"))).toBe(true);
    expect(isOpenAt([], at("2026-03-10T15:00:00Z"))).toBe(true); // Tue 12:00 by the defaults
    expect(isOpenAt([], at("2026-03-15T15:00:00Z"))).toBe(false); // Sunday
  });

  it("shows admins the week the bot reads: the defaults for none saved, a day missing from a saved week as closed", () => {
    expect(fullWeek([]).map((d) => `${d.weekdayEn} ${d.startTime}-${d.endTime}`)).toEqual([
      "monday 08:00-18:00",
      "tuesday 08:00-18:00",
      "wednesday 08:00-18:00",
      "thursday 08:00-18:00",
      "friday 08:00-18:00",
      "saturday 08:00-12:00",
      "sunday 00:00-00:00",
    ]);
    const saved = [day("monday", "09:00", "17:00")];
    const shown = fullWeek(saved);
    expect(shown.map((d) => `${d.weekdayEn} ${d.startTime}-${d.endTime}`)).toEqual([
      "monday 09:00-17:00",
      "tuesday 00:00-00:00",
      "wednesday 00:00-00:00",
      "thursday 00:00-00:00",
      "friday 00:00-00:00",
      "saturday 00:00-00:00",
      "sunday 00:00-00:00",
    ]);
    // Tuesday 12:00 in São Paulo: closed by what was saved and by what is shown alike.
    expect(isOpenAt(saved, at("2026-03-10T15:00:00Z"))).toBe(false);
    expect(isOpenAt(shown, at("2026-03-10T15:00:00Z"))).toBe(false);
    expect(isOpenAt(shown, at("2026-03-09T15:00:00Z"))).toBe(true); // Monday 12:00
  });

  it("falls back to São Paulo for an unknown zone name", () => {
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-10T11:00:00Z"), "Mars/Olympus")).toBe(true);
    expect(isOpenAt(DEFAULT_SCHEDULES, at("2026-03-10T10:59:00Z"), "Mars/Olympus")).toBe(false);
  });
});
