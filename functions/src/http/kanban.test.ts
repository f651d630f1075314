/**
 * Kanban through the real Lambda handlers (docs/product/kanban.md): the lanes ("Em aberto", then the kanban tags in
 * the tags' order), a card moved by the tags' sync, each profile seeing what the ticket list shows them, the queue
 * filter limited to the caller's queues, validation, another company seeing nothing, the plan flag, paging a lane.
 */
import { describe, expect, it } from "vitest";
import { api, makeUser, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws } from "../../../test/world.ts";
import { makeContact } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { KanbanBoard, KanbanLanePage } from "../../../shared/src/kanban/schema.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";

useLocalAws({ sqs: true });

/** The file's preamble; each test takes a company of its own from it ({@link world}). */
const base = companyWorld({
  queues: ["Suporte", "Vendas"],
  whatsapp: true,
  agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Sofia", profile: "supervisor" }, { queues: [1], name: "Bruno" }],
});

async function world() {
  const w = await base.fresh();
  const [suporte, vendas] = w.queues;
  return { ...w, suporte, vendas, ana: w.agents[0], sofia: w.agents[1], bruno: w.agents[2] };
}

const board = async (u: TestUser, query = "") => {
  const res = await api("GET", `/api/ticket/kanban${query}`, { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return KanbanBoard.parse(res.body);
};
const lane = async (u: TestUser, laneId: number, query = "") => {
  const res = await api("GET", `/api/ticket/kanban/${laneId}${query}`, { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return KanbanLanePage.parse(res.body);
};
/** Ticket ids per lane id, in board order. */
const byLane = (b: KanbanBoard) => b.lanes.map((l) => [l.id, l.tickets.map((t) => t.id)] as const);

let phone = 0;
/** Opens a ticket through the API (as the admin): pending in `queueId`, or open and assigned to `userId`. */
async function ticket(w: { cid: number; admin: TestUser }, opts: { queueId?: number | null; userId?: number; name?: string } = {}) {
  const contact = await makeContact(w.cid, opts.name ?? "Cliente", `5521977${String(w.cid).padStart(3, "0")}${String(++phone).padStart(4, "0")}`);
  const body = { contactId: contact.id, queueId: opts.queueId ?? null, ...(opts.userId ? { status: "open", userId: opts.userId } : { status: "pending" }) };
  const res = await api("POST", "/api/tickets", { token: w.admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; uuid: string };
}
const tag = async (u: TestUser, name: string, kanban: 0 | 1) => {
  const res = await api("POST", "/api/tags", { token: u.token, body: { name, kanban } });
  expect(res.status).toBe(200);
  return res.body.id as number;
};
const sync = async (u: TestUser, ticketId: number, tags: number[]) => {
  const res = await api("POST", "/api/tags/sync", { token: u.token, body: { ticketId, tags } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe("GET /api/ticket/kanban", () => {
  it("shows 'Em aberto' first, then the kanban tags in the tags' order; a ticket stands in its kanban tags' lanes, else in 'Em aberto'", async () => {
    const w = await world();
    const a = await ticket(w, { queueId: w.suporte, name: "Alice" });
    const b = await ticket(w, { queueId: w.suporte });
    const c = await ticket(w, { queueId: w.suporte });
    const novo = await tag(w.admin, "Novo lead", 1);
    const vip = await tag(w.admin, "VIP", 0);
    const fechando = await tag(w.admin, "Fechando", 1);
    await sync(w.admin, b.id, [novo, vip]);
    await sync(w.admin, c.id, [vip]);
    const out = await board(w.admin);
    expect(out.lanes.map((l) => [l.id, l.tag?.name ?? null])).toEqual([
      [0, null],
      [novo, "Novo lead"],
      [fechando, "Fechando"],
    ]);
    expect(byLane(out)).toEqual([
      [0, [c.id, a.id]],
      [novo, [b.id]],
      [fechando, []],
    ]);
    const alice = out.lanes[0].tickets.find((t) => t.id === a.id)!;
    expect(alice).toMatchObject({ uuid: a.uuid, contact: { name: "Alice" }, status: "pending" });
    expect(out.tickets.map((t) => t.id).sort()).toEqual([a.id, b.id, c.id].sort());
  }, 90_000); // the file's first handler calls load the areas' modules

  it("a card carries what the board shows and what places it (no more of the ticket), on the board and on a lane's pages", async () => {
    const w = await world();
    const a = await ticket(w, { queueId: w.suporte, name: "Alice" });
    const novo = await tag(w.admin, "Novo lead", 1);
    await sync(w.admin, a.id, [novo]);
    const res = await api("GET", "/api/ticket/kanban", { token: w.admin.token });
    expect(res.status).toBe(200);
    const card = res.body.lanes[1].tickets[0];
    expect(Object.keys(card).sort()).toEqual(["contact", "createdAt", "id", "lastMessage", "queueId", "status", "tags", "updatedAt", "userId", "uuid"]);
    expect(card).toMatchObject({ id: a.id, uuid: a.uuid, status: "pending", queueId: w.suporte, userId: null, tags: [{ id: novo, name: "Novo lead", color: expect.any(String) }] });
    expect(Object.keys(card.contact).sort()).toEqual(["id", "name", "number"]);
    expect(card.contact.name).toBe("Alice");
    expect(res.body.tickets).toEqual([card]);
    const page = await api("GET", `/api/ticket/kanban/${novo}?limit=12`, { token: w.admin.token });
    expect(page.body.tickets).toEqual([card]);
  });

  it("moving a card (the tags' sync: previous kanban tag off, the target's on) moves it between lanes and tells the other boards", async () => {
    const w = await world();
    const t = await ticket(w, { queueId: w.suporte });
    const novo = await tag(w.admin, "Novo lead", 1);
    const fechando = await tag(w.admin, "Fechando", 1);
    const vip = await tag(w.admin, "VIP", 0);
    await sync(w.admin, t.id, [vip]);
    const sock = await registerSocket(w.cid, { id: w.ana.id, profile: "user", queueIds: [w.suporte] });
    base.capture.clear();
    await sync(w.ana, t.id, [vip, novo]);
    expect(byLane(await board(w.ana))).toEqual([
      [0, []],
      [novo, [t.id]],
      [fechando, []],
    ]);
    const frame = base.capture.frames.find((f) => f.connectionId === sock && f.event === `company-${w.cid}-ticket`);
    expect(frame?.data).toMatchObject({ action: "update", ticket: { id: t.id, tags: expect.arrayContaining([expect.objectContaining({ id: novo })]) } });
    await sync(w.ana, t.id, [vip, fechando]);
    expect(byLane(await board(w.admin))).toEqual([
      [0, []],
      [novo, []],
      [fechando, [t.id]],
    ]);
    await sync(w.ana, t.id, [vip]);
    expect(byLane(await board(w.admin))[0]).toEqual([0, [t.id]]);
  });

  it("a tag switched to kanban takes its tickets into a lane of its own; switched off, they go back to 'Em aberto'", async () => {
    const w = await world();
    const t = await ticket(w, { queueId: w.suporte });
    const later = await tag(w.admin, "Depois", 0);
    await sync(w.admin, t.id, [later]);
    expect(byLane(await board(w.admin))).toEqual([[0, [t.id]]]);
    expect((await api("PUT", `/api/tags/${later}`, { token: w.admin.token, body: { kanban: 1 } })).status).toBe(200);
    expect(byLane(await board(w.admin))).toEqual([
      [0, []],
      [later, [t.id]],
    ]);
    expect((await api("PUT", `/api/tags/${later}`, { token: w.admin.token, body: { kanban: 0 } })).status).toBe(200);
    expect(byLane(await board(w.admin))).toEqual([[0, [t.id]]]);
  });

  it("closed tickets leave the board; a deleted ticket too", async () => {
    const w = await world();
    const t = await ticket(w, { userId: w.admin.id, queueId: w.suporte });
    const gone = await ticket(w, { queueId: w.suporte });
    expect(byLane(await board(w.admin))).toEqual([[0, [gone.id, t.id]]]);
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { status: "closed" } })).status).toBe(200);
    expect((await api("DELETE", `/api/tickets/${gone.id}`, { token: w.admin.token })).status).toBe(200);
    expect(byLane(await board(w.admin))).toEqual([[0, []]]);
  });

  it("each profile sees what the ticket list shows it: its queues, its own tickets, no-queue tickets only with allTicket; admins all", async () => {
    const w = await world();
    const inSuporte = await ticket(w, { queueId: w.suporte });
    const inVendas = await ticket(w, { queueId: w.vendas });
    const noQueue = await ticket(w, { queueId: null });
    const anasOwn = await ticket(w, { queueId: w.vendas, userId: w.ana.id });
    const free = await makeUser(w.cid, { queueIds: [], allTicket: "enabled" });
    const ids = async (u: TestUser, q = "") => (await board(u, q)).lanes[0].tickets.map((t) => t.id).sort((x, y) => x - y);
    const sorted = (...xs: { id: number }[]) => xs.map((x) => x.id).sort((x, y) => x - y);
    expect(await ids(w.admin)).toEqual(sorted(inSuporte, inVendas, noQueue, anasOwn));
    expect(await ids(w.ana)).toEqual(sorted(inSuporte, anasOwn));
    expect(await ids(w.sofia)).toEqual(sorted(inSuporte));
    expect(await ids(w.bruno)).toEqual(sorted(inVendas, anasOwn));
    expect(await ids(free)).toEqual(sorted(noQueue));
    // The queue filter narrows to the caller's own queues: another queue adds nothing.
    expect(await ids(w.sofia, `?queueIds=${encodeURIComponent(JSON.stringify([w.vendas]))}`)).toEqual([]);
    expect(await ids(w.bruno, `?queueIds=${encodeURIComponent(JSON.stringify([w.vendas]))}`)).toEqual(sorted(inVendas, anasOwn));
    expect(await ids(w.admin, `?queueIds=${encodeURIComponent(JSON.stringify([w.suporte]))}`)).toEqual(sorted(inSuporte, noQueue));
  });

  it("limits the board to the caller's queues by itself: an agent naming another queue sees nothing of it, on the board or a lane's pages", async () => {
    const w = await world();
    const novo = await tag(w.admin, "Novo lead", 1);
    const mine = await ticket(w, { queueId: w.suporte });
    const inVendas = await ticket(w, { queueId: w.vendas });
    const taggedInVendas = await ticket(w, { queueId: w.vendas });
    await ticket(w, { queueId: w.vendas });
    await sync(w.admin, taggedInVendas.id, [novo]);
    const q = (ids: number[]) => `?queueIds=${encodeURIComponent(JSON.stringify(ids))}`;
    const everyId = (b: KanbanBoard) => [...b.lanes.flatMap((l) => l.tickets.map((t) => t.id)), ...b.tickets.map((t) => t.id)];
    // Without a list the server applies Ana's own view (the web sends none); naming Vendas too changes nothing.
    expect(byLane(await board(w.ana))).toEqual([[0, [mine.id]], [novo, []]]);
    expect(byLane(await board(w.ana, q([w.suporte, w.vendas])))).toEqual([[0, [mine.id]], [novo, []]]);
    expect(everyId(await board(w.ana, q([w.vendas])))).toEqual([]);
    for (const laneId of [0, novo]) {
      for (const query of [q([w.vendas]), q([w.vendas, w.suporte])]) {
        const ids = (await lane(w.ana, laneId, query)).tickets.map((t) => t.id);
        expect(ids, `${laneId} ${query}`).not.toContain(inVendas.id);
        expect(ids, `${laneId} ${query}`).not.toContain(taggedInVendas.id);
      }
    }
    // A cursor naming the Vendas partitions (an admin's, narrowed to Vendas) is refused, not read.
    const admins = await lane(w.admin, 0, `${q([w.vendas])}&limit=1`);
    expect(admins.nextCursor).toBeDefined();
    const forged = await api("GET", `/api/ticket/kanban/0${q([w.vendas])}&cursor=${encodeURIComponent(admins.nextCursor!)}`, { token: w.ana.token });
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: "ERR_INVALID_CURSOR" });
  });

  it("validates the query: a bad queue list or page size is 400 and nothing is read", async () => {
    const w = await world();
    for (const q of ["?queueIds=%5Babc%5D", "?queueIds=%7B", "?limit=0", "?limit=1000", "?limit=x"]) {
      const res = await api("GET", `/api/ticket/kanban${q}`, { token: w.admin.token });
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toBe("ERR_VALIDATION");
    }
    const many = JSON.stringify(Array.from({ length: 21 }, (_, i) => i + 1));
    const res = await api("GET", `/api/ticket/kanban?queueIds=${encodeURIComponent(many)}`, { token: w.admin.token });
    expect(res.status).toBe(400);
  });

  it("needs a login, and the plan's useKanban: a company whose plan has it off gets 403 on every route", async () => {
    expect((await api("GET", "/api/ticket/kanban")).status).toBe(401);
    const off = await base.fresh({ planFlags: { useKanban: false } });
    for (const path of ["/api/ticket/kanban", "/api/ticket/kanban/0"]) {
      const res = await api("GET", path, { token: off.admin.token });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: "ERR_PLAN_FEATURE_DISABLED" });
    }
  });

  it("another company sees none of the tickets, lanes or cursors of this one", async () => {
    const w = await world();
    const novo = await tag(w.admin, "Novo lead", 1);
    const t = await ticket(w, { queueId: w.suporte });
    await ticket(w, { queueId: w.suporte });
    await sync(w.admin, t.id, [novo]);
    const other = await base.fresh();
    const theirs = await board(other.admin);
    expect(theirs).toEqual({ lanes: [{ id: 0, tag: null, tickets: [], hasMore: false }], tickets: [] });
    const res = await api("GET", `/api/ticket/kanban/${novo}`, { token: other.admin.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "ERR_NO_TAG_FOUND" });
    const mine = await lane(w.admin, 0, "?limit=1");
    expect(mine.nextCursor).toBeDefined();
    const stolen = await api("GET", `/api/ticket/kanban/0?cursor=${encodeURIComponent(mine.nextCursor!)}`, { token: other.admin.token });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual({ error: "ERR_INVALID_CURSOR" });
  });
});

describe("GET /api/ticket/kanban/{laneId}", () => {
  it("pages a lane by its cursor, newest ticket first, never skipping nor repeating a card (an agent's lane merges its queue and its own tickets)", async () => {
    const w = await world();
    const made: number[] = [];
    for (let i = 0; i < 7; i++) made.push((await ticket(w, i % 3 === 0 ? { queueId: w.vendas, userId: w.ana.id } : { queueId: w.suporte })).id);
    await ticket(w, { queueId: w.vendas }); // not Ana's
    for (const u of [w.admin, w.ana]) {
      const seen: number[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const p = await lane(u, 0, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(p.tickets.length).toBeLessThanOrEqual(3);
        seen.push(...p.tickets.map((t) => t.id));
        cursor = p.nextCursor;
        expect(p.hasMore).toBe(!!cursor);
        pages++;
      } while (cursor && pages < 10);
      const expected = u === w.admin ? [...made, made.at(-1)! + 1] : made;
      expect(seen).toEqual([...expected].reverse());
    }
    const first = await board(w.admin, "?limit=3");
    expect(first.lanes[0]).toMatchObject({ hasMore: true });
    expect(first.lanes[0].tickets).toHaveLength(3);
  });

  it("answers 404 for a tag that is not a lane, 400 for a bad lane id or a cursor of another lane", async () => {
    const w = await world();
    const vip = await tag(w.admin, "VIP", 0);
    const novo = await tag(w.admin, "Novo lead", 1);
    await ticket(w, { queueId: w.suporte });
    await ticket(w, { queueId: w.suporte });
    expect((await api("GET", `/api/ticket/kanban/${vip}`, { token: w.admin.token })).body).toEqual({ error: "ERR_NO_TAG_FOUND" });
    expect((await api("GET", "/api/ticket/kanban/99999", { token: w.admin.token })).status).toBe(404);
    for (const bad of ["abc", "-1", "1.5"]) expect((await api("GET", `/api/ticket/kanban/${bad}`, { token: w.admin.token })).status, bad).toBe(400);
    const p = await lane(w.admin, 0, "?limit=1");
    const cross = await api("GET", `/api/ticket/kanban/${novo}?cursor=${encodeURIComponent(p.nextCursor!)}`, { token: w.admin.token });
    expect(cross.status).toBe(400);
    expect(cross.body).toEqual({ error: "ERR_INVALID_CURSOR" });
    // An agent's cursor names partitions an agent of another queue does not read.
    const mine = await lane(w.ana, 0, "?limit=1");
    const theirs = await api("GET", `/api/ticket/kanban/0?cursor=${encodeURIComponent(mine.nextCursor!)}`, { token: w.bruno.token });
    expect(theirs.status).toBe(400);
  });
});
