/**
 * The tickets screen's tab counts, `GET /api/tickets/counts` (docs/product/tickets.md#tab-counts): how many tickets the
 * assigned (open) and pending sub-tabs list for the caller, exactly, whatever the number of pages. Read from the count
 * items (`tally.ts`: per queue and per user, kept by the outbox of every ticket write), never by counting rows: one
 * BatchGet of the caller's queues and own item, or, for an admin's whole company, one Query of its queue items.
 */
import { can } from "../access/permissions.ts";
import { visibilityFor } from "../access/visibility.ts";
import { readQueueCounts } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import type { TicketActor } from "./access.ts";
import type { TicketTabCounts } from "./contract.ts";
import { MAX_LIST_FILTER_IDS, tabQueues } from "./list.ts";
import { readTicketCountItems } from "./repository.ts";
import { TALLY_ATTRS, type TallyAttr } from "./tally.ts";

const ZERO = (): Record<TallyAttr, number> => ({ open: 0, pending: 0, groupOpen: 0, groupPending: 0 });

/**
 * The counts of the sub-tabs as `listTickets` lists them for `a` with the same `showAll` and `queueIds`: `open` /
 * `pending` for the open tab (not groups), `groupOpen` / `groupPending` for the group tab. Assigned is the caller's own
 * open tickets, or with show-all (admins) the open tickets of the tab's queues; pending is the tab's queues
 * (`tabQueues`); others' waiting groups only with setting `viewgroups` on (admins always). More than {@link MAX_LIST_FILTER_IDS} queues → 400 `ERR_VALIDATION`.
 */
export async function ticketTabCounts(a: TicketActor, q: { showAll?: boolean; queueIds?: number[] }): Promise<TicketTabCounts> {
  const requested = q.queueIds?.length ? [...new Set(q.queueIds)] : undefined;
  if (requested && requested.length > MAX_LIST_FILTER_IDS) {
    throw new AppError("ERR_VALIDATION", { fields: [{ path: "queueIds", message: `At most ${MAX_LIST_FILTER_IDS}` }] });
  }
  const showAll = can(a, "tickets-manager:showall") && !!q.showAll;
  const queues = tabQueues(a, requested);
  const mine = keys.ticketCountUserSK(a.userId);
  let queueCells: Record<TallyAttr, number>[];
  let own: Record<TallyAttr, number>;
  if (queues === "ALL") {
    const [all, items] = await Promise.all([readQueueCounts(a.companyId), readTicketCountItems(a.companyId, [mine])]);
    queueCells = all.map((it) => Object.fromEntries(TALLY_ATTRS.map((k) => [k, Number(it[k] ?? 0)])) as Record<TallyAttr, number>);
    own = items.get(mine)!;
  } else {
    const sks = queues.map((qid) => keys.ticketCountQueueSK(qid));
    const items = await readTicketCountItems(a.companyId, [...sks, mine]);
    queueCells = sks.map((sk) => items.get(sk)!);
    own = items.get(mine)!;
  }
  const sum = queueCells.reduce((s, c) => {
    for (const k of TALLY_ATTRS) s[k] += c[k];
    return s;
  }, ZERO());
  const open = showAll ? sum : own;
  // The list hides other people's group tickets from non-admins while `viewgroups` is off (their own are open ones).
  const groups = (await visibilityFor(a, a.companyId))?.viewgroups;
  const groupPending = groups === undefined || groups === "enabled" ? sum.groupPending : 0;
  const n = (v: number) => Math.max(0, v);
  return { open: n(open.open), groupOpen: n(open.groupOpen), pending: n(sum.pending), groupPending: n(groupPending) };
}
