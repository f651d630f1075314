/**
 * The dashboard's sealed monthly and weekly roll-ups (docs/product/dashboard.md#roll-ups), through the real
 * handlers and the counters' real writers against DynamoDB Local: a period holding a sealed month, or sealed weeks
 * outside any whole month, answers the days' figures when it builds the roll-ups and when it reads them (no longer
 * reading their days), a late fact counted through the outbox shows on the next read, a late fact landing while a
 * build is under way leaves no stale roll-up, today's facts write no roll-up item, and a month item holding a counter
 * that is not a number is a 500 with a log line; and the cover's boundaries (Monday-start weeks, sealed and nearly
 * sealed spans).
 */
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { api, makeUser, withErrorLogs } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { ddb, tableName } from "../../../shared/src/db/client.ts";
import { DAILY_COUNTERS, daysAfter, lastDayOf, mondayOf, monthSpan, nextMonth, spanNearlySealed, spanSealed, weekSpan } from "../../../shared/src/db/counters.ts";
import { keys } from "../../../shared/src/db/keys.ts";
import { periodCover, readPeriodStats, readPeriodTotals, rollUp } from "../../../shared/src/dashboard/repository.ts";
import { addMessagesInLive, applyOutbox, counterFacts, outboxPut, type OutboxEntry } from "../../../shared/src/events/outbox.ts";
import { cycleAfter } from "../../../shared/src/tickets/cycles.ts";

const w = companyWorld();

const dashboard = (token: string, from: string, to: string) => api("GET", `/api/dashboard?date_from=${from}&date_to=${to}`, { token });

/** The month (`yyyy-mm`) `back` months before the current UTC month: sealed for `back` >= 2 whatever today is. */
function monthsAgo(back: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
}

/** The item of `key` as stored (strongly consistent). */
const stored = async (key: { PK: string; SK: string }) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
/** The month item of company `cid`'s month `month` as stored. */
const monthItem = (cid: number, month: string) => stored(keys.statsMonth(cid, month));
/** The week item of company `cid`'s week starting on Monday `monday` as stored. */
const weekItem = (cid: number, monday: string) => stored(keys.statsWeek(cid, monday));

/** Writes fact `e`'s outbox item and applies it through the counters' writer (a late fact when its day is old). */
async function count(e: OutboxEntry): Promise<void> {
  await ddb().send(new TransactWriteCommand({ TransactItems: outboxPut(e) }));
  expect(await applyOutbox(e)).toBe("applied");
}

/**
 * Counts, through the outbox, ticket `id` of company `companyId` opened on `day` at noon in São Paulo, accepted by
 * `userId` 6 min later and closed after 20 min of handling.
 */
async function countCycle(companyId: number, userId: number, id: number, day: string): Promise<void> {
  const at = (min: number) => new Date(Date.parse(`${day}T15:00:00.000Z`) + min * 60_000).toISOString();
  const base = { companyId, id, userId: null, version: 0, contactId: 1, queueId: null, whatsappId: 1, queuedAt: null, acceptedAt: null, acceptedBy: null, ratingAt: null };
  const opened = { ...base, status: "pending", createdAt: at(0), updatedAt: at(0) };
  Object.assign(opened, cycleAfter(null, opened));
  const accepted = { ...opened, status: "open", userId, version: 1, updatedAt: at(6) };
  Object.assign(accepted, cycleAfter(opened, accepted));
  const closed = { ...accepted, status: "closed", version: 2, updatedAt: at(26) };
  Object.assign(closed, cycleAfter(accepted, closed));
  for (const e of [counterFacts.ticket(null, opened)!, counterFacts.ticket(opened, accepted)!, counterFacts.ticket(accepted, closed)!]) await count(e);
}

/** The period's totals summed from its day items alone (the answer before roll-ups). */
async function dayTotals(cid: number, from: string, to: string) {
  const stats = await readPeriodStats(cid, from, to, { counters: DAILY_COUNTERS, users: true });
  const company = Object.fromEntries(DAILY_COUNTERS.map((c) => [c, [...stats.days.values()].reduce((n, d) => n + d[c], 0)]));
  return { company, users: stats.users };
}

describe("sealed and nearly sealed spans", () => {
  const at = (iso: string) => Date.parse(iso);
  it("seal a month two days after its last UTC day, and invalidate it from one day after", () => {
    const nov = lastDayOf("2026-11");
    expect([spanNearlySealed(nov, at("2026-12-01T23:59:59Z")), spanSealed(nov, at("2026-12-01T23:59:59Z"))]).toEqual([false, false]);
    expect([spanNearlySealed(nov, at("2026-12-02T00:00:00Z")), spanSealed(nov, at("2026-12-02T23:59:59Z"))]).toEqual([true, false]);
    expect(spanSealed(nov, at("2026-12-03T00:00:00Z"))).toBe(true);
    expect(spanSealed(lastDayOf("2026-12"), at("2027-01-03T00:00:00Z"))).toBe(true);
    expect([lastDayOf("2024-02"), lastDayOf("2026-12"), nextMonth("2026-12")]).toEqual(["2024-02-29", "2026-12-31", "2027-01"]);
  });

  it("start a week on Monday and seal it two days after its Sunday, invalidating it from one day after", () => {
    // Sunday the 29th belongs to the week of Monday the 23rd; a Monday starts its own; weeks cross months and years.
    expect([mondayOf("2026-11-29"), mondayOf("2026-11-23"), mondayOf("2026-11-30"), mondayOf("2027-01-01"), mondayOf("2024-03-01")]).toEqual(["2026-11-23", "2026-11-23", "2026-11-30", "2026-12-28", "2024-02-26"]);
    const week = weekSpan("2026-11-23");
    expect([week.first, week.last, week.key(7)]).toEqual(["2026-11-23", "2026-11-29", keys.statsWeek(7, "2026-11-23")]);
    expect([spanNearlySealed(week.last, at("2026-11-30T23:59:59Z")), spanSealed(week.last, at("2026-11-30T23:59:59Z"))]).toEqual([false, false]);
    expect([spanNearlySealed(week.last, at("2026-12-01T00:00:00Z")), spanSealed(week.last, at("2026-12-01T23:59:59Z"))]).toEqual([true, false]);
    expect(spanSealed(week.last, at("2026-12-02T00:00:00Z"))).toBe(true);
  });

  it("cover a period with sealed months, then sealed weeks in the edge months, then days", () => {
    const now = at("2026-11-29T12:00:00Z");
    const cover = (from: string, to: string) => {
      const c = periodCover(from, to, now);
      return { spans: c.spans.map((s) => `${s.kind} ${s.id}`), runs: c.runs };
    };
    // 90 days: September and October whole; November's sealed weeks (the one ending today is not sealed).
    expect(cover("2026-09-01", "2026-11-29")).toEqual({
      spans: ["month 2026-09", "month 2026-10", "week 2026-11-02", "week 2026-11-09", "week 2026-11-16"],
      runs: [["2026-11-01", "2026-11-01"], ["2026-11-23", "2026-11-29"]],
    });
    // 30 days: no whole month; weeks across the months' boundary.
    expect(cover("2026-10-25", "2026-11-23")).toEqual({
      spans: ["week 2026-10-26", "week 2026-11-02", "week 2026-11-09", "week 2026-11-16"],
      runs: [["2026-10-25", "2026-10-25"], ["2026-11-23", "2026-11-23"]],
    });
    // A month wholly inside splits the weeks at its edges: Sunday the 20th of September and the 28th to the 30th are days.
    expect(cover("2026-09-20", "2026-11-18")).toEqual({
      spans: ["week 2026-09-21", "month 2026-10", "week 2026-11-02", "week 2026-11-09"],
      runs: [["2026-09-20", "2026-09-20"], ["2026-09-28", "2026-09-30"], ["2026-11-01", "2026-11-01"], ["2026-11-16", "2026-11-18"]],
    });
    // A week whose Sunday is less than two days before today is read from its days.
    expect(cover("2026-11-16", "2026-11-28")).toEqual({ spans: ["week 2026-11-16"], runs: [["2026-11-23", "2026-11-28"]] });
    expect(periodCover("2026-11-16", "2026-11-22", at("2026-11-24T23:59:59Z")).spans).toEqual([]);
    expect(cover("2026-11-24", "2026-11-24")).toEqual({ spans: [], runs: [["2026-11-24", "2026-11-24"]] });
  });
});

describe("a period holding a sealed month", { timeout: 120_000 }, () => {
  it("answers the days' figures when building the roll-up and when reading it, and a late fact on the next read", async () => {
    const c = await w.fresh();
    const bia = await makeUser(c.cid, { name: "Bia" });
    const month = monthsAgo(3);
    const before = monthsAgo(4);
    const after = nextMonth(month);
    // From the 20th of the month before to the 10th of the month after: a leading and a trailing partial month.
    const from = `${before}-20`;
    const to = `${after}-10`;
    await countCycle(c.cid, c.admin.id, 1, `${before}-25`);
    await countCycle(c.cid, c.admin.id, 2, `${month}-05`);
    await countCycle(c.cid, bia.id, 3, `${month}-17`);
    await countCycle(c.cid, bia.id, 4, `${after}-03`);
    // Bia's customers' messages of the 17th: 2 counted live, 3 handed over (those 2 among them): 3.
    await addMessagesInLive(c.cid, `${month}-17`, bia.id, 2);
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.stats(c.cid, `${month}-17`),
        UpdateExpression: "ADD messagesIn :n, #bia :n",
        ExpressionAttributeNames: { "#bia": keys.statsUserAttr(bia.id, "messagesIn") },
        ExpressionAttributeValues: { ":n": 3 },
      }),
    );
    // The writers of the sealed month's days bumped its revision; nothing is rolled up yet.
    expect(await monthItem(c.cid, month)).toEqual({ ...keys.statsMonth(c.cid, month), rev: 7 });

    const built = await dashboard(c.admin.token, from, to);
    expect(built.status).toBe(200);
    expect(built.body.counters).toMatchObject({ supportFinished: 4, avgWaitTime: 6, avgSupportTime: 20, messagesIn: 3, newContacts: 0 });
    const byId = new Map(built.body.attendants.map((a: any) => [a.id, a]));
    expect(byId.get(c.admin.id)).toMatchObject({ tickets: 2, avgSupportTime: 20, messagesIn: 0 });
    expect(byId.get(bia.id)).toMatchObject({ tickets: 2, avgSupportTime: 20, messagesIn: 3 });
    // The read rolled the month up at its revision: the month's sums, company and per attendant, messagesIn resolved.
    expect(await monthItem(c.cid, month)).toMatchObject({ rev: 7, builtRev: 7, ticketsClosed: 2, messagesIn: 3, [keys.statsUserAttr(bia.id, "messagesIn")]: 3, [keys.statsUserAttr(c.admin.id, "ticketsAccepted")]: 1 });
    expect(await readPeriodTotals(c.cid, from, to)).toEqual(await dayTotals(c.cid, from, to));

    const read = await dashboard(c.admin.token, from, to);
    expect(read.body).toEqual(built.body);
    const users = await api("GET", `/api/dashboard/ticketsUsers?initialDate=${from}&finalDate=${to}`, { token: c.admin.token });
    expect(users.body.count).toBe(4);

    // A day item of the month changed behind the writers' back (no revision bump): the answer does not read it.
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.stats(c.cid, `${month}-12`), UpdateExpression: "ADD ticketsClosed :n", ExpressionAttributeValues: { ":n": 5 } }));
    expect((await dashboard(c.admin.token, from, to)).body).toEqual(built.body);

    // A late fact of that month, counted through the outbox: its transaction bumps the revision, the next read
    // takes the month from its days again (the 5 above among them) and rebuilds the roll-up.
    await count(counterFacts.contact({ companyId: c.cid, id: 9, createdAt: `${month}-20T15:00:00.000Z` }));
    expect((await monthItem(c.cid, month))?.rev).toBe(8);
    const late = await dashboard(c.admin.token, from, to);
    expect(late.body.counters).toMatchObject({ supportFinished: 9, newContacts: 1 });
    expect(await monthItem(c.cid, month)).toMatchObject({ rev: 8, builtRev: 8, ticketsClosed: 7, contactsCreated: 1 });
    expect((await dashboard(c.admin.token, from, to)).body).toEqual(late.body);
    expect(await readPeriodTotals(c.cid, from, to)).toEqual(await dayTotals(c.cid, from, to));
  });

  it("stores no roll-up when a late fact lands between the build's read and its write", async () => {
    const c = await w.fresh();
    const month = monthsAgo(2);
    await countCycle(c.cid, c.admin.id, 1, `${month}-08`);
    const rev = (await monthItem(c.cid, month))?.rev;
    const totals = await rollUp(c.cid, monthSpan(month), () => count(counterFacts.contact({ companyId: c.cid, id: 1, createdAt: `${month}-09T15:00:00.000Z` })));
    // The build answers the days as it read them, and its write failed its condition: the month item holds only the bumped revision.
    expect(totals.company).toMatchObject({ ticketsClosed: 1, contactsCreated: 0 });
    expect(await monthItem(c.cid, month)).toEqual({ ...keys.statsMonth(c.cid, month), rev: rev + 1 });
    // The next read builds it with the late fact.
    const res = await dashboard(c.admin.token, `${month}-01`, lastDayOf(month));
    expect(res.body.counters).toMatchObject({ supportFinished: 1, newContacts: 1 });
    expect(await monthItem(c.cid, month)).toMatchObject({ rev: rev + 1, builtRev: rev + 1, contactsCreated: 1 });
  });

  it("writes no month or week item for today's facts", async () => {
    const c = await w.fresh();
    await count(counterFacts.contact({ companyId: c.cid, id: 1, createdAt: new Date().toISOString() }));
    await addMessagesInLive(c.cid, new Date().toISOString().slice(0, 10), c.admin.id, 1);
    expect((await readPeriodTotals(c.cid, new Date().toISOString().slice(0, 10), new Date().toISOString().slice(0, 10))).users.get(c.admin.id)?.messagesIn).toBe(1);
    // Neither this month's item nor last month's: the day items' normal path writes what it wrote before.
    expect([await monthItem(c.cid, monthsAgo(0)), await monthItem(c.cid, monthsAgo(1))]).toEqual([undefined, undefined]);
    const monday = mondayOf(new Date().toISOString().slice(0, 10));
    expect([await weekItem(c.cid, monday), await weekItem(c.cid, daysAfter(monday, -7))]).toEqual([undefined, undefined]);
  });
});

describe("a period holding sealed weeks outside any whole month", { timeout: 120_000 }, () => {
  it("answers the days' figures when building the week roll-ups and when reading them, and a late fact on the next read", async () => {
    const c = await w.fresh();
    const bia = await makeUser(c.cid, { name: "Bia" });
    const month = monthsAgo(3);
    // The 2nd to the 27th of a sealed month: the month is not wholly inside, its whole weeks are (the one holding the
    // 10th among them).
    const from = `${month}-02`;
    const to = `${month}-27`;
    const monday = mondayOf(`${month}-10`);
    await countCycle(c.cid, c.admin.id, 1, from);
    await countCycle(c.cid, c.admin.id, 2, daysAfter(monday, 2));
    await countCycle(c.cid, bia.id, 3, daysAfter(monday, 6));
    await countCycle(c.cid, bia.id, 4, to);
    // Each writer of the week's days bumped its revision (and its month's); nothing is rolled up yet.
    expect(await weekItem(c.cid, monday)).toEqual({ ...keys.statsWeek(c.cid, monday), rev: 6 });
    expect(periodCover(from, to).spans.map((s) => s.id)).toContain(monday);

    const built = await dashboard(c.admin.token, from, to);
    expect(built.status).toBe(200);
    expect(built.body.counters).toMatchObject({ supportFinished: 4, avgWaitTime: 6, avgSupportTime: 20, newContacts: 0 });
    const byId = new Map(built.body.attendants.map((a: any) => [a.id, a]));
    expect(byId.get(c.admin.id)).toMatchObject({ tickets: 2, avgSupportTime: 20 });
    expect(byId.get(bia.id)).toMatchObject({ tickets: 2, avgSupportTime: 20 });
    // The read rolled the week up at its revision, company and per attendant; the month was not rolled up.
    expect(await weekItem(c.cid, monday)).toMatchObject({ rev: 6, builtRev: 6, ticketsClosed: 2, [keys.statsUserAttr(bia.id, "ticketsAccepted")]: 1, [keys.statsUserAttr(c.admin.id, "ticketsAccepted")]: 1 });
    expect((await monthItem(c.cid, month))?.builtRev).toBeUndefined();
    expect(await readPeriodTotals(c.cid, from, to)).toEqual(await dayTotals(c.cid, from, to));
    expect((await dashboard(c.admin.token, from, to)).body).toEqual(built.body);

    // A day item of the week changed behind the writers' back (no revision bump): the answer does not read it.
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.stats(c.cid, daysAfter(monday, 3)), UpdateExpression: "ADD ticketsClosed :n", ExpressionAttributeValues: { ":n": 5 } }));
    expect((await dashboard(c.admin.token, from, to)).body).toEqual(built.body);

    // A late fact of that week, counted through the outbox: its transaction bumps the week's revision (and the
    // month's), the next read takes the week from its days again (the 5 above among them) and rebuilds it.
    const monthRev = (await monthItem(c.cid, month))?.rev;
    await count(counterFacts.contact({ companyId: c.cid, id: 9, createdAt: `${daysAfter(monday, 4)}T15:00:00.000Z` }));
    expect([(await weekItem(c.cid, monday))?.rev, (await monthItem(c.cid, month))?.rev]).toEqual([7, monthRev + 1]);
    const late = await dashboard(c.admin.token, from, to);
    expect(late.body.counters).toMatchObject({ supportFinished: 9, newContacts: 1 });
    expect(await weekItem(c.cid, monday)).toMatchObject({ rev: 7, builtRev: 7, ticketsClosed: 7, contactsCreated: 1 });
    expect((await dashboard(c.admin.token, from, to)).body).toEqual(late.body);
    expect(await readPeriodTotals(c.cid, from, to)).toEqual(await dayTotals(c.cid, from, to));
  });
});

describe("a stored month item failing its schema", () => {
  it("answers 500 ERR_INTERNAL and logs an error naming the item's key", async () => {
    const c = await w.fresh();
    const month = monthsAgo(2);
    const key = keys.statsMonth(c.cid, month);
    // Our bug, simulated: a fresh roll-up holding a counter stored as text.
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...key, builtRev: 0, ticketsClosed: 2, handled: "2" } }));
    const { result: got, logs } = await withErrorLogs(() => dashboard(c.admin.token, `${month}-01`, lastDayOf(month)));
    expect(got.status).toBe(500);
    expect(got.body).toEqual({ error: "ERR_INTERNAL" });
    expect(logs.find((l) => l.msg === "stored item fails its schema")).toMatchObject({ level: "error", PK: key.PK, SK: key.SK });
  });
});
