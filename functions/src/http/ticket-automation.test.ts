/**
 * Issue 9 §4 through the HTTP handlers: the accept greeting is sent once however the PUT is repeated or raced; a
 * resolve with `userRating` keeps the ticket listed as awaiting a rating (realtime carries `ratingAt`); closing it
 * from the list ends the wait; another company can trigger none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, makeCompany, makeUser, type TestUser } from "../../../test/helpers.ts";
import { listMessages } from "../../../shared/src/messages/repository.ts";
import { getTicketItem } from "../../../shared/src/tickets/repository.ts";
import { getTimer } from "../../../shared/src/timers/index.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp, setSetting } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { registerSocket, startRealtimeCapture } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { handler as tick } from "../jobs/tick.ts";

let cid: number;
let admin: TestUser;
let ana: TestUser;
let beto: TestUser;
let other: { companyId: number; admin: TestUser };
let q1: number;
let wa: number;
let capture: Awaited<ReturnType<typeof startRealtimeCapture>>;

beforeAll(async () => {
  capture = await startRealtimeCapture();
  const c = await makeCompany();
  cid = c.companyId;
  admin = c.admin;
  q1 = (await makeQueue(cid, { name: "Suporte" })).id;
  wa = (await makeWhatsapp(cid, { complationMessage: "Até logo!" })).id;
  ana = await makeUser(cid, { queueIds: [q1], name: "Ana Agente" });
  beto = await makeUser(cid, { queueIds: [q1], name: "Beto" });
  other = await makeCompany();
  await setSetting(cid, "sendGreetingAccepted", "enabled");
  await setSetting(cid, "userRating", "enabled");
});
afterAll(async () => capture.stop());

const greetings = async (ticketId: number) => (await listMessages(cid, ticketId)).messages.filter((m) => m.body.includes("meu nome é"));

describe("accept greeting", { timeout: 180_000 }, () => {
  it("is sent once when the same accept arrives twice at once", async () => {
    const t = await makeTicket(cid, { whatsappId: wa, queueId: q1, contact: await makeContact(cid, "Clara") });
    const both = await Promise.all([
      api("PUT", `/api/tickets/${t.id}`, { token: ana.token, body: { status: "open", userId: ana.id } }),
      api("PUT", `/api/tickets/${t.id}`, { token: ana.token, body: { status: "open", userId: ana.id } }),
    ]);
    expect(both.some((r) => r.status === 200)).toBe(true);
    await api("PUT", `/api/tickets/${t.id}`, { token: ana.token, body: { status: "open", userId: ana.id } });
    const sent = await greetings(t.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ isAutomatic: true, userId: null, fromMe: true });
    expect(sent[0].body).toContain("*Ana Agente*");
  });

  it("is sent once when two agents accept the same ticket at once", async () => {
    const t = await makeTicket(cid, { whatsappId: wa, queueId: q1 });
    await Promise.all([
      api("PUT", `/api/tickets/${t.id}`, { token: ana.token, body: { status: "open" } }),
      api("PUT", `/api/tickets/${t.id}`, { token: beto.token, body: { status: "open" } }),
    ]);
    expect(await greetings(t.id)).toHaveLength(1);
  });

  it("is not sent by another company's accept", async () => {
    const t = await makeTicket(cid, { whatsappId: wa, queueId: q1 });
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: other.admin.token, body: { status: "open" } })).status).toBe(404);
    expect(await greetings(t.id)).toHaveLength(0);
    expect((await getTicketItem(cid, t.id))?.status).toBe("pending");
  });
});

describe("resolve with userRating", { timeout: 180_000 }, () => {
  it("keeps the ticket open and listed as awaiting a rating, tells the agents' sockets, and closing it from the list ends the wait", async () => {
    const t = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: ana.id });
    const sock = await registerSocket(cid, { id: beto.id, profile: "user", queueIds: [q1] });
    capture.clear();
    const res = await api("PUT", `/api/tickets/${t.id}`, { token: ana.token, body: { status: "closed" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "open", userId: ana.id, ratingAt: expect.any(String) });
    const listed = await api("GET", "/api/tickets?status=open&showAll=true", { token: admin.token });
    expect(listed.body.tickets.find((x: any) => x.id === t.id)).toMatchObject({ ratingAt: res.body.ratingAt });
    const frames = capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${cid}-ticket`);
    expect(frames.some((f) => f.data.action === "update" && f.data.ticket.id === t.id && f.data.ticket.ratingAt === res.body.ratingAt)).toBe(true);
    expect((await listMessages(cid, t.id)).messages.map((m) => m.body)).toEqual([expect.stringContaining("Digite de 1 à 3")]);
    expect(await getTimer(cid, "ratingWait", t.id)).toMatchObject({ data: { ratingAt: res.body.ratingAt } });

    const closed = await api("PUT", `/api/tickets/${t.id}`, { token: ana.token, body: { status: "closed", justClose: true } });
    expect(closed.body).toMatchObject({ status: "closed", ratingAt: null });
    // The wait fires later and changes nothing: no completion message, still closed.
    await tick({ time: new Date(Date.now() + 2 * 1440 * 60_000).toISOString() });
    expect((await listMessages(cid, t.id)).messages).toHaveLength(1);
    expect((await getTicketItem(cid, t.id))?.status).toBe("closed");
  });

  it("does not ask a pending ticket without an attendant, nor a group, for a rating: they close with the completion message", async () => {
    const pending = await makeTicket(cid, { whatsappId: wa, queueId: q1 });
    const res = await api("PUT", `/api/tickets/${pending.id}`, { token: ana.token, body: { status: "closed" } });
    expect(res.body).toMatchObject({ status: "closed", ratingAt: null });
    expect((await listMessages(cid, pending.id)).messages.map((m) => m.body)).toEqual(["Até logo!"]);
    const group = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: ana.id, isGroup: true });
    expect((await api("PUT", `/api/tickets/${group.id}`, { token: ana.token, body: { status: "closed" } })).body).toMatchObject({ status: "closed", ratingAt: null });
    expect((await listMessages(cid, group.id)).messages).toHaveLength(0);
  });

  it("cannot be triggered by another company", async () => {
    const t = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: ana.id });
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: other.admin.token, body: { status: "closed" } })).status).toBe(404);
    expect(await getTicketItem(cid, t.id)).toMatchObject({ status: "open", ratingAt: null });
    expect((await listMessages(cid, t.id)).messages).toHaveLength(0);
  });
});
