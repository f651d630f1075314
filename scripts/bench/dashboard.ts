/**
 * The dashboard benchmark: `GET /api/dashboard` for the last 30 and 90 days through the local gateway, in a company
 * holding N tickets written with the product's item builders (`seed.ts` `seedTicketItems`: contact with its markers,
 * ticket, its customer's message with aliases, service cycles and report entries, ACTIVE markers) and the counter items
 * those tickets leave, summed as the counters listener applies them: each ticket opened over the last 90 days by one
 * customer's message, accepted 1-15 min later by one of 8 attendants and, for 90% of them, closed 5-60 min after that
 * (a third of those rated); 5% left open, 5% pending. The days already handed over carry their customers' messages as
 * `messagesIn` (no hand-over item left, as the minute tick leaves them); today's keep theirs. The answer reads only
 * counter items, so its cost follows days × attendants, not tickets: the target is flat from 1k to 100k. With
 * `--keepDb` the seed goes straight into DynamoDB Local's file and is kept (`bench.ts` `seeded`).
 */
import { makeUser } from "../../test/helpers.ts";
import { counterFacts, type OutboxEntry } from "../../shared/src/events/outbox.ts";
import { caseRow } from "./http-load.ts";
import { ddbWorkOf } from "./search.ts";
import { SeedCounters, batchPut, seedCounters, seedFileTarget, seedTicketItems, writeSeedFile, type SeedNames, type SeedTicket } from "./seed.ts";

const ATTENDANTS = 8;
const DAY_MS = 86_400_000;

/** The bench tenant the dashboard seed fills. */
export interface DashboardTenant {
  companyId: number;
  whatsappId: number;
  queueIds: number[];
  admin: { id: number };
  names: SeedNames;
}

/** Ticket `i` of `n` of the dashboard seed at seed time `now` (ids from 1; contact and ticket share it). */
function dashboardTicket(i: number, n: number, now: number, users: { id: number; name: string }[]): SeedTicket {
  const r = i % 20;
  return {
    id: i,
    name: `Cliente ${i}`,
    number: `55118${String(i).padStart(8, "0")}`,
    status: r === 0 ? "pending" : r === 1 ? "open" : "closed",
    // Spread over the last 90 days, the newest two hours before the seed (so every move is in the past).
    at: new Date(now - 2 * 3_600_000 - Math.floor((((i * 7919) % n) / n) * 89 * DAY_MS)),
    bodies: [`Olá, preciso de ajuda ${i}`],
    index: false,
    user: users[i % users.length],
    moveGapsMs: [(1 + (i % 15)) * 60_000, (5 + (i % 56)) * 60_000],
  };
}

/**
 * The items of the dashboard seed (see the file's comment), the counter items last: a hand-over item due before `now`
 * becomes the `messagesIn` it would have handed over.
 */
function* dashboardItems(t: DashboardTenant, n: number, now: number, users: { id: number; name: string }[]): Generator<Record<string, unknown>> {
  const o = { companyId: t.companyId, whatsappId: t.whatsappId, userId: t.admin.id, queueIds: t.queueIds, names: t.names };
  const counters = new SeedCounters();
  for (let i = 1; i <= n; i++) {
    const s = dashboardTicket(i, n, now, users);
    for (const item of seedTicketItems(o, s, counters)) {
      const handOver = item._type === "outbox" ? (item as unknown as OutboxEntry) : null;
      if (handOver?.messagesInDay && Date.parse(String(handOver.dueAt)) < now) {
        counters.count({ ...handOver, deltas: { messagesIn: 1 } }); // one customer's message a ticket
        continue;
      }
      yield item;
    }
    if (s.status === "closed" && i % 3 === 0) {
      const ratedAt = new Date(s.at.getTime() + 60_000 * (1 + (i % 15) + 5 + (i % 56)) + 30_000).toISOString();
      counters.count(counterFacts.rating({ companyId: t.companyId, ticketId: i, userId: s.user!.id, rate: 1 + (i % 3), ratingAt: ratedAt, at: ratedAt }));
    }
  }
  yield* counters.records();
}

/**
 * Seeds the dashboard's company `t` with `n` tickets (8 attendants created first); returns the items written. Into
 * DynamoDB Local's file when the seeds write there (`seed.ts` `seedIntoFile`), else with BatchWriteItem.
 */
export async function seedDashboard(t: DashboardTenant, n: number): Promise<number> {
  const users: { id: number; name: string }[] = [];
  for (let i = 0; i < ATTENDANTS; i++) {
    const name = `Atendente ${i + 1}`;
    users.push({ id: (await makeUser(t.companyId, { profile: "user", name })).id, name });
  }
  const now = Date.now();
  let written = 0;
  if (seedFileTarget()) written = (await writeSeedFile(dashboardItems(t, n, now, users), n * 14)).rows;
  else {
    let chunk: Record<string, unknown>[] = [];
    for (const item of dashboardItems(t, n, now, users)) {
      chunk.push(item);
      if (chunk.length >= 5000) {
        await batchPut(chunk);
        written += chunk.length;
        chunk = [];
      }
    }
    await batchPut(chunk);
    written += chunk.length;
  }
  await seedCounters(t.companyId, n);
  return written;
}

/** `GET /api/dashboard?days=30|90` as the company's admin: one row per period. */
export async function runDashboardCases(url: string, t: { companyId: number; admin: { token: string } }, n: number, seedSeconds: number, ddbPids: number[], reps: { c1: number; c10: number }) {
  const token = t.admin.token;
  const rows: Record<string, unknown>[] = [];
  for (const days of [30, 90]) {
    const target = `${url}/api/dashboard?days=${days}`;
    const get = async () => {
      const r = await fetch(target, { headers: { authorization: `Bearer ${token}` } });
      if (r.status !== 200) throw new Error(`dashboard ${days}: HTTP ${r.status} ${await r.text()}`);
      return (await r.json()) as { counters: { supportFinished: number } };
    };
    // The first answer rolls up the period's sealed months (docs/product/dashboard.md#roll-ups); the items a
    // later answer reads are counted on one request.
    const body = await get();
    const work = await ddbWorkOf(get);
    const figures = await caseRow(target, token, ddbPids, reps).catch((err: Error) => ({ error: err.message.slice(0, 200) }));
    const row = { tickets: n, seedS: seedSeconds, "ddb per request": work, days, finished: body.counters.supportFinished, ...figures };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  return rows;
}
