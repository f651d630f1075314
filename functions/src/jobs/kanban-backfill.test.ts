/**
 * The kanban lane backfill (docs/product/kanban.md#how-lanes-are-kept): tickets stored before the lane entries existed
 * stand on the board once the deploy / local start has scheduled the backfill (`startKanbanBackfill`, what the
 * `Custom::AtendeKanbanBackfill` resource and `infra/local` call) and the minute tick (`jobs/tick.ts`) has run it;
 * bounded, resumable, idempotent, and never scheduled for a company created through the product.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCompany } from "@atende/shared/companies/service";
import { contactRecord } from "@atende/shared/contacts/repository";
import { ContactItem } from "@atende/shared/contacts/schema";
import { batchWriteAll } from "@atende/shared/db/batch";
import { keys } from "@atende/shared/db/keys";
import { countDdbCalls } from "@atende/shared/ingest/calls.testkit";
import { backfillKanbanLanes, KANBAN_BACKFILL_KIND, startKanbanBackfill } from "@atende/shared/kanban/backfill";
import { KanbanBoard } from "@atende/shared/kanban/schema";
import { putNewTag } from "@atende/shared/tags/repository";
import { TagItem } from "@atende/shared/tags/schema";
import { ticketRecord } from "@atende/shared/tickets/repository";
import { TicketItem } from "@atende/shared/tickets/schema";
import { getTimer } from "@atende/shared/timers/index";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { handler as tick } from "./tick.ts";

const w = companyWorld({ queues: ["Suporte", "Vendas"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }] });

/** The old kanban tag's id (written raw, as before the lane entries existed). */
const LEAD = 900;

/**
 * Stores, the way the product stored them before the lane entries existed (no `KANBAN#` entries, no lane set): a
 * kanban tag "Lead", 7 open and pending tickets in the queues (ticket 2 tagged "Lead", ticket 3 open and Ana's) and
 * one closed ticket. Returns the ids by lane.
 */
async function storeWithoutLanes(cid: number, wid: number, queues: number[], ana: number) {
  const at = "2025-06-01T10:00:00.000Z";
  await putNewTag(TagItem.parse({ id: LEAD, companyId: cid, name: "Lead", color: "#ff0000", kanban: 1, ticketsCount: 1, createdAt: at, updatedAt: at }));
  const items: Record<string, unknown>[] = [];
  for (let id = 1; id <= 8; id++) {
    const number = `55219880${String(cid).padStart(3, "0")}${String(id).padStart(2, "0")}`;
    items.push(contactRecord(ContactItem.parse({ id, companyId: cid, uuid: randomUUID(), name: `Cliente ${id}`, number, jids: [`${number}@s.whatsapp.net`], createdAt: at, updatedAt: at })));
    const status = id === 8 ? "closed" : id === 3 || id % 2 === 0 ? "open" : "pending";
    const createdAt = new Date(Date.parse(at) + id * 3_600_000).toISOString();
    const ticket = TicketItem.parse({
      id,
      uuid: randomUUID(),
      companyId: cid,
      status,
      contactId: id,
      whatsappId: wid,
      queueId: queues[id % 2],
      userId: id === 3 ? ana : status === "open" ? 1 : null,
      tagIds: id === 2 ? [LEAD] : [],
      createdAt,
      updatedAt: createdAt,
    });
    items.push(ticketRecord(ticket));
    if (id === 2) items.push({ ...keys.ticketTag(cid, id, LEAD), ...keys.tagTicketsIndex(cid, LEAD, createdAt, id), _type: "ticketTag", companyId: cid, ticketId: id, tagId: LEAD, createdAt: at });
  }
  await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })));
  return { open: [7, 6, 5, 4, 3, 1], lead: [2] };
}

const board = async (u: TestUser) => {
  const res = await api("GET", "/api/ticket/kanban", { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return KanbanBoard.parse(res.body).lanes.map((l) => [l.id, l.tickets.map((t) => t.id)] as const);
};

describe("kanban lane backfill on deploy / start, carried by the minute tick", () => {
  it("puts every open and pending ticket stored without lane entries on the board, each user seeing theirs", async () => {
    const c = await w.fresh();
    const ana = c.agents[0];
    const want = await storeWithoutLanes(c.cid, c.wa, c.queues, ana.id);
    // Before: the tickets exist, but the board shows none of them.
    expect(await board(c.admin)).toEqual([[0, []], [LEAD, []]]);

    // The deploy (or the local start) schedules it; the ticks do the work.
    const scheduled = await startKanbanBackfill();
    expect(scheduled).toContain(c.cid);
    expect(await startKanbanBackfill()).not.toContain(c.cid); // already scheduled: nothing twice
    let t = Date.now();
    for (let i = 0; i < 10 && (await getTimer(c.cid, KANBAN_BACKFILL_KIND, "index")); i++) {
      t += 60_000;
      await tick({ time: new Date(t).toISOString() });
    }
    expect(await getTimer(c.cid, KANBAN_BACKFILL_KIND, "index")).toBeNull();

    expect(await board(c.admin)).toEqual([[0, want.open], [LEAD, want.lead]]);
    // Ana (queue Suporte = queues[0]: the even tickets) sees her queue's and her own, as the ticket list does.
    expect(await board(ana)).toEqual([[0, [6, 4, 3]], [LEAD, [2]]]);
    // Done companies are not scheduled again on the next deploy.
    expect(await startKanbanBackfill()).not.toContain(c.cid);

    // The lane set was written with the entries: switching "Lead" off kanban takes its ticket back to "Em aberto".
    const off = await api("PUT", `/api/tags/${LEAD}`, { token: c.admin.token, body: { name: "Lead", color: "#ff0000", kanban: 0 } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(await board(c.admin)).toEqual([[0, [7, 6, 5, 4, 3, 2, 1]]]);
  }, 90_000);

  it("runs in bounded, resumable steps, and a second run writes nothing", async () => {
    const c = await w.fresh();
    await storeWithoutLanes(c.cid, c.wa, c.queues, c.agents[0].id);
    let runs = 0;
    let reconciled = 0;
    for (;;) {
      const r = await backfillKanbanLanes(c.cid, { budget: 2 });
      runs++;
      reconciled += r.reconciled;
      expect(r.tickets).toBeLessThanOrEqual(2);
      if (r.done) break;
      expect(runs).toBeLessThan(20);
    }
    expect(runs).toBeGreaterThan(3);
    expect(reconciled).toBe(7);
    expect(await board(c.admin)).toEqual([[0, [7, 6, 5, 4, 3, 1]], [LEAD, [2]]]);

    // Finished: nothing read but its progress, nothing written. Walked again from the start: every ticket is read,
    // none written (only the progress item).
    const calls = countDdbCalls();
    try {
      expect(await backfillKanbanLanes(c.cid)).toEqual({ tickets: 0, reconciled: 0, laneSet: false, done: true });
      expect([...calls.byCommand.keys()]).toEqual(["GetItem"]);
      expect(await backfillKanbanLanes(c.cid, { restart: true })).toEqual({ tickets: 7, reconciled: 0, laneSet: false, done: true });
      const writes = [...calls.byCommand].filter(([cmd]) => /Put|Update|Delete|BatchWrite|TransactWrite/.test(cmd));
      expect(writes).toEqual([["PutItem", 1]]);
    } finally {
      calls.remove();
    }
  }, 90_000);

  it("never schedules a company created through the product: its ticket writes keep their lanes", async () => {
    const { planId } = await w.fresh();
    const { company } = await createCompany("system", { name: "Empresa Nova", email: "nova-kanban@empresa.test", phone: "", password: "segredo1", planId, recurrence: "MENSAL", status: true });
    expect(await startKanbanBackfill()).not.toContain(company.id);
    expect(await getTimer(company.id, KANBAN_BACKFILL_KIND, "index")).toBeNull();
  });
});
