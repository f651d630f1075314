/**
 * Every DynamoDB call of the dashboard: the company's day items of a period (one Query of its counters partition,
 * `C#<cid>#STATS`, whose size is days × active users, whatever the number of tickets), its current counts, and the
 * platform's counts for super users (`keys.platformStats`: `companies` added in the company's creating transaction,
 * `sessions` a set of `<cid>#<wid>` of connected sessions kept by `./listener.ts`; set adds and removes are idempotent).
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { DAILY_COUNTERS, type DailyCounter, dailyCountersOf, openedInHour } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";

export type Counts = Record<DailyCounter, number>;

/** A company's counters of a period: per day (with the opened-per-hour counts) and per user, summed over the period. */
export interface PeriodStats {
  days: Map<string, Counts & { hours: number[] }>;
  users: Map<number, Counts>;
}

const zero = (): Counts => Object.fromEntries(DAILY_COUNTERS.map((c) => [c, 0])) as Counts;
const addInto = (into: Counts, it: Record<string, unknown>) => {
  const counted = dailyCountersOf(it);
  for (const c of DAILY_COUNTERS) into[c] += counted[c];
};

/** The day items of company `companyId` from local day `from` to `to` (`yyyy-mm-dd`, both included), company and users. */
export async function readPeriodStats(companyId: number, from: string, to: string): Promise<PeriodStats> {
  const days: PeriodStats["days"] = new Map();
  const users: PeriodStats["users"] = new Map();
  const pages = queryPages({
    KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
    ExpressionAttributeValues: { ":pk": keys.statsPK(companyId), ":from": keys.stats(companyId, from).SK, ":to": `${keys.stats(companyId, to).SK}#\uffff` },
  });
  for await (const items of pages) {
    for (const it of items) {
      const [, day, , uid] = String(it.SK).split("#"); // D#<day>[#U#<uid>]
      if (uid != null) {
        const u = users.get(Number(uid)) ?? zero();
        addInto(u, it);
        users.set(Number(uid), u);
      } else {
        const d = { ...zero(), hours: Array.from({ length: 24 }, (_, h) => Number(it[openedInHour(h)] ?? 0)) };
        addInto(d, it);
        days.set(day, d);
      }
    }
  }
  return { days, users };
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
