/**
 * What a ticket counts for in the tickets screen's tab counts (docs/product/tickets.md#tab-counts), pure: the
 * repository writes the ticket's `tally` (the state it is counted in) with every create, transition and delete, and
 * the counters' outbox item of that write carries the moves of the count items (`events/outbox.ts`), so the counts
 * follow the tickets exactly once.
 *
 * A ticket's `tally` is `<status>|<queueId or NONE>|<userId or NONE>|<g or t>` while open or pending, `-` once it
 * counts nowhere (closed), and absent on a ticket stored before the counts existed (the backfill counts it,
 * `counts-backfill.ts`). A move subtracts what the stored `tally` says and adds the new state, so a ticket changed by
 * code that did not know the counts is still counted right by the next write.
 */
import { keys } from "../db/keys.ts";

/** The attributes of a count item: tickets open / pending now, not groups and groups. */
export const TALLY_ATTRS = ["open", "pending", "groupOpen", "groupPending"] as const;
export type TallyAttr = (typeof TALLY_ATTRS)[number];
/** Moves of count items: item sort key (`keys.ticketCountQueueSK` / `ticketCountUserSK`) → attribute → delta. */
export type TallyMoves = Record<string, Partial<Record<TallyAttr, number>>>;

/** The `tally` of a ticket that counts nowhere (closed). */
export const NOT_COUNTED = "-";

/** The state a ticket is counted in: see the module doc. */
export function tallyOf(t: { status: string; queueId: number | null; userId: number | null; isGroup?: boolean }): string {
  if (t.status !== "open" && t.status !== "pending") return NOT_COUNTED;
  return `${t.status}|${t.queueId ?? "NONE"}|${t.userId ?? "NONE"}|${t.isGroup ? "g" : "t"}`;
}

/** The count items and attribute a stored `tally` adds 1 to (none for `-` or absent). */
function cellsOf(tally: string | null | undefined): { sks: string[]; attr: TallyAttr } | null {
  if (!tally || tally === NOT_COUNTED) return null;
  const [status, q, u, g] = tally.split("|");
  const attr = (g === "g" ? (status === "open" ? "groupOpen" : "groupPending") : status) as TallyAttr;
  const sks = [keys.ticketCountQueueSK(q === "NONE" ? null : Number(q))];
  if (u !== "NONE") sks.push(keys.ticketCountUserSK(Number(u)));
  return { sks, attr };
}

/**
 * The count moves of a ticket going from stored tally `from` (absent: never counted) to `to`: −1 where it was
 * counted, +1 where it is now; moves that cancel are left out (empty when nothing changes).
 */
export function tallyMoves(from: string | null | undefined, to: string | null | undefined): TallyMoves {
  const out: TallyMoves = {};
  const add = (tally: string | null | undefined, by: number) => {
    const c = cellsOf(tally);
    if (!c) return;
    for (const sk of c.sks) {
      out[sk] ??= {};
      const cell = out[sk];
      cell[c.attr] = (cell[c.attr] ?? 0) + by;
      if (cell[c.attr] === 0) delete cell[c.attr];
      if (!Object.keys(cell).length) delete out[sk];
    }
  };
  add(from, -1);
  add(to, 1);
  return out;
}
