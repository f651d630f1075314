/**
 * The dashboard benchmark: `GET /api/dashboard` for the last 30 and 90 days through the local gateway, in a company
 * holding N tickets (the tickets bench's seed: ticket items with their contacts) and the counter items their service
 * cycles leave: each ticket opened, accepted 1-15 min later and closed 5-60 min after that by one of 8 attendants,
 * spread over the last 90 days, a third of them rated. The counters are what the counters listener writes for those
 * facts (`counterFacts.ticket`, summed per local day and attendant, written with ADD). The answer reads only counter
 * items, so its cost follows days × attendants, not tickets: the target is flat from 1k to 10k.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { makeUser } from "../../test/helpers.ts";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { openedInHour } from "../../shared/src/db/counters.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { counterFacts, localDayHour } from "../../shared/src/events/outbox.ts";
import { cycleAfter } from "../../shared/src/tickets/cycles.ts";
import { caseRow } from "./http-load.ts";

const ATTENDANTS = 8;
const ZONE = "America/Sao_Paulo";

/** Seeds the counter items of `n` tickets' cycles over the last 90 days in company `companyId`; returns the items written. */
export async function seedDashboardCounters(companyId: number, n: number): Promise<number> {
  const users: number[] = [];
  for (let i = 0; i < ATTENDANTS; i++) users.push((await makeUser(companyId, { profile: "user", name: `Atendente ${i + 1}` })).id);
  const sums = new Map<string, { day: string; userId: number | null; add: Record<string, number> }>();
  const bump = (day: string, userId: number | null, add: Record<string, number>) => {
    const k = `${day}|${userId ?? ""}`;
    const s = sums.get(k) ?? { day, userId, add: {} };
    for (const [c, v] of Object.entries(add)) s.add[c] = (s.add[c] ?? 0) + v;
    sums.set(k, s);
  };
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const opened = now - Math.floor(((i * 7919) % n) / n * 90 * 86_400_000);
    const userId = users[i % ATTENDANTS];
    const iso = (ms: number) => new Date(ms).toISOString();
    const base = { companyId, id: i + 1, userId: null as number | null, version: 0, contactId: i + 1, queueId: null, whatsappId: 1, queuedAt: null, acceptedAt: null, acceptedBy: null, ratingAt: null };
    const t0 = { ...base, status: "pending", createdAt: iso(opened), updatedAt: iso(opened) };
    Object.assign(t0, cycleAfter(null, t0));
    const t1 = { ...t0, status: "open", userId, version: 1, updatedAt: iso(opened + (1 + (i % 15)) * 60_000) };
    Object.assign(t1, cycleAfter(t0, t1));
    const t2 = { ...t1, status: "closed", version: 2, updatedAt: iso(Date.parse(t1.updatedAt) + (5 + (i % 56)) * 60_000) };
    Object.assign(t2, cycleAfter(t1, t2));
    for (const e of [counterFacts.ticket(null, t0)!, counterFacts.ticket(t0, t1)!, counterFacts.ticket(t1, t2)!]) {
      const { day, hour } = localDayHour(e.at, ZONE);
      const add = { ...(e.deltas as Record<string, number>) };
      bump(day, null, { ...add, ...(add.ticketsOpened ? { [openedInHour(hour)]: add.ticketsOpened } : {}) });
      if (e.userId != null) bump(day, e.userId, add);
    }
    if (i % 3 === 0) {
      const { day } = localDayHour(t2.updatedAt, ZONE);
      bump(day, null, { ratings: 1, ratingSum: 1 + (i % 3) });
      bump(day, userId, { ratings: 1, ratingSum: 1 + (i % 3) });
    }
  }
  const list = [...sums.values()];
  for (let i = 0; i < list.length; i += 25) {
    await Promise.all(
      list.slice(i, i + 25).map((s) => {
        const entries = Object.entries(s.add);
        return ddb().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.stats(companyId, s.day, s.userId),
            UpdateExpression: `ADD ${entries.map((_, j) => `#c${j} :c${j}`).join(", ")}`,
            ExpressionAttributeNames: Object.fromEntries(entries.map(([c], j) => [`#c${j}`, c])),
            ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], j) => [`:c${j}`, v])),
          }),
        );
      }),
    );
  }
  return list.length;
}

/** `GET /api/dashboard?days=30|90` as the company's admin: one row per period. */
export async function runDashboardCases(url: string, token: string, n: number, counterItems: number, ddbPids: number[], reps: { c1: number; c10: number }) {
  const rows: Record<string, unknown>[] = [];
  for (const days of [30, 90]) {
    const target = `${url}/api/dashboard?days=${days}`;
    const r = await fetch(target, { headers: { authorization: `Bearer ${token}` } });
    if (r.status !== 200) throw new Error(`dashboard ${days}: HTTP ${r.status} ${await r.text()}`);
    const body = (await r.json()) as { counters: { supportFinished: number } };
    const figures = await caseRow(target, token, ddbPids, reps).catch((err: Error) => ({ error: err.message.slice(0, 200) }));
    const row = { tickets: n, counterItems, days, finished: body.counters.supportFinished, ...figures };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  return rows;
}
