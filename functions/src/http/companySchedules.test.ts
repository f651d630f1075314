/**
 * `PUT /api/companies/{id}/schedules` through the real Lambda handler (docs/product/business-hours.md): the
 * company's weekly hours and IANA time zone, defaults for a new company, own company only, bad bodies refused.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SCHEDULES } from "@atende/shared/queues/schema";
import { companyTimeZone } from "@atende/shared/companies/service";
import { api, makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";

const w = companyWorld();

const week = (start: string, end: string) => DEFAULT_SCHEDULES.map((d) => ({ ...d, startTime: start, endTime: end }));
const company = async (token: string, id: number) => (await api("GET", `/api/companies/listPlan/${id}`, { token })).body;

describe("PUT /api/companies/{id}/schedules", () => {
  it("a new company has the default hours in America/Sao_Paulo; an admin changes hours and zone", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const before = await company(admin.token, companyId);
    expect(before.timezone).toBe("America/Sao_Paulo");
    expect(before.schedules.map((s: any) => `${s.weekdayEn} ${s.startTime}-${s.endTime}`)).toEqual([
      "monday 08:00-18:00", "tuesday 08:00-18:00", "wednesday 08:00-18:00", "thursday 08:00-18:00", "friday 08:00-18:00", "saturday 08:00-12:00", "sunday 00:00-00:00",
    ]);
    const schedules = week("09:00", "17:00").reverse();
    const res = await api("PUT", `/api/companies/${companyId}/schedules`, { token: admin.token, body: { id: companyId, schedules, timezone: "Europe/Lisbon" } });
    expect(res.status).toBe(200);
    expect(res.body.timezone).toBe("Europe/Lisbon");
    expect(res.body.schedules.map((s: any) => s.weekdayEn)).toEqual(DEFAULT_SCHEDULES.map((d) => d.weekdayEn));
    const after = await company(admin.token, companyId);
    expect(after.timezone).toBe("Europe/Lisbon");
    expect(after.schedules[0]).toMatchObject({ weekdayEn: "monday", startTime: "09:00", endTime: "17:00" });
    // The dashboard and the reports read their days in the new zone at once (not after this process's 5-s gate copy).
    expect(await companyTimeZone(companyId)).toBe("Europe/Lisbon");
    await api("PUT", `/api/companies/${companyId}/schedules`, { token: admin.token, body: { schedules, timezone: "Asia/Tokyo" } });
    expect(await companyTimeZone(companyId)).toBe("Asia/Tokyo");
    await api("PUT", `/api/companies/${companyId}/schedules`, { token: admin.token, body: { schedules, timezone: "Europe/Lisbon" } });
    // Without a zone, the zone is kept.
    await api("PUT", `/api/companies/${companyId}/schedules`, { token: admin.token, body: { schedules: week("08:00", "18:00") } });
    expect((await company(admin.token, companyId)).timezone).toBe("Europe/Lisbon");
  });

  it("answers 403 to an admin of another company and to agents, changing nothing", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    const agent = await makeUser(a.cid);
    const body = { schedules: week("10:00", "11:00") };
    expect((await api("PUT", `/api/companies/${a.cid}/schedules`, { token: b.admin.token, body })).status).toBe(403);
    expect((await api("PUT", `/api/companies/${a.cid}/schedules`, { token: agent.token, body })).status).toBe(403);
    expect((await company(a.admin.token, a.cid)).schedules[0].startTime).toBe("08:00");
  });

  it("answers 400 to bad bodies (missing days, bad times, unknown zone, id differing from the path), changing nothing", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const bad = [
      { schedules: week("09:00", "17:00").slice(0, 6) },
      { schedules: [...week("09:00", "17:00").slice(0, 6), { ...DEFAULT_SCHEDULES[0] }] },
      { schedules: week("9h", "17:00") },
      { schedules: week("24:00", "17:00") },
      { schedules: week("09:00", "17:00"), timezone: "Marte/Base" },
      { id: companyId + 1, schedules: week("09:00", "17:00") },
      { schedules: "todos" },
    ];
    for (const body of bad) {
      const res = await api("PUT", `/api/companies/${companyId}/schedules`, { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    const after = await company(admin.token, companyId);
    expect(after.schedules[0].startTime).toBe("08:00");
    expect(after.timezone).toBe("America/Sao_Paulo");
  });
});
