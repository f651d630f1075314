import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws, type World } from "../../../test/world.ts";
import { ddb, tableName } from "../../../shared/src/db/client.ts";
import { keys } from "../../../shared/src/db/keys.ts";
import { dispatch, settleDeferred } from "../../../shared/src/events/index.ts";
import { redriveOutbox } from "../../../shared/src/events/outbox.ts";
import { backfillTicketCounts, COUNTS_BACKFILL_KIND, startTicketCountsBackfill } from "../../../shared/src/tickets/counts-backfill.ts";
import { makeTicket } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { getTicketItem } from "../../../shared/src/tickets/repository.ts";
import type { TicketItem } from "../../../shared/src/tickets/schema.ts";
import "../../../shared/src/tickets/events.ts";
import { getTimer, runDueTimers } from "../../../shared/src/timers/index.ts";

useLocalAws({ sqs: true });
const shape = {
  queues: ["Suporte", "Vendas"],
  whatsapp: true,
  agents: [{ queues: [0], name: "Ana" }, { queues: [1], name: "Beto" }, { queues: [0], name: "Caio", allTicket: "enabled" as const }],
  other: true,
};
const w = companyWorld(shape);

type Counts = { open: number; pending: number; groupOpen: number; groupPending: number };

/** A pending ticket as the inbound path makes it (created, then its event dispatched and counted). */
async function pending(world: World, queue: number | null, isGroup = false): Promise<TicketItem> {
  const ticket = await makeTicket(world.cid, { whatsappId: world.wa, queueId: queue == null ? null : world.queues[queue], isGroup });
  await dispatch({ type: "ticket.created", companyId: world.cid, ticket });
  return ticket;
}

/** What a sub-tab lists for `token`: every page of `GET /api/tickets`, split as the web splits the open and group tabs. */
async function listed(token: string, showAll: boolean): Promise<Counts> {
  const out: Counts = { open: 0, pending: 0, groupOpen: 0, groupPending: 0 };
  for (const status of ["open", "pending"] as const) {
    let cursor: string | undefined;
    do {
      const res = await api("GET", `/api/tickets?status=${status}${showAll ? "&showAll=true" : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { token });
      expect(res.status).toBe(200);
      for (const t of res.body.tickets) out[t.isGroup ? (status === "open" ? "groupOpen" : "groupPending") : status]++;
      cursor = res.body.hasMore ? res.body.nextCursor : undefined;
    } while (cursor);
  }
  return out;
}

async function counts(token: string, showAll = false): Promise<Counts> {
  const res = await api("GET", `/api/tickets/counts${showAll ? "?showAll=true" : ""}`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

/** Every user's counts equal what their tabs list (admins with show-all off and on); returns the admin's show-all counts. */
async function expectExact(world: World): Promise<Counts> {
  await settleDeferred();
  for (const u of [world.admin, ...world.agents]) expect(await counts(u.token)).toEqual(await listed(u.token, false));
  const all = await counts(world.admin.token, true);
  expect(all).toEqual(await listed(world.admin.token, true));
  return all;
}

const put = (token: string, id: number, body: Record<string, unknown>) => api("PUT", `/api/tickets/${id}`, { token, body });

describe("GET /api/tickets/counts", () => {
  it("counts exactly what each user's sub-tabs list, beyond the first page, through accept, transfer, close, reopen and delete", async () => {
    const c = await w.fresh();
    const [ana, beto] = c.agents;
    const support: TicketItem[] = [];
    for (let i = 0; i < 43; i++) support.push(await pending(c, 0));
    const sales = [await pending(c, 1), await pending(c, 1)];
    const none = await pending(c, null);
    await pending(c, 0, true);
    expect(await expectExact(c)).toEqual({ open: 0, pending: 46, groupOpen: 0, groupPending: 1 });
    // Others' waiting groups stay out of an agent's count while viewgroups is off, as they stay out of the list.
    expect(await counts(ana.token)).toEqual({ open: 0, pending: 43, groupOpen: 0, groupPending: 0 });
    // More than one page of the pending tab, counted whole (the list shows 40 at a time).
    expect((await api("GET", "/api/tickets?status=pending", { token: ana.token })).body.hasMore).toBe(true);

    expect((await put(ana.token, support[0].id, { status: "open", userId: ana.id })).status).toBe(200); // accept
    expect((await put(beto.token, sales[0].id, { status: "open", userId: beto.id })).status).toBe(200);
    expect(await counts(ana.token)).toEqual({ open: 1, pending: 42, groupOpen: 0, groupPending: 0 });
    await expectExact(c);

    expect((await put(ana.token, support[0].id, { queueId: c.queues[1], userId: null })).status).toBe(200); // transfer to Vendas, waiting
    expect(await counts(ana.token)).toEqual({ open: 0, pending: 42, groupOpen: 0, groupPending: 0 });
    expect((await counts(beto.token)).pending).toBe(2);
    await expectExact(c);

    expect((await put(beto.token, sales[0].id, { status: "closed" })).status).toBe(200); // close
    expect((await counts(beto.token)).open).toBe(0);
    expect((await put(c.admin.token, sales[0].id, { status: "open", userId: c.admin.id })).status).toBe(200); // reopen
    expect((await counts(c.admin.token)).open).toBe(1);
    await expectExact(c);

    expect((await api("DELETE", `/api/tickets/${none.id}`, { token: c.admin.token })).status).toBe(200);
    expect((await api("DELETE", `/api/tickets/${support[1].id}`, { token: c.admin.token })).status).toBe(200);
    expect(await expectExact(c)).toEqual({ open: 1, pending: 43, groupOpen: 0, groupPending: 1 });
  }, 180_000);

  it("counts a ticket two agents accept at once once, and a redelivered event or a tick changes nothing", async () => {
    const c = await w.fresh();
    const [ana, , caio] = c.agents;
    const t = await pending(c, 0);
    await pending(c, 0);
    const [a, b] = await Promise.all([put(ana.token, t.id, { status: "open", userId: ana.id }), put(caio.token, t.id, { status: "open", userId: caio.id })]);
    // Overlapping, one wins and the other gets 409; when the machine serializes them, the second takes the ticket over
    // (an agent of the queue may). Either way the ticket is open once, with one of them.
    expect([a.status, b.status]).toContain(200);
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    expect([ana.id, caio.id]).toContain((await getTicketItem(c.cid, t.id, true))?.userId);
    const before = await expectExact(c);
    expect(before).toMatchObject({ open: 1, pending: 1 });
    // The accept's event delivered again (a listener retried), and the minute tick re-driving the outbox.
    const stored = (await getTicketItem(c.cid, t.id, true))!;
    const previous = { ...stored, status: "pending" as const, userId: null, version: stored.version - 1, tally: `pending|${c.queues[0]}|NONE|t` };
    await dispatch({ type: "ticket.updated", companyId: c.cid, ticket: stored, previous });
    await dispatch({ type: "ticket.created", companyId: c.cid, ticket: t });
    await redriveOutbox(Date.now());
    expect(await expectExact(c)).toEqual(before);
  });

  it("shows a user of another company none of these counts, and refuses a bad filter or no token", async () => {
    const c = await w.fresh();
    await pending(c, 0);
    await pending(c, null);
    await settleDeferred();
    expect(await counts(c.admin.token)).toMatchObject({ pending: 2 });
    expect(await counts(w.other.admin.token, true)).toEqual(await listed(w.other.admin.token, true));
    expect((await counts(w.other.admin.token, true)).pending).toBe(0);
    // An agent naming another company's queue (or one not theirs) counts nothing of it.
    expect((await api("GET", `/api/tickets/counts?queueIds=[${c.queues[0]}]`, { token: w.agents[1].token })).body.pending).toBe(0);
    expect((await api("GET", "/api/tickets/counts?queueIds=[1,", { token: c.admin.token })).status).toBe(400);
    const many = JSON.stringify(Array.from({ length: 21 }, (_, i) => i + 1));
    expect((await api("GET", `/api/tickets/counts?queueIds=${encodeURIComponent(many)}`, { token: c.admin.token })).body.error).toBe("ERR_VALIDATION");
    expect((await api("GET", "/api/tickets/counts")).status).toBe(401);
  });

  it("narrows to the chosen queues as the list does: an admin's choice plus tickets without a queue", async () => {
    const c = await w.fresh();
    await pending(c, 0);
    await pending(c, 1);
    await pending(c, 1);
    await pending(c, null);
    await settleDeferred();
    const narrowed = await api("GET", `/api/tickets/counts?showAll=true&queueIds=[${c.queues[1]}]`, { token: c.admin.token });
    const list = await api("GET", `/api/tickets?status=pending&showAll=true&queueIds=[${c.queues[1]}]`, { token: c.admin.token });
    expect(narrowed.body.pending).toBe(3);
    expect(list.body.tickets).toHaveLength(3);
  });
});

describe("tab counts backfill", () => {
  /** Makes `tickets` as stored before the counts existed: no tally on them, zero count items, the company not done. */
  async function storeUncounted(c: World, tickets: TicketItem[]): Promise<void> {
    for (const t of tickets) {
      await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.ticket(c.cid, t.id), UpdateExpression: "REMOVE tally, #row", ExpressionAttributeNames: { "#row": "row" } }));
    }
    for (const sk of [keys.ticketCountQueueSK(c.queues[0]), keys.ticketCountQueueSK(c.queues[1]), ...c.agents.map((a) => keys.ticketCountUserSK(a.id))]) {
      await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.ticketCount(c.cid, sk), UpdateExpression: "SET #o = :z, #p = :z", ExpressionAttributeNames: { "#o": "open", "#p": "pending" }, ExpressionAttributeValues: { ":z": 0 } }));
    }
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.ticketCountsBackfill(c.cid) }));
    expect((await counts(c.admin.token, true)).pending).toBe(0);
  }

  it("is scheduled by a deploy or a local start, carried to done by the minute tick, and not scheduled again", async () => {
    const c = await w.fresh();
    const old = [await pending(c, 0), await pending(c, 1), await pending(c, 0)];
    await settleDeferred();
    await storeUncounted(c, old);

    // What the deploy's custom resource (`CountsVersion`) and `infra/local`'s start call.
    expect(await startTicketCountsBackfill()).toContain(c.cid);
    expect(await startTicketCountsBackfill()).not.toContain(c.cid); // already scheduled: nothing twice
    let t = Date.now();
    for (let i = 0; i < 10 && (await getTimer(c.cid, COUNTS_BACKFILL_KIND, "backfill")); i++) {
      t += 60_000;
      await runDueTimers(new Date(t));
    }
    expect(await getTimer(c.cid, COUNTS_BACKFILL_KIND, "backfill")).toBeNull();
    expect(await expectExact(c)).toEqual({ open: 0, pending: 3, groupOpen: 0, groupPending: 0 });
    expect(await startTicketCountsBackfill()).not.toContain(c.cid);
  }, 90_000);

  it("counts tickets stored before the counts once, resumably, while tickets keep moving", async () => {
    const c = await w.fresh();
    const [ana] = c.agents;
    const old: TicketItem[] = [];
    for (let i = 0; i < 7; i++) old.push(await pending(c, i % 2));
    expect((await put(ana.token, old[0].id, { status: "open", userId: ana.id })).status).toBe(200);
    await settleDeferred();
    await storeUncounted(c, old);

    const first = await backfillTicketCounts(c.cid, 3);
    expect(first).toMatchObject({ done: false });
    // A ticket accepted between runs is counted once, whether the backfill reached it first or not.
    expect((await put(ana.token, old[6].id, { status: "open", userId: ana.id })).status).toBe(200);
    let run = first;
    for (let i = 0; i < 10 && !run.done; i++) run = await backfillTicketCounts(c.cid, 3);
    expect(run.done).toBe(true);
    expect(await expectExact(c)).toEqual({ open: 2, pending: 5, groupOpen: 0, groupPending: 0 });
    // Done: a later run changes nothing.
    expect(await backfillTicketCounts(c.cid)).toEqual({ counted: 0, done: true });
    expect(await expectExact(c)).toEqual({ open: 2, pending: 5, groupOpen: 0, groupPending: 0 });
  });
});
