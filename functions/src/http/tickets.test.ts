import { describe, expect, it } from "vitest";
import { api, makeUser } from "../../../test/helpers.ts";
import { companyWorld, runQueuedJobs, useLocalAws } from "../../../test/world.ts";
import { injectDdbFaults } from "../../../shared/src/ingest/faults.testkit.ts";
import { getJob } from "../../../shared/src/jobs/repository.ts";
import { listMessages } from "../../../shared/src/messages/repository.ts";
import { getTicketItem } from "../../../shared/src/tickets/repository.ts";
import { getTicket, findOrCreateTicket } from "../../../shared/src/tickets/service.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp, setSetting } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";

useLocalAws({ sqs: true });
const w = companyWorld({ queues: ["Suporte", "Vendas"], whatsapp: true, agents: [{ queues: [0], name: "Ana Agente" }, { queues: [1], name: "Beto" }], other: true });

describe("GET /api/tickets", () => {
  it("lists pending tickets of the agent's queues only, with nested data", async () => {
    const t1 = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const t2 = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[1] });
    const res = await api("GET", "/api/tickets?status=pending&queueIds=[]", { token: w.agents[0].token });
    expect(res.status).toBe(200);
    const ids = res.body.tickets.map((t: any) => t.id);
    expect(ids).toContain(t1.id);
    expect(ids).not.toContain(t2.id);
    expect(res.body.tickets.find((t: any) => t.id === t1.id).queue.name).toBe("Suporte");
    expect(typeof res.body.hasMore).toBe("boolean");
    expect(typeof res.body.count).toBe("number");
  });

  it("keeps the tab counts' bookkeeping (the stored tally) out of list and ticket answers and out of ticket frames", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    expect((await getTicketItem(w.cid, t.id))?.tally).toBeTruthy();
    const sock = await registerSocket(w.cid, { id: w.agents[0].id, profile: "user", queueIds: [w.queues[0]] });
    w.capture.clear();
    const list = await api("GET", "/api/tickets?status=pending&queueIds=[]", { token: w.agents[0].token });
    const listed = list.body.tickets.find((x: any) => x.id === t.id);
    expect(listed.queue.name).toBe("Suporte");
    expect(listed).not.toHaveProperty("tally");
    const one = await api("GET", `/api/tickets/${t.id}`, { token: w.agents[0].token });
    expect(one.body.id).toBe(t.id);
    expect(one.body).not.toHaveProperty("tally");
    const accepted = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open", userId: w.agents[0].id } });
    expect(accepted.body).toMatchObject({ id: t.id, status: "open" });
    expect(accepted.body).not.toHaveProperty("tally");
    const frames = w.capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${w.cid}-ticket` && f.data.ticket?.id === t.id);
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(f.data.ticket).not.toHaveProperty("tally");
  });

  it("shows another company's admin none of these tickets", async () => {
    await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const res = await api("GET", "/api/tickets?status=pending&showAll=true", { token: w.other.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.tickets).toEqual([]);
  });

  it("answers 400 for a malformed filter", async () => {
    expect((await api("GET", "/api/tickets?status=weird", { token: w.admin.token })).status).toBe(400);
    expect((await api("GET", "/api/tickets?queueIds=[1,", { token: w.admin.token })).status).toBe(400);
    expect((await api("GET", "/api/tickets?cursor=not-a-cursor", { token: w.admin.token })).body.error).toBe("ERR_INVALID_CURSOR");
  });

  it("refuses a filter naming more than 20 users or queues", async () => {
    const many = JSON.stringify(Array.from({ length: 21 }, (_, i) => i + 1));
    const users = await api("GET", `/api/tickets?users=${encodeURIComponent(many)}`, { token: w.admin.token });
    expect(users.status).toBe(400);
    expect(users.body.error).toBe("ERR_VALIDATION");
    const queues = await api("GET", `/api/tickets?status=pending&queueIds=${encodeURIComponent(many)}`, { token: w.admin.token });
    expect(queues.status).toBe(400);
    const fine = await api("GET", `/api/tickets?status=pending&users=${encodeURIComponent(JSON.stringify([w.agents[0].id, w.agents[1].id]))}`, { token: w.admin.token });
    expect(fine.status).toBe(200);
  });

  it("answers 401 without a token", async () => {
    expect((await api("GET", "/api/tickets")).status).toBe(401);
  });
});

describe("GET /api/tickets/{id}", () => {
  it("returns the ticket by id and by uuid", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const byId = await api("GET", `/api/tickets/${t.id}`, { token: w.agents[0].token });
    expect(byId.status).toBe(200);
    expect(byId.body.contact.id).toBe(t.contactId);
    const byUuid = await api("GET", `/api/tickets/u/${t.uuid}`, { token: w.agents[0].token });
    expect(byUuid.body.id).toBe(t.id);
  });

  it("refuses an agent a ticket outside their queues with 403 and another company with 404", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[1] });
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.agents[0].token })).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.agents[0].token })).status).toBe(403);
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.other.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/tickets/u/${t.uuid}`, { token: w.other.admin.token })).status).toBe(404);
  });

  it("lets an allTicket agent see a ticket without queue and hides it from others", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: null });
    const allTicket = await makeUser(w.cid, { queueIds: [w.queues[0]], allTicket: "enabled" });
    expect((await api("GET", `/api/tickets/${t.id}`, { token: allTicket.token })).status).toBe(200);
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.agents[0].token })).status).toBe(403);
  });
});

describe("POST /api/tickets", () => {
  it("opens a ticket assigned to the caller and refuses a second one with the existing ticket", async () => {
    const contact = await makeContact(w.cid, "Carla");
    const first = await api("POST", "/api/tickets", { token: w.agents[0].token, body: { contactId: contact.id, queueId: w.queues[0], whatsappId: w.wa, status: "open" } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "open", userId: w.agents[0].id, queueId: w.queues[0], contactId: contact.id });
    const second = await api("POST", "/api/tickets", { token: w.admin.token, body: { contactId: contact.id, queueId: w.queues[0], whatsappId: w.wa } });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe("ERR_OTHER_OPEN_TICKET");
    expect(second.body.ticket.id).toBe(first.body.id);
    expect(second.body.ticket.user.name).toBe("Ana Agente");
  });

  it("tells an agent who holds the contact's ticket in another queue, without that ticket's contents", async () => {
    const contact = await makeContact(w.cid, "Helena Segredo");
    const held = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[1], status: "open", userId: w.agents[1].id, contact });
    const res = await api("POST", "/api/tickets", { token: w.agents[0].token, body: { contactId: contact.id, queueId: w.queues[0], whatsappId: w.wa } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("ERR_OTHER_OPEN_TICKET");
    expect(res.body.ticket).toEqual({
      id: held.id,
      status: "open",
      userId: w.agents[1].id,
      queueId: w.queues[1],
      whatsappId: w.wa,
      user: { id: w.agents[1].id, name: "Beto" },
      queue: expect.objectContaining({ id: w.queues[1], name: "Vendas" }),
    });
    expect(JSON.stringify(res.body)).not.toContain("Helena");
    // The holder gets what opens it.
    const own = await api("POST", "/api/tickets", { token: w.agents[1].token, body: { contactId: contact.id, queueId: w.queues[1], whatsappId: w.wa } });
    expect(own.body.ticket).toMatchObject({ id: held.id, uuid: held.uuid, userId: w.agents[1].id });
  });

  it("takes no id for refused tickets: after refusals the next ticket gets the next number", async () => {
    const contact = await makeContact(w.cid, "Ivo Numerado");
    const open = (token: string, body: Record<string, unknown>) => api("POST", "/api/tickets", { token, body });
    const first = await open(w.admin.token, { contactId: contact.id, queueId: w.queues[0], whatsappId: w.wa, status: "open" });
    expect(first.status).toBe(200);
    const refused = [
      await open(w.admin.token, { contactId: contact.id, queueId: w.queues[0], whatsappId: w.wa }),
      await open(w.agents[1].token, { contactId: contact.id, queueId: w.queues[1], whatsappId: w.wa }),
      await open(w.agents[0].token, { contactId: contact.id, queueId: w.queues[1], whatsappId: w.wa }),
      await open(w.agents[0].token, { contactId: contact.id, whatsappId: w.wa }),
      await open(w.admin.token, { contactId: "abc" }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 409, 403, 400, 400]);
    const other = await makeContact(w.cid, "Jussara Numerada");
    expect((await open(w.admin.token, { contactId: other.id, queueId: w.queues[0], whatsappId: w.wa })).body.id).toBe(first.body.id + 1);
  });

  it("requires a queue from non-admins and validates the body", async () => {
    const contact = await makeContact(w.cid, "Davi");
    const noQueue = await api("POST", "/api/tickets", { token: w.agents[0].token, body: { contactId: contact.id, whatsappId: w.wa } });
    expect(noQueue.status).toBe(400);
    expect((await api("POST", "/api/tickets", { token: w.agents[0].token, body: { contactId: contact.id, queueId: w.queues[1], whatsappId: w.wa } })).status).toBe(403);
    expect((await api("POST", "/api/tickets", { token: w.admin.token, body: { contactId: "abc" } })).status).toBe(400);
    expect((await api("POST", "/api/tickets", { token: w.admin.token, body: "{not json" })).body.error).toBe("ERR_INVALID_JSON");
  });

  it("does not find another company's contact or connection", async () => {
    const contact = await makeContact(w.cid, "Elis");
    const res = await api("POST", "/api/tickets", { token: w.other.admin.token, body: { contactId: contact.id, whatsappId: w.wa } });
    expect(res.status).toBe(404);
    const theirs = await api("GET", "/api/tickets?status=open&showAll=true", { token: w.other.admin.token });
    expect(theirs.body.tickets).toEqual([]);
  });
});

describe("PUT /api/tickets/{id}", () => {
  it("accepts a pending ticket for the caller and greets the customer naming the attendant when enabled", async () => {
    await setSetting(w.cid, "sendGreetingAccepted", "enabled");
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], contact: await makeContact(w.cid, "Fernanda Reis") });
    const sock = await registerSocket(w.cid, { id: w.agents[0].id, profile: "user", queueIds: [w.queues[0]] });
    w.capture.clear();
    const res = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open", userId: w.agents[0].id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "open", userId: w.agents[0].id });
    const { messages } = await listMessages(w.cid, t.id);
    expect(messages).toHaveLength(1);
    expect(messages[0].body).toContain("meu nome é *Ana Agente*");
    expect(messages[0].body).toContain("*Fernanda Reis*");
    expect(messages[0].fromMe).toBe(true);
    const frames = w.capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${w.cid}-ticket`);
    expect(frames.some((f) => f.data.action === "update" && f.data.ticket.id === t.id && f.data.ticket.status === "open")).toBe(true);
    await setSetting(w.cid, "sendGreetingAccepted", "disabled");
  });

  it("does not greet group tickets", async () => {
    await setSetting(w.cid, "sendGreetingAccepted", "enabled");
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], isGroup: true });
    await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open" } });
    expect((await listMessages(w.cid, t.id)).messages).toHaveLength(0);
    await setSetting(w.cid, "sendGreetingAccepted", "disabled");
  });

  it("returns an open ticket to pending with no user", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: w.agents[0].id });
    const res = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "pending" } });
    expect(res.body).toMatchObject({ status: "pending", userId: null, queueId: w.queues[0] });
    const list = await api("GET", "/api/tickets?status=pending", { token: w.agents[0].token });
    expect(list.body.tickets.map((x: any) => x.id)).toContain(t.id);
  });

  it("closes from the list keeping the queue, and the next customer message starts a new ticket", async () => {
    const contact = await makeContact(w.cid, "Gabi");
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: w.agents[0].id, contact });
    const res = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "closed", justClose: true } });
    expect(res.body).toMatchObject({ status: "closed", queueId: w.queues[0] });
    const again = await findOrCreateTicket(w.cid, { contactId: contact.id, whatsappId: w.wa, isGroup: false });
    expect(again.created).toBe(true);
  });

  it("resolves an open ticket and sends the connection's completion message", async () => {
    const conn = await makeWhatsapp(w.cid, { isDefault: false, complationMessage: "Obrigado pelo contato!" });
    const t = await makeTicket(w.cid, { whatsappId: conn.id, queueId: w.queues[0], status: "open", userId: w.agents[0].id });
    const res = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "closed" } });
    expect(res.body.status).toBe("closed");
    const { messages } = await listMessages(w.cid, t.id);
    expect(messages.map((m) => m.body.replace("\u200e", ""))).toEqual(["Obrigado pelo contato!"]);
  });

  it("reopens a closed ticket for the caller, or answers 409 with the other open ticket", async () => {
    await setSetting(w.cid, "viewclosed", "enabled"); // another agent's closed ticket is visible only with viewclosed
    const contact = await makeContact(w.cid, "Hugo");
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "closed", userId: w.agents[1].id, contact });
    const reopened = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open" } });
    expect(reopened.body).toMatchObject({ status: "open", userId: w.agents[0].id });
    await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "closed", justClose: true } });
    const newer = await findOrCreateTicket(w.cid, { contactId: contact.id, whatsappId: w.wa, isGroup: false });
    const conflict = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open" } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe("ERR_OTHER_OPEN_TICKET");
    expect(conflict.body.ticket.id).toBe(newer.ticket.id);
    expect((await getTicket(w.cid, t.id))?.status).toBe("closed");
    await setSetting(w.cid, "viewclosed", "disabled");
  });

  it("transfers to a queue without user as pending, and to a user as open", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: w.agents[0].id });
    const toQueue = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { queueId: w.queues[1], userId: null } });
    expect(toQueue.body).toMatchObject({ status: "pending", queueId: w.queues[1], userId: null });
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.agents[0].token })).status).toBe(403);
    const toUser = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[1].token, body: { queueId: w.queues[0], userId: w.agents[0].id, status: "open" } });
    expect(toUser.body).toMatchObject({ status: "open", queueId: w.queues[0], userId: w.agents[0].id });
    expect(toUser.body.user.name).toBe("Ana Agente");
  });

  it("refuses another company's queue, user and ticket ids without changing anything", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const foreignQueue = (await makeQueue(w.other.companyId)).id + 100;
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { queueId: foreignQueue } })).status).toBe(404);
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { userId: w.other.admin.id + 100, status: "open" } })).status).toBe(404);
    const res = await api("PUT", `/api/tickets/${t.id}`, { token: w.other.admin.token, body: { status: "closed" } });
    expect(res.status).toBe(404);
    expect((await getTicket(w.cid, t.id))?.status).toBe("pending");
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[1].token, body: { status: "closed" } })).status).toBe(403);
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { status: "gone" } })).status).toBe(400);
    expect((await getTicket(w.cid, t.id))?.status).toBe("pending");
  });
});

describe("DELETE /api/tickets/{id}", () => {
  it("lets only an admin of the company delete a ticket", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    expect((await api("DELETE", `/api/tickets/${t.id}`, { token: w.agents[0].token })).status).toBe(403);
    expect((await api("DELETE", `/api/tickets/${t.id}`, { token: w.other.admin.token })).status).toBe(404);
    expect(await getTicket(w.cid, t.id)).not.toBeNull();
    expect((await api("DELETE", `/api/tickets/${t.id}`, { token: w.admin.token })).status).toBe(200);
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.admin.token })).status).toBe(404);
    const again = await findOrCreateTicket(w.cid, { contactId: t.contactId, whatsappId: w.wa, isGroup: false });
    expect(again.created).toBe(true);
  });
});

describe("POST /api/tickets/closeAll", () => {
  it("goes on where it stopped when its consumer dies mid-way, closing each of 60 tickets once", async () => {
    const c = await w.fresh({ queues: [], agents: [], other: false });
    const conn = c.wa;
    const tickets = [];
    for (let i = 0; i < 60; i++) tickets.push(await makeTicket(c.cid, { whatsappId: conn }));
    const sock = await registerSocket(c.cid, { id: c.admin.id, profile: "admin" });
    const res = await api("POST", "/api/tickets/closeAll", { token: c.admin.token, body: { status: "pending" } });
    expect(res.status).toBe(202);
    // The consumer dies on its second save: the first step is saved, the second closed its tickets unsaved.
    let saves = 0;
    const isJobSave = (command: string, input: Record<string, unknown>) => command === "UpdateItemCommand" && String((input.Key as { PK?: string })?.PK).includes("#JOB#");
    const faults = injectDdbFaults(({ command, input }) => (isJobSave(command, input) && ++saves === 2 ? "5xx" : null));
    await runQueuedJobs().finally(() => faults.remove());
    const stopped = await getJob(c.cid, res.body.jobId);
    // The message came back (batchItemFailures) and a later delivery finished the job from its last saved step.
    expect(stopped).toMatchObject({ status: "done", total: 60 });
    for (const t of tickets) expect((await getTicket(c.cid, t.id))?.status).toBe("closed");
    // Each ticket was closed once: one "closed" update per ticket reached the admin.
    const closedFrames = w.capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${c.cid}-ticket` && f.data.action === "update" && f.data.ticket.status === "closed");
    expect(closedFrames.map((f) => f.data.ticket.id).sort((x, y) => x - y)).toEqual(tickets.map((t) => t.id).sort((x, y) => x - y));
    const jobFrames = w.capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${c.cid}-job`).map((f) => f.data.job.done);
    expect(jobFrames.at(-1)).toBeGreaterThanOrEqual(60);
  }, 120_000);

  it("closes every pending ticket of the chosen queues only", async () => {
    const c = await w.fresh({ agents: [], other: false });
    const [qa, qb] = c.queues;
    const conn = c.wa;
    const a = await makeTicket(c.cid, { whatsappId: conn, queueId: qa });
    const b = await makeTicket(c.cid, { whatsappId: conn, queueId: qb });
    const res = await api("POST", "/api/tickets/closeAll", { token: c.admin.token, body: { status: "pending", selectedQueueIds: [qa] } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ jobId: expect.any(String), job: { kind: "closeAllTickets", status: "running" } });
    await runQueuedJobs();
    expect(await getJob(c.cid, res.body.jobId)).toMatchObject({ status: "done", done: 1, total: 1 });
    expect((await getTicket(c.cid, a.id))?.status).toBe("closed");
    expect((await getTicket(c.cid, b.id))?.status).toBe("pending");
    expect((await api("POST", "/api/tickets/closeAll", { token: w.agents[0].token, body: { status: "pending" } })).status).toBe(403);
  });
});
