/**
 * The plan's numbers of users, connections and queues, kept exact under concurrent creations
 * (docs/product/users.md#plan-limits). Each company has one counter item per kind (`keys.planCount`): a creation's
 * own transaction takes one (`ADD 1`, condition `count < limit`), a deletion's gives one back (`ADD -1`), so two
 * creations racing at the limit cannot both pass: the second's condition fails (or it conflicts, is retried and then
 * fails) and it gets the spec's error, nothing written.
 *
 * Counted on first use: a company whose counter was never counted (created before the counters, or never at a
 * creation) gets it from its items themselves (`countNow`) the first time a creation asks, conditioned on the counter
 * being as read (a deletion moving it meanwhile makes the count start again). A deletion before that only moves an
 * uncounted value, which the first count replaces.
 */
import { getCompany } from "../companies/repository.ts";
import type { TxItem } from "../db/client.ts";
import { failedConditionAt, withConflictRetry } from "../db/errors.ts";
import { AppError } from "../errors.ts";
import { getPlan, initPlanCounter, planCounterReleaseItem, planCounterTakeItem, readPlanCounter } from "./repository.ts";

/** What a plan counts: its `users`, `connections` and `queues` numbers. */
export type PlanLimit = "users" | "connections" | "queues";

const LIMIT_ERRORS = {
  users: "ERR_USER_CREATION_COUNT",
  connections: "ERR_CONNECTION_CREATION_COUNT",
  queues: "ERR_QUEUE_CREATION_COUNT",
} as const;

/** One creation's place in its company's count: the transaction item that takes it, and the error when it is refused. */
export interface PlanSlot {
  item: TxItem;
  kind: PlanLimit;
  limit: number;
}

const full = (kind: PlanLimit, limit: number) => new AppError(LIMIT_ERRORS[kind], { limit });

/** The company's count of `kind`, counted from its items (`countNow`) when its counter never was. */
async function countOf(companyId: number, kind: PlanLimit, countNow: () => Promise<number>): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const counter = await readPlanCounter(companyId, kind);
    if (counter?.counted) return counter.count;
    const n = await countNow();
    if (await initPlanCounter(companyId, kind, n, counter)) return n;
  }
  throw new AppError("ERR_CONFLICT");
}

/**
 * The slot one more `kind` takes in company `companyId`, or null when the company has no plan (nothing to count). 403
 * `ERR_USER_CREATION_COUNT` / `ERR_CONNECTION_CREATION_COUNT` / `ERR_QUEUE_CREATION_COUNT` with `{limit}` when the plan
 * allows no more already (nothing written but the first count). `countNow` counts the company's items of that kind.
 */
export async function planSlot(companyId: number, kind: PlanLimit, countNow: () => Promise<number>): Promise<PlanSlot | null> {
  const company = await getCompany(companyId);
  const plan = company ? await getPlan(company.planId) : undefined;
  if (!plan) return null;
  const limit = plan[kind];
  if ((await countOf(companyId, kind, countNow)) >= limit) throw full(kind, limit);
  return { item: planCounterTakeItem(companyId, kind, limit), kind, limit };
}

/**
 * Runs a creation's write with its slot as the LAST item of its transaction (`write` receives the items to append):
 * a slot taken meanwhile by a racing creation is the plan's 403 error, a conflict on the counter is retried.
 */
export async function withPlanSlot<T>(slot: PlanSlot | null, write: (extra: TxItem[]) => Promise<T>): Promise<T> {
  if (!slot) return write([]);
  return withConflictRetry(async () => {
    try {
      return await write([slot.item]);
    } catch (err) {
      const reasons = (err as { CancellationReasons?: unknown[] }).CancellationReasons;
      if (reasons && failedConditionAt(err, reasons.length - 1)) throw full(slot.kind, slot.limit);
      throw err;
    }
  });
}

/** The transaction item a deletion of one `kind` carries: the company's count goes down with it. */
export const planSlotRelease = (companyId: number, kind: PlanLimit): TxItem => planCounterReleaseItem(companyId, kind);
