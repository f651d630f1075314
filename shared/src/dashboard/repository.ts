/**
 * Every DynamoDB call of the dashboard: the company's day items of a period (one Query of its counters partition,
 * `C#<cid>#STATS`: one item per day, whatever the number of tickets and attendants), its current counts, and the
 * platform's counts for super users (`keys.platformStats`: `companies` added in the company's creating transaction,
 * `sessions` a set of `<cid>#<wid>` of connected sessions kept by `./listener.ts`; set adds and removes are idempotent).
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { rawQueryPages } from "../db/query.ts";
import { DAILY_COUNTERS, type DailyCounter, MESSAGES_IN_LIVE, openedInHour, userOfCounter } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { storedItemFailed } from "../db/items.ts";

export type Counts = Record<DailyCounter, number>;

/** A company's counters of a period: per day (with the opened-per-hour counts) and per user (when wanted), summed over the period. */
export interface PeriodStats {
  days: Map<string, Counts & { hours: number[] }>;
  users: Map<number, Counts>;
}

/**
 * What a period read needs: the counters it sums (others stay 0), whether per attendant (`users`), and whether the
 * opened-per-hour counts.
 */
export interface PeriodWants {
  counters: readonly DailyCounter[];
  users?: boolean;
  hours?: boolean;
}

const zero = (): Counts => Object.fromEntries(DAILY_COUNTERS.map((c) => [c, 0])) as Counts;
const HOURS = Array.from({ length: 24 }, (_, h) => openedInHour(h));

/**
 * The number a stored day item (of partition `pk`) holds in attribute `name` (0 when never counted).
 * @throws AppError `ERR_INTERNAL` (500, after an error log line naming the item) when it is not a number.
 */
function counted(it: Record<string, AttributeValue>, name: string, pk: string): number {
  const v = it[name];
  if (v === undefined) return 0;
  const n = v.N === undefined ? Number.NaN : Number(v.N);
  if (Number.isFinite(n)) return n;
  throw storedItemFailed({ PK: pk, SK: it.SK?.S }, [{ path: name, code: "invalid_type", message: "a counter that is not a number" }]);
}

/** Adds the `wants` counters of a day item (attributes `prefix` + counter) into `into`, `messagesIn` aside. */
function addCounted(into: Counts, it: Record<string, AttributeValue>, prefix: string, wants: readonly DailyCounter[], pk: string): void {
  for (const c of wants) if (c !== "messagesIn") into[c] += counted(it, `${prefix}${c}`, pk);
}

/** A day's customers' messages so far: the exact count handed over and the live one (the figure is the larger). */
type MessagesIn = { exact: number; live: number };

/**
 * The day items of company `companyId` from local day `from` to `to` (`yyyy-mm-dd`, both included): one Query
 * (paged) of the counters partition, read as DynamoDB returns them (numbers summed as they come, no document
 * conversion: the read's cost is its items, one per day). Per attendant (`wants.users`): the company day item's
 * `U#<uid>#<counter>` attributes (`db/counters.ts` `userCounter`; the item is read whole, as its attendants are not
 * known beforehand), plus the users' own day items of the former layout (`D#<day>#U#<uid>`), which sort right after
 * their day's item in the same range, so the same Query returns them. Without `wants.users`, the read is projected to
 * the wanted counters. `messagesIn` of a day (and of each attendant's day, both layouts summed) is the larger of its
 * exact and live counts (`db/counters.ts` `messagesInOf`).
 * @throws AppError `ERR_INTERNAL` when a stored counter is not a number (logged).
 */
export async function readPeriodStats(companyId: number, from: string, to: string, wants: PeriodWants): Promise<PeriodStats> {
  const days: PeriodStats["days"] = new Map();
  const users: PeriodStats["users"] = new Map();
  const pk = keys.statsPK(companyId);
  const messagesIn = wants.counters.includes("messagesIn");
  const wanted = new Set<string>(wants.counters);
  // Per day and attendant, both layouts summed before the larger is taken: a day counted live in the former layout
  // may be handed over in the current one.
  const inOf = new Map<string, MessagesIn & { into: Counts }>();
  const addIn = (key: string, into: Counts, it: Record<string, AttributeValue>, prefix: string) => {
    if (!messagesIn) return;
    const m = inOf.get(key) ?? { exact: 0, live: 0, into };
    m.exact += counted(it, `${prefix}messagesIn`, pk);
    m.live += counted(it, `${prefix}${MESSAGES_IN_LIVE}`, pk);
    inOf.set(key, m);
  };
  const projected = () => {
    const attrs = [...wants.counters, ...(wants.counters.includes("messagesIn") ? [MESSAGES_IN_LIVE] : []), ...(wants.hours ? HOURS : [])];
    const names: Record<string, string> = { "#sk": "SK" };
    attrs.forEach((a, i) => {
      names[`#a${i}`] = a;
    });
    return { ProjectionExpression: Object.keys(names).join(", "), ExpressionAttributeNames: names };
  };
  const pages = rawQueryPages({
    KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
    ExpressionAttributeValues: { ":pk": { S: pk }, ":from": { S: keys.stats(companyId, from).SK }, ":to": { S: `${keys.stats(companyId, to).SK}#\uffff` } },
    ...(wants.users ? {} : projected()),
  });
  for await (const items of pages) {
    for (const it of items) {
      const sk = it.SK?.S ?? ""; // D#<day>[#U#<uid>]
      if (sk.length > 12) {
        if (!wants.users) continue;
        const uid = Number(sk.slice(15));
        addCounted(userCounts(users, uid), it, "", wants.counters, pk);
        addIn(`${sk.slice(2, 12)}#${uid}`, userCounts(users, uid), it, "");
        continue;
      }
      const day = dayCounts(days, sk.slice(2), wants.hours);
      addCounted(day, it, "", wants.counters, pk);
      addIn(sk.slice(2), day, it, "");
      if (wants.hours) for (let h = 0; h < 24; h++) day.hours[h] += counted(it, HOURS[h], pk);
      if (!wants.users) continue;
      // One pass over the item's attributes: each `U#<uid>#<counter>` into that attendant's sums.
      for (const name in it) {
        const attendant = userOfCounter(name);
        if (!attendant) continue;
        const { userId: uid, counter: c } = attendant;
        if (c === "messagesIn" || c === MESSAGES_IN_LIVE) {
          if (!messagesIn) continue;
          const key = `${sk.slice(2)}#${uid}`;
          const m = inOf.get(key) ?? { exact: 0, live: 0, into: userCounts(users, uid) };
          if (c === "messagesIn") m.exact += counted(it, name, pk);
          else m.live += counted(it, name, pk);
          inOf.set(key, m);
        } else if (wanted.has(c)) userCounts(users, uid)[c as DailyCounter] += counted(it, name, pk);
      }
    }
  }
  for (const m of inOf.values()) m.into.messagesIn += Math.max(m.exact, m.live);
  return { days, users };
}

function userCounts(users: PeriodStats["users"], uid: number): Counts {
  const u = users.get(uid) ?? zero();
  users.set(uid, u);
  return u;
}

function dayCounts(days: PeriodStats["days"], day: string, hours?: boolean): Counts & { hours: number[] } {
  const d = days.get(day) ?? { ...zero(), hours: hours ? Array(24).fill(0) : [] };
  days.set(day, d);
  return d;
}

/** The platform's counts: companies and connected sessions. */
export async function readPlatformCounts(): Promise<{ companies: number; sessions: number }> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.platformStats }));
  const sessions = out.Item?.sessions as Set<string> | undefined;
  return { companies: Number(out.Item?.companies ?? 0), sessions: sessions?.size ?? 0 };
}

/** The transaction item that counts one more company (written with the company). */
export function platformCompanyAdded() {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.platformStats,
      UpdateExpression: "ADD companies :one",
      ExpressionAttributeValues: { ":one": 1 },
    },
  };
}

/** Marks connection `whatsappId` of `companyId` as connected or not in the platform's session set (idempotent). */
export async function setSessionConnected(companyId: number, whatsappId: number, connected: boolean): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.platformStats,
      UpdateExpression: `${connected ? "ADD" : "DELETE"} sessions :s`,
      ExpressionAttributeValues: { ":s": new Set([`${companyId}#${whatsappId}`]) },
    }),
  );
}
