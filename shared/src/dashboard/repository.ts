/**
 * Every DynamoDB call of the dashboard: the company's day items of a period (one Query of its counters partition,
 * `C#<cid>#STATS`: one item per day, whatever the number of tickets and attendants), its sealed months' and weeks'
 * roll-ups (`keys.statsMonth`, `keys.statsWeek`, built here by the read: {@link readPeriodTotals}), its current
 * counts, and the platform's counts for super users (`keys.platformStats`: `companies` added in the company's
 * creating transaction, `sessions` a set of `<cid>#<wid>` of connected sessions kept by `./listener.ts`; set adds and
 * removes are idempotent).
 */
import { type AttributeValue, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, rawDdb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { rawQueryPages } from "../db/query.ts";
import { DAILY_COUNTERS, type DailyCounter, dayBefore, daysAfter, MESSAGES_IN_LIVE, mondayOf, monthOf, monthSpan, nextMonth, openedInHour, type Span, spanSealed, userOfCounter, weekSpan } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { storedItemFailed } from "../db/items.ts";
import { log } from "../log.ts";

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
  /** A strongly consistent read (a roll-up's build: it must see every write committed before it began). */
  consistent?: boolean;
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
    ...(wants.consistent ? { ConsistentRead: true } : {}),
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

/** A company's counters summed over a period: its own and each attendant's (`messagesIn` resolved per day as {@link readPeriodStats} does). */
export interface PeriodTotals {
  company: Counts;
  users: Map<number, Counts>;
}

/**
 * How a period read covers local days `from`..`to` (`yyyy-mm-dd`, both included) at `now`: `spans`, the roll-ups it
 * reads (ascending): the sealed months wholly inside the period, and the sealed Monday–Sunday weeks wholly inside
 * what the months leave (the partial edge months; `db/counters.ts` `spanSealed`); `runs`, the runs of days left
 * (`[first, last]`, ascending, at most four), read from their day items. Every day of the period is in exactly
 * one span or run. docs/product/dashboard.md#roll-ups.
 */
export function periodCover(from: string, to: string, now = Date.now()): { spans: Span[]; runs: [string, string][] } {
  const spans: Span[] = [];
  const runs: [string, string][] = [];
  /** Takes the sealed spans wholly inside `a`..`b` (the first starting on or after `a`, each the one after the last), and what they leave to `rest`. */
  const cover = (a: string, b: string, first: Span, next: (s: Span) => Span, rest: (a: string, b: string) => void) => {
    let s = first.first < a ? next(first) : first;
    if (s.last > b || !spanSealed(s.last, now)) return rest(a, b);
    if (a < s.first) rest(a, dayBefore(s.first));
    for (; s.last <= b && spanSealed(s.last, now); s = next(s)) spans.push(s);
    if (s.first <= b) rest(s.first, b);
  };
  const days = (a: string, b: string) => {
    runs.push([a, b]);
  };
  const weeks = (a: string, b: string) => cover(a, b, weekSpan(mondayOf(a)), (w) => weekSpan(daysAfter(w.first, 7)), days);
  if (from <= to) cover(from, to, monthSpan(monthOf(from)), (m) => monthSpan(nextMonth(m.id)), weeks);
  return { spans, runs };
}

/**
 * Company `companyId`'s counters (every daily counter) summed over local days `from`..`to` (`yyyy-mm-dd`, both
 * included), company and per attendant: the same figures as summing {@link readPeriodStats}'s days, from fewer
 * items. The sealed months and weeks of the period's cover ({@link periodCover}) come from their roll-ups
 * (`keys.statsMonth`, `keys.statsWeek`: one Query per contiguous run of them), in parallel with the runs of days left
 * (one ranged Query each). A roll-up missing or stale (`builtRev` absent or not the item's `rev`, a late fact having
 * written to its days since) is summed from its days and rolled up again ({@link rollUp}).
 * docs/product/dashboard.md#roll-ups.
 * @throws AppError `ERR_INTERNAL` when a stored counter (of a day or a roll-up item) is not a number (logged).
 */
export async function readPeriodTotals(companyId: number, from: string, to: string, now = Date.now()): Promise<PeriodTotals> {
  const all = { counters: DAILY_COUNTERS, users: true };
  const { spans, runs } = periodCover(from, to, now);
  const rolled = contiguous(spans).map(async (group) => {
    const items = await readSpanItems(companyId, group[0], group.at(-1)!);
    return Promise.all(group.map((s) => {
      const it = items.get(s.key(companyId).SK);
      return it && rollupFresh(it) ? rolledTotals(it) : rollUp(companyId, s);
    }));
  });
  const [stats, totals] = await Promise.all([Promise.all(runs.map(([a, b]) => readPeriodStats(companyId, a, b, all))), Promise.all(rolled)]);
  const out = totalsOf(stats);
  for (const t of totals.flat()) addTotals(out, t);
  return out;
}

/** Spans (ascending) grouped into runs of the same kind, each span's first day the day after the previous one's last. */
function contiguous(spans: Span[]): Span[][] {
  const out: Span[][] = [];
  for (const s of spans) {
    const prev = out.at(-1)?.at(-1);
    if (prev && prev.kind === s.kind && daysAfter(prev.last, 1) === s.first) out.at(-1)!.push(s);
    else out.push([s]);
  }
  return out;
}

/**
 * The roll-up items of company `companyId` from span `first` to span `last` (of one kind), by SK: one Query
 * (eventually consistent) of the range `first`'s SK..`last`'s SK, which holds only that kind's items (`db/keys.ts`).
 */
async function readSpanItems(companyId: number, first: Span, last: Span): Promise<Map<string, Record<string, AttributeValue>>> {
  const out = new Map<string, Record<string, AttributeValue>>();
  const pages = rawQueryPages({
    KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
    ExpressionAttributeValues: { ":pk": { S: keys.statsPK(companyId) }, ":from": { S: first.key(companyId).SK }, ":to": { S: last.key(companyId).SK } },
  });
  for await (const items of pages) for (const it of items) out.set(it.SK?.S ?? "", it);
  return out;
}

/** Whether a roll-up item holds sums built at its current `rev` (absent: 0). */
function rollupFresh(it: Record<string, AttributeValue>): boolean {
  const pk = it.PK?.S ?? "";
  return it.builtRev !== undefined && counted(it, "builtRev", pk) === counted(it, "rev", pk);
}

/**
 * The sums a roll-up item (a month's or a week's) holds: `<counter>` the company's, `U#<uid>#<counter>` each
 * attendant's (its other attributes, `rev` and `builtRev`, are no counter).
 * @throws AppError `ERR_INTERNAL` when one is not a number (logged).
 */
function rolledTotals(it: Record<string, AttributeValue>): PeriodTotals {
  const pk = it.PK?.S ?? "";
  const out: PeriodTotals = { company: zero(), users: new Map() };
  const counters = new Set<string>(DAILY_COUNTERS);
  for (const name in it) {
    const attendant = userOfCounter(name);
    if (attendant) {
      if (counters.has(attendant.counter)) userCounts(out.users, attendant.userId)[attendant.counter as DailyCounter] += counted(it, name, pk);
    } else if (counters.has(name)) out.company[name as DailyCounter] += counted(it, name, pk);
  }
  return out;
}

/** Period reads' sums as totals: the company's over their days, each attendant's over theirs. */
function totalsOf(stats: PeriodStats[]): PeriodTotals {
  const out: PeriodTotals = { company: zero(), users: new Map() };
  for (const s of stats) {
    for (const d of s.days.values()) for (const c of DAILY_COUNTERS) out.company[c] += d[c];
    addTotals(out, { company: zero(), users: s.users });
  }
  return out;
}

function addTotals(into: PeriodTotals, t: PeriodTotals): void {
  for (const c of DAILY_COUNTERS) into.company[c] += t.company[c];
  for (const [uid, u] of t.users) {
    const sum = userCounts(into.users, uid);
    for (const c of DAILY_COUNTERS) sum[c] += u[c];
  }
}

/**
 * Rolls up sealed span `span` (a month or a week, `db/counters.ts` `Span`) of company `companyId` and returns its
 * totals: reads its roll-up item (strongly consistent: its `rev`), returns its sums if they are fresh (a concurrent
 * build), else sums the span's day items ({@link readPeriodStats}, strongly consistent) and puts the roll-up (the
 * sums, zeros left out, with `builtRev` = the `rev` read) conditioned on the item's `rev` being still the one read
 * (`attribute_not_exists(rev)` when there was none). Every writer of a day of the span bumps `rev` in its own
 * transaction once the span is nearly sealed (`db/counters.ts` `rollupInvalidations`), so a late fact written after
 * the read fails the condition: no stale roll-up is stored, and the answer is the days' as read. A write that fails
 * otherwise (throttled, too large) is logged as a warning: the answer is the same. `afterRead` runs between the days'
 * read and the write (tests).
 * @throws AppError `ERR_INTERNAL` when a stored counter is not a number (logged).
 */
export async function rollUp(companyId: number, span: Span, afterRead?: () => Promise<void>): Promise<PeriodTotals> {
  const key = span.key(companyId);
  const got = await rawDdb().send(new GetItemCommand({ TableName: tableName(), Key: { PK: { S: key.PK }, SK: { S: key.SK } }, ConsistentRead: true }));
  if (got.Item && rollupFresh(got.Item)) return rolledTotals(got.Item);
  const rev = got.Item?.rev === undefined ? undefined : counted(got.Item, "rev", key.PK);
  const totals = totalsOf([await readPeriodStats(companyId, span.first, span.last, { counters: DAILY_COUNTERS, users: true, consistent: true })]);
  await afterRead?.();
  const sums: Record<string, number> = {};
  for (const c of DAILY_COUNTERS) if (totals.company[c]) sums[c] = totals.company[c];
  for (const [uid, u] of totals.users) for (const c of DAILY_COUNTERS) if (u[c]) sums[keys.statsUserAttr(uid, c)] = u[c];
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...sums, ...key, ...(rev === undefined ? {} : { rev }), builtRev: rev ?? 0 },
        ConditionExpression: rev === undefined ? "attribute_not_exists(#rev)" : "#rev = :rev",
        ExpressionAttributeNames: { "#rev": "rev" },
        ...(rev === undefined ? {} : { ExpressionAttributeValues: { ":rev": rev } }),
      }),
    );
  } catch (err) {
    // A failed condition: a late fact came in meanwhile; the next read builds again.
    if (!isConditionFailed(err)) log("warn", `dashboard: ${span.kind} roll-up not written (answered from its days)`, { companyId, [span.kind]: span.id, err });
  }
  return totals;
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
