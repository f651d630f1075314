/**
 * Tags area through the real Lambda handler (docs/product/tags.md): CRUD with validation,
 * each profile's rights (the kanban switch), ticket tags (sync / add / remove) with exact `ticketsCount`, the ticket
 * list filtered by tag and by user, cross-company isolation on every route, realtime frames.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, makeUser, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, runQueuedJobs, useLocalAws } from "../../../test/world.ts";
import { makeQueue, makeTicket } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { Tag, TagsPage, KanbanTags, TagList } from "../../../shared/src/tags/schema.ts";
import { JobStarted } from "../../../shared/src/jobs/schema.ts";
import { listTickets } from "../../../shared/src/tickets/service.ts";

useLocalAws({ sqs: true });

/** The file's preamble; every test takes a company of its own from it ({@link world}), so counts start at zero. */
const base = companyWorld({ queues: ["Suporte"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Sofia", profile: "supervisor" }] });

const createTag = (token: string, body: Record<string, unknown>) => api("POST", "/api/tags", { token, body });
const tagsList = async (token: string) => (await api("GET", "/api/tags/list", { token })).body as any[];
const tagOf = async (token: string, id: number) => (await api("GET", `/api/tags/${id}`, { token })).body;

/** A company with a queue, a connection, an agent of that queue, a supervisor and tickets to tag. */
async function world() {
  const w = await base.fresh();
  return { cid: w.cid, admin: w.admin, agent: w.agents[0], supervisor: w.agents[1], q: w.queues[0], wa: w.wa };
}

describe("POST /api/tags", () => {
  it("creates a tag for any user of the company, with the default colour and the creator as owner, and announces it", async () => {
    const w = await world();
    const sock = await registerSocket(w.cid, { id: w.admin.id, profile: "admin" });
    base.capture.clear();
    const res = await createTag(w.agent.token, { name: "Urgente" });
    expect(res.status).toBe(200);
    expect(Tag.parse(res.body)).toMatchObject({ companyId: w.cid, name: "Urgente", color: "#A4CCCC", kanban: 0, userId: w.agent.id, ticketsCount: 0 });
    expect(base.capture.frames).toEqual([{ connectionId: sock, event: `company-${w.cid}-tag`, data: { action: "create", tag: res.body } }]);
  });

  it("validates the name (required, at least 3) and the colour with the product's messages, writing nothing", async () => {
    const w = await world();
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, "name", "Obrigatório"],
      [{ name: "   " }, "name", "Obrigatório"],
      [{ name: "ab" }, "name", "Mensagem muito curta"],
      [{ name: "x".repeat(51) }, "name", "Too Long!"],
      [{ name: "Vendas", color: "red; background:url(x)" }, "color", "Invalid color"],
      [{ name: "Vendas", kanban: 7 }, "kanban", ""],
      [{ name: "Vendas", userId: "abc" }, "userId", ""],
    ];
    for (const [body, path, message] of cases) {
      const res = await createTag(w.admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      const field = res.body.fields.find((f: any) => f.path === path);
      expect(field, JSON.stringify(body)).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    expect((await createTag(w.admin.token, { name: "Vendas", userId: 999999 })).body).toEqual({ error: "ERR_NO_USER_FOUND" });
    expect(await tagsList(w.admin.token)).toEqual([]);
  });

  it("lets admins and supervisors create kanban lanes and refuses a plain user with 403", async () => {
    const w = await world();
    expect((await createTag(w.admin.token, { name: "Lane A", kanban: 1 })).body.kanban).toBe(1);
    expect((await createTag(w.supervisor.token, { name: "Lane B", kanban: true })).body.kanban).toBe(1);
    const refused = await createTag(w.agent.token, { name: "Lane C", kanban: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await tagsList(w.admin.token)).map((t) => t.name)).toEqual(["Lane A", "Lane B"]);
  });

  it("refuses a name another tag of the company has in any letter case (409, nothing written, no id taken), allows it in another company", async () => {
    const w = await world();
    const other = await world();
    const first = await createTag(w.agent.token, { name: "Urgente" });
    for (const name of ["Urgente", " urgente ", "URGENTE"]) {
      const dup = await createTag(w.admin.token, { name });
      expect(dup.status, name).toBe(409);
      expect(dup.body).toEqual({ error: "ERR_TAG_NAME_ALREADY_EXISTS" });
    }
    expect((await tagsList(w.admin.token)).map((t) => t.name)).toEqual(["Urgente"]);
    // The three refused saves took no id: the next tag gets the next number.
    expect((await createTag(w.admin.token, { name: "Retorno" })).body.id).toBe(first.body.id + 1);
    expect((await createTag(other.admin.token, { name: "urgente" })).status).toBe(200);
    // Two saves of one new name at the same time: one tag.
    const both = await Promise.all([createTag(w.admin.token, { name: "Paralela" }), createTag(w.agent.token, { name: "PARALELA" })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await tagsList(w.admin.token)).filter((t) => t.name.toLowerCase() === "paralela")).toHaveLength(1);
  });

  it("creates the tag in the caller's company even when the body names another one", async () => {
    const a = await world();
    const b = await world();
    const res = await createTag(b.admin.token, { name: "Minha", companyId: a.cid });
    expect(res.body.companyId).toBe(b.cid);
    expect(await tagsList(a.admin.token)).toEqual([]);
  });
});

describe("GET /api/tags, /list, /kanban, /{id}", () => {
  it("pages by name with a case- and accent-insensitive search, count and hasMore", async () => {
    const w = await world();
    for (let i = 25; i >= 1; i--) await createTag(w.admin.token, { name: `Etiqueta ${String(i).padStart(2, "0")}` });
    await createTag(w.admin.token, { name: "Promoção" });
    const p1 = TagsPage.parse((await api("GET", "/api/tags?pageNumber=1", { token: w.agent.token })).body);
    expect(p1.tags).toHaveLength(20);
    expect(p1.tags[0].name).toBe("Etiqueta 01");
    expect(p1).toMatchObject({ count: 26, hasMore: true });
    const p2 = TagsPage.parse((await api("GET", "/api/tags?pageNumber=2", { token: w.agent.token })).body);
    expect(p2.tags.map((t) => t.name)).toEqual(["Etiqueta 21", "Etiqueta 22", "Etiqueta 23", "Etiqueta 24", "Etiqueta 25", "Promoção"]);
    expect(p2.hasMore).toBe(false);
    const found = TagsPage.parse((await api("GET", "/api/tags?searchParam=PROMOCAO", { token: w.agent.token })).body);
    expect(found).toMatchObject({ count: 1, hasMore: false });
    expect(found.tags[0].name).toBe("Promoção");
    expect((await api("GET", "/api/tags?pageNumber=0", { token: w.agent.token })).status).toBe(400);
  });

  it("lists every tag for selects and the kanban lanes as lista", async () => {
    const w = await world();
    const lane = await createTag(w.admin.token, { name: "Em negociação", kanban: 1 });
    await createTag(w.admin.token, { name: "Comum" });
    expect(TagList.parse(await tagsList(w.agent.token)).map((t) => t.name)).toEqual(["Comum", "Em negociação"]);
    const kanban = KanbanTags.parse((await api("GET", "/api/tags/kanban", { token: w.agent.token })).body);
    expect(kanban.lista).toEqual([lane.body]);
    expect(Tag.parse(await tagOf(w.agent.token, lane.body.id))).toEqual(lane.body);
  });
});

describe("PUT /api/tags/{id}", () => {
  it("changes the given fields and announces the update", async () => {
    const w = await world();
    const t = await createTag(w.agent.token, { name: "Antigo", color: "#111111" });
    const sock = await registerSocket(w.cid, { id: w.agent.id, profile: "user", queueIds: [w.q] });
    base.capture.clear();
    const res = await api("PUT", `/api/tags/${t.body.id}`, { token: w.agent.token, body: { name: "Novo nome", kanban: 0 } });
    expect(res.status).toBe(200);
    expect(Tag.parse(res.body)).toMatchObject({ name: "Novo nome", color: "#111111", kanban: 0 });
    expect(base.capture.frames).toEqual([{ connectionId: sock, event: `company-${w.cid}-tag`, data: { action: "update", tag: res.body } }]);
  });

  it("refuses the kanban switch to a plain user (403, nothing changed) and allows it to supervisors and admins", async () => {
    const w = await world();
    const t = await createTag(w.agent.token, { name: "Etapa" });
    const refused = await api("PUT", `/api/tags/${t.body.id}`, { token: w.agent.token, body: { name: "Mudado", kanban: 1 } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect(await tagOf(w.admin.token, t.body.id)).toMatchObject({ name: "Etapa", kanban: 0 });
    expect((await api("PUT", `/api/tags/${t.body.id}`, { token: w.supervisor.token, body: { kanban: 1 } })).body.kanban).toBe(1);
    // The agent's edit of the name, sending the current kanban back, is fine; turning it off is not.
    expect((await api("PUT", `/api/tags/${t.body.id}`, { token: w.agent.token, body: { name: "Etapa 2", kanban: 1 } })).status).toBe(200);
    expect((await api("PUT", `/api/tags/${t.body.id}`, { token: w.agent.token, body: { kanban: 0 } })).status).toBe(403);
    expect((await api("PUT", `/api/tags/${t.body.id}`, { token: w.admin.token, body: { kanban: false } })).body.kanban).toBe(0);
  });

  it("refuses another tag's name in any letter case, keeps its own in another case, and frees a name on rename and delete", async () => {
    const w = await world();
    const urgente = (await createTag(w.admin.token, { name: "Urgente" })).body;
    const outra = (await createTag(w.admin.token, { name: "Outra" })).body;
    const dup = await api("PUT", `/api/tags/${outra.id}`, { token: w.agent.token, body: { name: " URGENTE" } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "ERR_TAG_NAME_ALREADY_EXISTS" });
    expect(await tagOf(w.admin.token, outra.id)).toEqual(outra);
    expect((await api("PUT", `/api/tags/${urgente.id}`, { token: w.admin.token, body: { name: "urgente" } })).body.name).toBe("urgente");
    expect((await api("PUT", `/api/tags/${urgente.id}`, { token: w.admin.token, body: { name: "Muito urgente" } })).status).toBe(200);
    expect((await createTag(w.admin.token, { name: "Urgente" })).status).toBe(200);
    expect((await api("DELETE", `/api/tags/${outra.id}`, { token: w.admin.token })).status).toBe(202); // the tag and its name go at once; its tickets follow in the background
    expect((await createTag(w.admin.token, { name: "outra" })).status).toBe(200);
  });

  it("answers 400 to a bad body and changes nothing", async () => {
    const w = await world();
    const t = await createTag(w.admin.token, { name: "Certo" });
    const bad = await api("PUT", `/api/tags/${t.body.id}`, { token: w.admin.token, body: { name: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0]).toEqual({ path: "name", message: "Mensagem muito curta" });
    expect(await tagOf(w.admin.token, t.body.id)).toEqual(t.body);
  });
});

describe("ticket tags", () => {
  it("syncs, adds and removes a ticket's tags with exact counts, tags on the rows and live frames", async () => {
    const w = await world();
    const t1 = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q });
    const t2 = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q });
    const vip = (await createTag(w.admin.token, { name: "VIP", color: "#ff0000" })).body;
    const late = (await createTag(w.admin.token, { name: "Atrasado" })).body;
    const sock = await registerSocket(w.cid, { id: w.agent.id, profile: "user", queueIds: [w.q] });
    base.capture.clear();

    const synced = await api("POST", "/api/tags/sync", { token: w.agent.token, body: { ticketId: t1.id, tags: [vip, { id: late.id, name: "Atrasado" }] } });
    expect(synced.status).toBe(200);
    expect(synced.body.tags).toEqual([
      { id: vip.id, name: "VIP", color: "#ff0000" },
      { id: late.id, name: "Atrasado", color: "#A4CCCC" },
    ]);
    const ticketFrames = base.capture.frames.filter((f) => f.event === `company-${w.cid}-ticket`);
    expect(ticketFrames).toHaveLength(1);
    expect(ticketFrames[0]).toMatchObject({ connectionId: sock, data: { action: "update", ticket: { id: t1.id, tags: synced.body.tags } } });
    const tagFrames = base.capture.frames.filter((f) => f.event === `company-${w.cid}-tag`);
    expect(tagFrames.map((f) => [f.data.action, f.data.tag.id, f.data.tag.ticketsCount]).sort()).toEqual([["update", vip.id, 1], ["update", late.id, 1]].sort());

    // Adding twice counts once; a second ticket counts too.
    expect((await api("PUT", `/api/ticket-tags/${t1.id}/${vip.id}`, { token: w.agent.token })).status).toBe(200);
    const added = await api("PUT", `/api/ticket-tags/${t2.id}/${vip.id}`, { token: w.agent.token });
    expect(added.body.tags.map((x: any) => x.id)).toEqual([vip.id]);
    expect((await tagOf(w.agent.token, vip.id)).ticketsCount).toBe(2);
    expect((await tagOf(w.agent.token, late.id)).ticketsCount).toBe(1);

    // The list rows and the single ticket carry the tags.
    const list = await api("GET", "/api/tickets?status=pending", { token: w.agent.token });
    expect(list.body.tickets.find((x: any) => x.id === t1.id).tags.map((x: any) => x.name)).toEqual(["VIP", "Atrasado"]);
    expect((await api("GET", `/api/tickets/${t2.id}`, { token: w.agent.token })).body.tags).toEqual([{ id: vip.id, name: "VIP", color: "#ff0000" }]);

    // Sync replaces: VIP stays, Atrasado leaves.
    const replaced = await api("POST", "/api/tags/sync", { token: w.agent.token, body: { ticketId: t1.id, tags: [vip.id] } });
    expect(replaced.body.tags.map((x: any) => x.id)).toEqual([vip.id]);
    expect((await tagOf(w.agent.token, late.id)).ticketsCount).toBe(0);

    // Remove all of a ticket's tags.
    const removed = await api("DELETE", `/api/ticket-tags/${t1.id}`, { token: w.agent.token });
    expect(removed.status).toBe(200);
    expect(removed.body.tags).toEqual([]);
    expect((await tagOf(w.agent.token, vip.id)).ticketsCount).toBe(1);
    expect((await api("DELETE", `/api/ticket-tags/${t1.id}`, { token: w.agent.token })).status).toBe(200);
    expect((await tagOf(w.agent.token, vip.id)).ticketsCount).toBe(1);
  });

  it("keeps counts exact under concurrent tagging of many tickets", async () => {
    const w = await world();
    const tag = (await createTag(w.admin.token, { name: "Concorrida" })).body;
    const tickets = await Promise.all(Array.from({ length: 8 }, () => makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q })));
    const results = await Promise.all([
      ...tickets.map((t) => api("PUT", `/api/ticket-tags/${t.id}/${tag.id}`, { token: w.admin.token })),
      ...tickets.slice(0, 4).map((t) => api("PUT", `/api/ticket-tags/${t.id}/${tag.id}`, { token: w.agent.token })),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect((await tagOf(w.admin.token, tag.id)).ticketsCount).toBe(8);
    await Promise.all(tickets.slice(0, 3).map((t) => api("DELETE", `/api/ticket-tags/${t.id}`, { token: w.admin.token })));
    expect((await tagOf(w.admin.token, tag.id)).ticketsCount).toBe(5);
    // Deleting a ticket uncounts it.
    expect((await api("DELETE", `/api/tickets/${tickets[7].id}`, { token: w.admin.token })).status).toBe(200);
    expect((await tagOf(w.admin.token, tag.id)).ticketsCount).toBe(4);
  });

  it("refuses unknown tags, tickets the caller cannot see and bad bodies, writing nothing", async () => {
    const w = await world();
    const otherQueue = (await makeQueue(w.cid)).id;
    const hidden = await makeTicket(w.cid, { whatsappId: w.wa, queueId: otherQueue });
    const mine = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q });
    const tag = (await createTag(w.admin.token, { name: "Existe" })).body;
    const unknown = await api("POST", "/api/tags/sync", { token: w.agent.token, body: { ticketId: mine.id, tags: [tag.id, 987654] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "ERR_NO_TAG_FOUND" });
    expect((await tagOf(w.admin.token, tag.id)).ticketsCount).toBe(0);
    expect((await api("GET", `/api/tickets/${mine.id}`, { token: w.agent.token })).body.tags).toEqual([]);
    expect((await api("PUT", `/api/ticket-tags/${hidden.id}/${tag.id}`, { token: w.agent.token })).status).toBe(403);
    expect((await api("PUT", `/api/ticket-tags/999999/${tag.id}`, { token: w.agent.token })).body).toEqual({ error: "ERR_NO_TICKET_FOUND" });
    const tooMany = await api("POST", "/api/tags/sync", { token: w.agent.token, body: { ticketId: mine.id, tags: Array.from({ length: 25 }, (_, i) => i + 1) } });
    expect(tooMany.status).toBe(400);
    expect((await api("POST", "/api/tags/sync", { token: w.agent.token, body: { ticketId: "x", tags: [] } })).body.error).toBe("ERR_VALIDATION");
    expect((await tagOf(w.admin.token, tag.id)).ticketsCount).toBe(0);
  });
});

describe("DELETE /api/tags/{id}", () => {
  it("deletes the tag, takes it off its tickets and announces both", async () => {
    const w = await world();
    const t1 = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q });
    const keep = (await createTag(w.admin.token, { name: "Fica" })).body;
    const gone = (await createTag(w.admin.token, { name: "Sai" })).body;
    await api("POST", "/api/tags/sync", { token: w.admin.token, body: { ticketId: t1.id, tags: [keep.id, gone.id] } });
    const sock = await registerSocket(w.cid, { id: w.admin.id, profile: "admin" });
    base.capture.clear();
    const agentSock = await registerSocket(w.cid, { id: w.agent.id, profile: "user" });
    const res = await api("DELETE", `/api/tags/${gone.id}`, { token: w.agent.token });
    // The tag is gone at once; taking it off its tickets is a background job the answer names.
    expect(res.status).toBe(202);
    expect(JobStarted.parse(res.body)).toMatchObject({ message: "Tag deleted", job: { kind: "deleteTag", status: "running", done: 0 } });
    expect((await api("GET", `/api/tags/${gone.id}`, { token: w.admin.token })).status).toBe(404);
    expect(await runQueuedJobs()).toBeGreaterThanOrEqual(1);
    // Whoever deleted it sees the job's progress, up to done.
    const progress = base.capture.frames.filter((f) => f.connectionId === agentSock && f.event === `company-${w.cid}-job`).map((f) => f.data.job);
    expect(progress.at(-1)).toMatchObject({ id: res.body.jobId, status: "done", done: 1, total: 1 });
    expect(base.capture.frames.some((f) => f.connectionId === sock && f.event === `company-${w.cid}-job`)).toBe(false);
    expect((await api("GET", `/api/tickets/${t1.id}`, { token: w.admin.token })).body.tags.map((x: any) => x.id)).toEqual([keep.id]);
    expect(base.capture.frames).toContainEqual({ connectionId: sock, event: `company-${w.cid}-tag`, data: { action: "delete", tagId: gone.id } });
    expect(base.capture.frames.some((f) => f.event === `company-${w.cid}-ticket` && f.data.ticket.id === t1.id && f.data.ticket.tags.length === 1)).toBe(true);
    expect((await api("GET", `/api/tickets?tags=[${gone.id}]`, { token: w.admin.token })).body.tickets).toEqual([]);
    expect((await tagOf(w.admin.token, keep.id)).ticketsCount).toBe(1);
  });
});

describe("GET /api/tickets filtered by tag and by user", () => {
  let w: Awaited<ReturnType<typeof world>>;
  let agent2: TestUser;
  let tagA: any;
  let tagB: any;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    w = await world();
    agent2 = await makeUser(w.cid, { queueIds: [w.q], name: "Bia" });
    tagA = (await createTag(w.admin.token, { name: "Alfa" })).body;
    tagB = (await createTag(w.admin.token, { name: "Beta" })).body;
    ids.aOpenAgent = (await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q, status: "open", userId: w.agent.id })).id;
    ids.abPending = (await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q })).id;
    ids.bClosedAgent2 = (await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q, status: "closed", userId: agent2.id })).id;
    ids.untagged = (await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.q, status: "open", userId: agent2.id })).id;
    const otherQueue = (await makeQueue(w.cid)).id;
    ids.aHidden = (await makeTicket(w.cid, { whatsappId: w.wa, queueId: otherQueue })).id;
    for (const [t, tags] of [
      [ids.aOpenAgent, [tagA.id]],
      [ids.abPending, [tagA.id, tagB.id]],
      [ids.bClosedAgent2, [tagB.id]],
      [ids.aHidden, [tagA.id]],
    ] as const) {
      expect((await api("POST", "/api/tags/sync", { token: w.admin.token, body: { ticketId: t, tags } })).status).toBe(200);
    }
  });
  const listIds = async (token: string, qs: string) => {
    const res = await api("GET", `/api/tickets?${qs}`, { token });
    expect(res.status).toBe(200);
    return res.body.tickets.map((t: any) => t.id).sort((a: number, b: number) => a - b);
  };
  const sorted = (...xs: number[]) => xs.sort((a, b) => a - b);

  it("finds the tickets of any of the tags, once each, for an admin", async () => {
    expect(await listIds(w.admin.token, `tags=[${tagA.id}]&showAll=true`)).toEqual(sorted(ids.aOpenAgent, ids.abPending, ids.aHidden));
    expect(await listIds(w.admin.token, `tags=[${tagA.id},${tagB.id}]&showAll=true`)).toEqual(sorted(ids.aOpenAgent, ids.abPending, ids.bClosedAgent2, ids.aHidden));
    expect(await listIds(w.admin.token, `tags=[${tagB.id}]&status=closed`)).toEqual([ids.bClosedAgent2]);
  });

  it("shows an agent only the tagged tickets they may see", async () => {
    expect(await listIds(w.agent.token, `tags=[${tagA.id}]`)).toEqual(sorted(ids.aOpenAgent, ids.abPending));
  });

  it("combines the admin's user filter with the tag filter, and serves the user filter alone", async () => {
    expect(await listIds(w.admin.token, `tags=[${tagA.id},${tagB.id}]&users=[${agent2.id}]&showAll=true`)).toEqual([ids.bClosedAgent2]);
    expect(await listIds(w.admin.token, `users=[${agent2.id}]&showAll=true`)).toEqual(sorted(ids.bClosedAgent2, ids.untagged));
  });

  it("ignores a non-admin's user filter", async () => {
    const withFilter = await listIds(w.agent.token, `users=[${agent2.id}]`);
    expect(withFilter).toEqual(await listIds(w.agent.token, ""));
    expect(withFilter).not.toContain(ids.untagged);
  });

  it("pages tagged tickets with a cursor without repeating or skipping one, newest ticket first", async () => {
    const actor = { userId: w.admin.id, companyId: w.cid, profile: "admin", super: false, name: "Admin", queueIds: [], allTicket: "desabled" };
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await listTickets(actor, { tags: [tagA.id, tagB.id], showAll: true, limit: 1, cursor });
      seen.push(...page.tickets.map((t) => t.id));
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    expect(seen).toEqual([ids.aHidden, ids.bClosedAgent2, ids.abPending, ids.aOpenAgent]);
    const second = await listTickets(actor, { tags: [tagA.id, tagB.id], showAll: true, limit: 1, pageNumber: 2 });
    expect(second.tickets.map((t) => t.id)).toEqual([ids.bClosedAgent2]);
  });

  it("shows another company none of these tickets and refuses its cursor", async () => {
    const other = await world();
    expect(await listIds(other.admin.token, `tags=[${tagA.id}]&showAll=true`)).toEqual([]);
    const ownTag = (await createTag(other.admin.token, { name: "Deles" })).body;
    const forged = Buffer.from(JSON.stringify({ g: { [ownTag.id]: { PK: `C#${w.cid}#TK#1`, SK: "TAG#1", GSI4PK: `C#${w.cid}#TAG#${ownTag.id}`, GSI4SK: "T#" } } })).toString("base64url");
    const res = await api("GET", `/api/tickets?tags=[${ownTag.id}]&cursor=${forged}`, { token: other.admin.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("ERR_INVALID_CURSOR");
  });
});

describe("cross-company", () => {
  it("answers another company's users 404 on every tags route and shows them nothing", async () => {
    const a = await world();
    const b = await world();
    const tag = (await createTag(a.admin.token, { name: "Privada", kanban: 1 })).body;
    const ticket = await makeTicket(a.cid, { whatsappId: a.wa, queueId: a.q });
    await api("PUT", `/api/ticket-tags/${ticket.id}/${tag.id}`, { token: a.admin.token });
    for (const token of [b.admin.token, b.agent.token]) {
      expect((await api("GET", "/api/tags", { token })).body).toEqual({ tags: [], count: 0, hasMore: false });
      expect((await api("GET", "/api/tags/list", { token })).body).toEqual([]);
      expect((await api("GET", "/api/tags/kanban", { token })).body).toEqual({ lista: [] });
      expect((await api("GET", `/api/tags/${tag.id}`, { token })).status).toBe(404);
      expect((await api("PUT", `/api/tags/${tag.id}`, { token, body: { name: "Invasor" } })).status).toBe(404);
      expect((await api("DELETE", `/api/tags/${tag.id}`, { token })).status).toBe(404);
      expect((await api("POST", "/api/tags/sync", { token, body: { ticketId: ticket.id, tags: [] } })).status).toBe(404);
      expect((await api("PUT", `/api/ticket-tags/${ticket.id}/${tag.id}`, { token })).status).toBe(404);
      expect((await api("DELETE", `/api/ticket-tags/${ticket.id}`, { token })).status).toBe(404);
      expect((await api("GET", `/api/tickets?tags=[${tag.id}]&showAll=true`, { token })).body.tickets).toEqual([]);
    }
    // B tagging its own ticket with A's tag id: that tag does not exist in B.
    const bTicket = await makeTicket(b.cid, { whatsappId: b.wa, queueId: b.q });
    expect((await api("PUT", `/api/ticket-tags/${bTicket.id}/${tag.id}`, { token: b.admin.token })).body).toEqual({ error: "ERR_NO_TAG_FOUND" });
    expect(await tagOf(a.admin.token, tag.id)).toMatchObject({ name: "Privada", ticketsCount: 1 });
    expect((await api("GET", `/api/tickets/${ticket.id}`, { token: a.admin.token })).body.tags).toHaveLength(1);
  });

  it("answers 401 without a token on every tags route", async () => {
    for (const [m, p] of [
      ["GET", "/api/tags"], ["GET", "/api/tags/list"], ["GET", "/api/tags/kanban"], ["GET", "/api/tags/1"], ["POST", "/api/tags"],
      ["PUT", "/api/tags/1"], ["DELETE", "/api/tags/1"], ["POST", "/api/tags/sync"], ["PUT", "/api/ticket-tags/1/1"], ["DELETE", "/api/ticket-tags/1"],
    ] as const) {
      expect((await api(m, p, { body: {} })).status, `${m} ${p}`).toBe(401);
    }
  });
});
