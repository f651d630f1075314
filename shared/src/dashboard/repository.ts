/**
 * Every DynamoDB call of the dashboard: the company's day items of a period (one Query of its counters partition,
 * `C#<cid>#STATS`, whose size is days × active users, whatever the number of tickets), its current counts, and the
 * platform's counts for super users (`keys.platformStats`: `companies` added in the company's creating transaction,
 * `sessions` a set of `<cid>#<wid>` of connected sessions kept by `./listener.ts`; set adds and removes are idempotent).
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { rawQueryPages } from "../db/query.ts";
import { DAILY_COUNTERS, type DailyCounter, MESSAGES_IN_LIVE, openedInHour } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { storedItemFailed } from "../db/items.ts";

export type Counts = Record<DailyCounter, number>;

/** A company's counters of a period: per day (with the opened-per-hour counts) and per user, summed over the period. */
export interface PeriodStats {
  days: Map<string, Counts & { hours: number[] }>;
  users: Map<number, Counts>;
}

/** What a period read needs: the counters it sums (others stay 0), and whether the opened-per-hour counts. */
export interface PeriodWants {
  counters: readonly DailyCounter[];
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

/**
 * The day items of company `companyId` from local day `from` to `to` (`yyyy-mm-dd`, both included), company and
 * users: one Query (paged) of the counters partition projected to the wanted counters, read as DynamoDB returns them
 * (numbers summed as they come, no document conversion: the read's cost is its items, days × active users).
 * `messagesIn` of a day item is the larger of its exact and live counts (`db/counters.ts` `messagesInOf`).
 * @throws AppError `ERR_INTERNAL` when a stored counter is not a number (logged).
 */
export async function readPeriodStats(companyId: number, from: string, to: string, wants: PeriodWants): Promise<PeriodStats> {
  const days: PeriodStats["days"] = new Map();
  const users: PeriodStats["users"] = new Map();
  const attrs = [...wants.counters, ...(wants.counters.includes("messagesIn") ? [MESSAGES_IN_LIVE] : []), ...(wants.hours ? HOURS : [])];
  const names: Record<string, string> = { "#sk": "SK" };
  attrs.forEach((a, i) => {
    names[`#a${i}`] = a;
  });
  const pk = keys.statsPK(companyId);
  const pages = rawQueryPages({
    KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
    ExpressionAttributeValues: { ":pk": { S: pk }, ":from": { S: keys.stats(companyId, from).SK }, ":to": { S: `${keys.stats(companyId, to).SK}#\uffff` } },
    ProjectionExpression: Object.keys(names).join(", "),
    ExpressionAttributeNames: names,
  });
  for await (const items of pages) {
    for (const it of items) {
      const sk = it.SK?.S ?? ""; // D#<day>[#U#<uid>]
      const day = sk.length > 12 ? null : dayCounts(days, sk.slice(2), wants.hours);
      const into = day ?? userCounts(users, Number(sk.slice(15)));
      for (const c of wants.counters) into[c] += c === "messagesIn" ? Math.max(counted(it, c, pk), counted(it, MESSAGES_IN_LIVE, pk)) : counted(it, c, pk);
      if (day && wants.hours) for (let h = 0; h < 24; h++) day.hours[h] += counted(it, HOURS[h], pk);
    }
  }
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
