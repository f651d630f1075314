/**
 * Kanban lane backfill (docs/product/kanban.md#how-lanes-are-kept): tickets stored before the lane entries existed
 * get theirs, so they stand on the board. Walks by keys only: the company's open, then pending tickets on their
 * status index (GSI1 `C#<cid>#S#<status>`), never a table scan.
 *
 * - The company's first run also writes its lane set (`KANBANLANES`, the kanban tag ids), which the `kanbanLanes`
 *   listener compares a tag's change with: without it, a tag switched off kanban would leave its tickets off the board.
 * - Idempotent: each ticket's entries are read (one Query of its partition) and only a ticket whose entries differ from
 *   what it needs is reconciled (`reconcileTicketLanes`, which re-reads the ticket consistently and is itself
 *   idempotent); a ticket in step costs no write, so a second run writes nothing.
 * - Resumable and bounded: a run examines at most `budget` tickets (default {@link KANBAN_BACKFILL_BUDGET}) and stores
 *   where it stopped in the company's progress item (`keys.kanbanBackfill`); the next run continues there.
 * - Carried by the minute tick as a per-company backfill (`companies/backfill.ts`, timer kind
 *   {@link KANBAN_BACKFILL_KIND}); {@link startKanbanBackfill} schedules it on deploy (`Custom::AtendeKanbanBackfill`)
 *   and at each start of the local stack. A company created through the product is born done (`bornLanedPut`).
 */
import { defineCompanyBackfill } from "../companies/backfill.ts";
import { pagesFrom } from "../db/query.ts";
import { keys } from "../db/keys.ts";
import { queryTicketIndex } from "../tickets/repository.ts";
import { getKanbanBackfill, getLaneSet, listTicketEntries, putKanbanBackfill, putLaneSet } from "./repository.ts";
import type { KanbanBackfillProgress } from "./schema.ts";
import { kanbanTagIds, laneChanges, reconcileTicketLanes } from "./service.ts";

/** Tickets examined per run by default. */
export const KANBAN_BACKFILL_BUDGET = 200;
/** The timer kind (`keys.timer(cid, "kanbanBackfill", "index")`). */
export const KANBAN_BACKFILL_KIND = "kanbanBackfill";
/** The statuses whose tickets stand on the board, in the order walked. */
const PHASES = ["open", "pending"] as const;
/** Tickets per index page, and reconciled at once. */
const PAGE = 25;
const PARALLEL = 8;

/** What a run did. */
export interface KanbanBackfillResult {
  /** Tickets examined in this run. */
  tickets: number;
  /** Tickets whose lane entries were written in this run. */
  reconciled: number;
  /** True when this run wrote the company's lane set. */
  laneSet: boolean;
  /** True when every open and pending ticket of the company has been walked. */
  done: boolean;
}

/** Reconciles each ticket of `ids` whose stored entries differ from what it needs; returns how many were. */
async function reconcileOutOfStep(companyId: number, tickets: Parameters<typeof laneChanges>[0][], ids: number[], kanban: ReadonlySet<number>): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += PARALLEL) {
    await Promise.all(
      ids.slice(i, i + PARALLEL).map(async (id, k) => {
        const { put, drop } = laneChanges(tickets[i + k], await listTicketEntries(companyId, id), kanban);
        if (!put.length && !drop.length) return;
        await reconcileTicketLanes(companyId, id);
        n++;
      }),
    );
  }
  return n;
}

/**
 * One bounded run of the company's lane backfill (see the module doc): continues from the stored progress, examines at
 * most `budget` tickets, stores the new progress and returns what it did. `restart`: walk every ticket again. Errors
 * of DynamoDB propagate (the progress of the run so far is not stored; the next run repeats that part, harmlessly).
 */
export async function backfillKanbanLanes(companyId: number, opts: { budget?: number; restart?: boolean } = {}): Promise<KanbanBackfillResult> {
  let budget = Math.max(1, opts.budget ?? KANBAN_BACKFILL_BUDGET);
  const run: KanbanBackfillResult = { tickets: 0, reconciled: 0, laneSet: false, done: false };
  const progress: KanbanBackfillProgress = opts.restart ? { cursor: null, done: false } : await getKanbanBackfill(companyId);
  if (progress.done) return { ...run, done: true };
  const tagIds = await kanbanTagIds(companyId);
  if (!progress.cursor) {
    const set = await getLaneSet(companyId);
    if ([...set.tagIds].sort((a, b) => a - b).join() !== [...tagIds].sort((a, b) => a - b).join()) {
      await putLaneSet(companyId, tagIds);
      run.laneSet = true;
    }
  }
  const kanban = new Set(tagIds);
  let cursor: NonNullable<KanbanBackfillProgress["cursor"]> | null = progress.cursor ?? { p: PHASES[0] };
  while (cursor && budget > 0) {
    const phase: (typeof PHASES)[number] = cursor.p;
    let resume: Record<string, unknown> | undefined = cursor.k;
    let finished = false;
    const read = (startKey: Record<string, unknown> | undefined): ReturnType<typeof queryTicketIndex> | null =>
      budget > 0 ? queryTicketIndex("GSI1", keys.ticketStatusPK(companyId, phase), { limit: Math.min(budget, PAGE), startKey }) : null;
    for await (const page of pagesFrom(read, resume)) {
      budget -= Math.max(1, page.items.length);
      run.tickets += page.items.length;
      run.reconciled += await reconcileOutOfStep(companyId, page.items, page.items.map((t) => t.id), kanban);
      resume = page.lastKey;
      finished = !page.lastKey;
    }
    const next = PHASES[PHASES.indexOf(phase) + 1];
    cursor = !finished ? { p: phase, k: resume as Record<string, string> | undefined } : next ? { p: next } : null;
  }
  run.done = cursor === null;
  await putKanbanBackfill(companyId, { cursor, done: run.done }, { ...run });
  return run;
}

/**
 * Schedules the lane backfill timer (due `now`) for every company not yet backfilled and not already scheduled.
 * One-shot (deploy, local start); idempotent. Returns the company ids it scheduled.
 */
export const startKanbanBackfill = defineCompanyBackfill({
  kind: KANBAN_BACKFILL_KIND,
  isDone: async (companyId) => (await getKanbanBackfill(companyId)).done,
  run: (companyId) => backfillKanbanLanes(companyId),
});
