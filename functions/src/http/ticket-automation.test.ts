/**
 * Automatic messages of ticket transitions through the HTTP handlers: the accept greeting is sent once however the PUT is repeated or raced; a
 * resolve with `userRating` keeps the ticket listed as awaiting a rating (realtime carries `ratingAt`); closing it
 * from the list ends the wait; another company can trigger none of it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { listMessages } from "../../../shared/src/messages/repository.ts";
import { getTicketItem } from "../../../shared/src/tickets/repository.ts";
import { getTimer } from "../../../shared/src/timers/index.ts";
import { makeContact, makeTicket, setSetting } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { handler as tick } from "../jobs/tick.ts";

const w = companyWorld({ queues: ["Suporte"], whatsapp: { complationMessage: "Até logo!" }, agents: [{ queues: [0], name: "Ana Agente" }, { queues: [0], name: "Beto" }], other: true });
beforeAll(async () => {
  await setSetting(w.cid, "sendGreetingAccepted", "enabled");
  await setSetting(w.cid, "userRating", "enabled");
});

const greetings = async (ticketId: number) => (await listMessages(w.cid, ticketId)).messages.filter((m) => m.body.includes("meu nome é"));

describe("accept greeting", { timeout: 180_000 }, () => {
  it("is sent once when the same accept arrives twice at once", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], contact: await makeContact(w.cid, "Clara") });
    const both = await Promise.all([
      api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open", userId: w.agents[0].id } }),
      api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open", userId: w.agents[0].id } }),
    ]);
    expect(both.some((r) => r.status === 200)).toBe(true);
    await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open", userId: w.agents[0].id } });
    const sent = await greetings(t.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ isAutomatic: true, userId: null, fromMe: true });
    expect(sent[0].body).toContain("*Ana Agente*");
  });

  it("is sent once when two agents accept the same ticket at once", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    await Promise.all([
      api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "open" } }),
      api("PUT", `/api/tickets/${t.id}`, { token: w.agents[1].token, body: { status: "open" } }),
    ]);
    expect(await greetings(t.id)).toHaveLength(1);
  });

  it("is not sent by another company's accept", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: w.other.admin.token, body: { status: "open" } })).status).toBe(404);
    expect(await greetings(t.id)).toHaveLength(0);
    expect((await getTicketItem(w.cid, t.id))?.status).toBe("pending");
  });
});

describe("resolve with userRating", { timeout: 180_000 }, () => {
  it("keeps the ticket open and listed as awaiting a rating, tells the agents' sockets, and closing it from the list ends the wait", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: w.agents[0].id });
    const sock = await registerSocket(w.cid, { id: w.agents[1].id, profile: "user", queueIds: [w.queues[0]] });
    w.capture.clear();
    const res = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "closed" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "open", userId: w.agents[0].id, ratingAt: expect.any(String) });
    const listed = await api("GET", "/api/tickets?status=open&showAll=true", { token: w.admin.token });
    expect(listed.body.tickets.find((x: any) => x.id === t.id)).toMatchObject({ ratingAt: res.body.ratingAt });
    const frames = w.capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${w.cid}-ticket`);
    expect(frames.some((f) => f.data.action === "update" && f.data.ticket.id === t.id && f.data.ticket.ratingAt === res.body.ratingAt)).toBe(true);
    expect((await listMessages(w.cid, t.id)).messages.map((m) => m.body)).toEqual([expect.stringContaining("Digite de 1 à 3")]);
    expect(await getTimer(w.cid, "ratingWait", t.id)).toMatchObject({ data: { ratingAt: res.body.ratingAt } });

    const closed = await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[0].token, body: { status: "closed", justClose: true } });
    expect(closed.body).toMatchObject({ status: "closed", ratingAt: null });
    // The wait fires later and changes nothing: no completion message, still closed.
    await tick({ time: new Date(Date.now() + 2 * 1440 * 60_000).toISOString() });
    expect((await listMessages(w.cid, t.id)).messages).toHaveLength(1);
    expect((await getTicketItem(w.cid, t.id))?.status).toBe("closed");
  });

  it("does not ask a pending ticket without an attendant, nor a group, for a rating: they close with the completion message", async () => {
    const pending = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0] });
    const res = await api("PUT", `/api/tickets/${pending.id}`, { token: w.agents[0].token, body: { status: "closed" } });
    expect(res.body).toMatchObject({ status: "closed", ratingAt: null });
    expect((await listMessages(w.cid, pending.id)).messages.map((m) => m.body)).toEqual(["Até logo!"]);
    const group = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: w.agents[0].id, isGroup: true });
    expect((await api("PUT", `/api/tickets/${group.id}`, { token: w.agents[0].token, body: { status: "closed" } })).body).toMatchObject({ status: "closed", ratingAt: null });
    expect((await listMessages(w.cid, group.id)).messages).toHaveLength(0);
  });

  it("cannot be triggered by another company", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: w.agents[0].id });
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: w.other.admin.token, body: { status: "closed" } })).status).toBe(404);
    expect(await getTicketItem(w.cid, t.id)).toMatchObject({ status: "open", ratingAt: null });
    expect((await listMessages(w.cid, t.id)).messages).toHaveLength(0);
  });
});
