/**
 * The dashboard's sealed monthly roll-ups (docs/product/dashboard.md#monthly-roll-ups), through the real handlers and
 * the counters' real writers against DynamoDB Local: a period holding a sealed month answers the days' figures when
 * it builds the roll-up and when it reads it (no longer reading the month's days), a late fact counted through the
 * outbox shows on the next read, a late fact landing while a build is under way leaves no stale roll-up, today's facts
 * write no month item, and a month item holding a counter that is not a number is a 500 with a log line.
 */
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { api, makeUser, withErrorLogs } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { ddb, tableName } from "../../../shared/src/db/client.ts";
import { DAILY_COUNTERS, lastDayOf, monthNearlySealed, monthSealed, nextMonth } from "../../../shared/src/db/counters.ts";
import { keys } from "../../../shared/src/db/keys.ts";
import { readPeriodStats, readPeriodTotals, rollUpMonth } from "../../../shared/src/dashboard/repository.ts";
import { addMessagesInLive, applyOutbox, counterFacts, outboxPut, type OutboxEntry } from "../../../shared/src/events/outbox.ts";
import { cycleAfter } from "../../../shared/src/tickets/cycles.ts";

const w = companyWorld();

const dashboard = (token: string, from: string, to: string) => api("GET", `/api/dashboard?date_from=${from}&date_to=${to}`, { token });

/** The month (`yyyy-mm`) `back` months before the current UTC month: sealed for `back` >= 2 whatever today is. */
function monthsAgo(back: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
}

/** The month item of company `cid`'s month `month` as stored (strongly consistent). */
const monthItem = async (cid: number, month: string) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.statsMonth(cid, month), ConsistentRead: true }))).Item;

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

describe("sealed and nearly sealed months", () => {
  it("seal a month two days after its last UTC day, and invalidate it from one day after", () => {
    const at = (iso: string) => Date.parse(iso);
    expect([monthNearlySealed("2026-11", at("2026-12-01T23:59:59Z")), monthSealed("2026-11", at("2026-12-01T23:59:59Z"))]).toEqual([false, false]);
    expect([monthNearlySealed("2026-11", at("2026-12-02T00:00:00Z")), monthSealed("2026-11", at("2026-12-02T23:59:59Z"))]).toEqual([true, false]);
    expect(monthSealed("2026-11", at("2026-12-03T00:00:00Z"))).toBe(true);
    expect(monthSealed("2026-12", at("2027-01-03T00:00:00Z"))).toBe(true);
    expect([lastDayOf("2024-02"), lastDayOf("2026-12"), nextMonth("2026-12")]).toEqual(["2024-02-29", "2026-12-31", "2027-01"]);
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
    const totals = await rollUpMonth(c.cid, month, () => count(counterFacts.contact({ companyId: c.cid, id: 1, createdAt: `${month}-09T15:00:00.000Z` })));
    // The build answers the days as it read them, and its write failed its condition: the month item holds only the bumped revision.
    expect(totals.company).toMatchObject({ ticketsClosed: 1, contactsCreated: 0 });
    expect(await monthItem(c.cid, month)).toEqual({ ...keys.statsMonth(c.cid, month), rev: rev + 1 });
    // The next read builds it with the late fact.
    const res = await dashboard(c.admin.token, `${month}-01`, lastDayOf(month));
    expect(res.body.counters).toMatchObject({ supportFinished: 1, newContacts: 1 });
    expect(await monthItem(c.cid, month)).toMatchObject({ rev: rev + 1, builtRev: rev + 1, contactsCreated: 1 });
  });

  it("writes no month item for today's facts", async () => {
    const c = await w.fresh();
    await count(counterFacts.contact({ companyId: c.cid, id: 1, createdAt: new Date().toISOString() }));
    await addMessagesInLive(c.cid, new Date().toISOString().slice(0, 10), c.admin.id, 1);
    expect((await readPeriodTotals(c.cid, new Date().toISOString().slice(0, 10), new Date().toISOString().slice(0, 10))).users.get(c.admin.id)?.messagesIn).toBe(1);
    // Neither this month's item nor last month's: the day items' normal path writes what it wrote before.
    expect([await monthItem(c.cid, monthsAgo(0)), await monthItem(c.cid, monthsAgo(1))]).toEqual([undefined, undefined]);
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
