/**
 * The due-index timers with a controlled clock: due items only, replaced and cancelled timers, a tick that
 * runs twice at once, a timer whose time passed while nothing ran, a handler that asks to run again, and one that
 * fails (retried after the claim, then given up).
 */
import { describe, expect, it } from "vitest";
import { CLAIM_MS, MAX_ATTEMPTS, cancelTimer, getTimer, registerTimerKind, runDueTimers, scheduleTimer, setTimerFlagOnce } from "./index.ts";

const T0 = Date.parse("2030-01-01T12:00:00.000Z");
const MIN = 60_000;
let cid = 70_000 + Math.floor(Math.random() * 10_000);
const fresh = () => ++cid;

/** Fired (companyId, ref, data) per kind, in order. */
const fired: Record<string, { companyId: number; ref: string; data: Record<string, unknown>; at: number }[]> = {};
function recordingKind(kind: string, behave: (n: number) => Promise<undefined | { rescheduleAt: number; data?: Record<string, unknown> }> = async () => undefined) {
  fired[kind] = [];
  registerTimerKind(kind, async (t, now) => {
    fired[kind].push({ companyId: t.companyId, ref: t.ref, data: t.data, at: now.getTime() });
    return behave(fired[kind].length);
  });
}

recordingKind("testOnce");
recordingKind("testAgain", async (n) => (n === 1 ? { rescheduleAt: T0 + 30 * MIN, data: { round: 2 } } : undefined));
let failures = 0;
registerTimerKind("testFails", async () => {
  failures++;
  throw new Error("boom");
});

const mine = (kind: string, companyId: number) => fired[kind].filter((f) => f.companyId === companyId);

describe("timers", () => {
  it("fires a timer only once it is due, with its data, and then removes it", async () => {
    const c = fresh();
    await scheduleTimer(c, "testOnce", 1, T0 + 10 * MIN, { why: "test" });
    await runDueTimers(new Date(T0 + 9 * MIN));
    expect(mine("testOnce", c)).toEqual([]);
    await runDueTimers(new Date(T0 + 10 * MIN));
    expect(mine("testOnce", c)).toEqual([{ companyId: c, ref: "1", data: { why: "test" }, at: T0 + 10 * MIN }]);
    expect(await getTimer(c, "testOnce", 1)).toBeNull();
    await runDueTimers(new Date(T0 + 60 * MIN));
    expect(mine("testOnce", c)).toHaveLength(1);
  });

  it("keeps one timer per (company, kind, ref): scheduling again replaces it, cancelling removes it", async () => {
    const c = fresh();
    await scheduleTimer(c, "testOnce", 7, T0 + 5 * MIN, { v: 1 });
    await scheduleTimer(c, "testOnce", 7, T0 + 20 * MIN, { v: 2 });
    await scheduleTimer(c, "testOnce", 8, T0 + 5 * MIN);
    await cancelTimer(c, "testOnce", 8);
    await runDueTimers(new Date(T0 + 10 * MIN));
    expect(mine("testOnce", c)).toEqual([]);
    await runDueTimers(new Date(T0 + 20 * MIN));
    expect(mine("testOnce", c).map((f) => [f.ref, f.data])).toEqual([["7", { v: 2 }]]);
  });

  it("fires once when two ticks run at the same moment, and once when it comes back long after the due time", async () => {
    const c = fresh();
    await scheduleTimer(c, "testOnce", 1, T0 + MIN);
    await scheduleTimer(c, "testOnce", 2, T0 + 2 * MIN);
    // Down for three days: the first ticks back (two at once) fire each timer once.
    const back = new Date(T0 + 3 * 24 * 60 * MIN);
    await Promise.all([runDueTimers(back), runDueTimers(back), runDueTimers(back)]);
    await runDueTimers(new Date(back.getTime() + CLAIM_MS + MIN));
    expect(mine("testOnce", c).map((f) => f.ref).sort()).toEqual(["1", "2"]);
  });

  it("runs a handler again at the time it asks for, with the new data", async () => {
    const c = fresh();
    await scheduleTimer(c, "testAgain", 1, T0 + MIN, { round: 1 });
    await runDueTimers(new Date(T0 + MIN));
    expect((await getTimer(c, "testAgain", 1))?.dueAt).toBe(new Date(T0 + 30 * MIN).toISOString());
    await runDueTimers(new Date(T0 + 29 * MIN));
    expect(mine("testAgain", c)).toHaveLength(1);
    await runDueTimers(new Date(T0 + 30 * MIN));
    expect(mine("testAgain", c).map((f) => f.data)).toEqual([{ round: 1 }, { round: 2 }]);
    expect(await getTimer(c, "testAgain", 1)).toBeNull();
  });

  it("retries a failing handler after its claim ends, and gives up after the last attempt", async () => {
    const c = fresh();
    await scheduleTimer(c, "testFails", 1, T0);
    const before = failures;
    let now = T0;
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      await runDueTimers(new Date(now));
      await runDueTimers(new Date(now)); // still claimed: not run again
      now += CLAIM_MS;
    }
    expect(failures - before).toBe(MAX_ATTEMPTS);
    expect(await getTimer(c, "testFails", 1)).toBeNull();
  });

  it("sets a flag on a timer once", async () => {
    const c = fresh();
    await scheduleTimer(c, "testOnce", 1, T0 + 60 * MIN);
    const both = await Promise.all([setTimerFlagOnce(c, "testOnce", 1, "reprompted"), setTimerFlagOnce(c, "testOnce", 1, "reprompted")]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect((await getTimer(c, "testOnce", 1))?.data).toEqual({ reprompted: true });
    expect(await setTimerFlagOnce(c, "testOnce", 2, "reprompted")).toBe(false);
  });
});
