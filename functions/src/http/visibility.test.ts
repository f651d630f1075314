/**
 * The company's viewclosed / viewgroups settings in the one access rule (attendance.md §6; issue 7 §2): an agent with
 * viewclosed disabled does not see closed tickets of others, and with viewgroups disabled does not see group tickets —
 * over HTTP (open, list), in the realtime audience, and in the WebSocket chat-box join. Admins and the assignee always do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSocketMember, registerSocket } from "@atende/shared/realtime/connections";
import { publish } from "@atende/shared/realtime/publish";
import { api, makeCompany, makeUser, type TestUser } from "../../../test/helpers.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp, setSetting } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { startRealtimeCapture } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { handler as wsDefault } from "../ws/default.ts";

let cid: number;
let admin: TestUser;
let agent: TestUser;
let colleague: TestUser;
let q1: number;
let wa: number;
let capture: Awaited<ReturnType<typeof startRealtimeCapture>>;

beforeAll(async () => {
  capture = await startRealtimeCapture();
  const c = await makeCompany();
  cid = c.companyId;
  admin = c.admin;
  q1 = (await makeQueue(cid, { name: "Suporte" })).id;
  wa = (await makeWhatsapp(cid)).id;
  agent = await makeUser(cid, { queueIds: [q1], name: "Ana" });
  colleague = await makeUser(cid, { queueIds: [q1], name: "Beto" });
});
afterAll(async () => capture.stop());

/** Registers a socket of `user` as `$connect` does (both items) and returns its connection id. */
async function socketOf(user: TestUser, queueIds: number[] = []): Promise<string> {
  const id = `vis-${user.id}-${Math.random().toString(36).slice(2, 8)}`;
  await registerSocket(id, { companyId: cid, userId: user.id, profile: user.profile, super: false, queueIds, allTicket: "desabled" });
  return id;
}

const join = async (connectionId: string, ticketId: number) =>
  (await wsDefault({ requestContext: { connectionId, routeKey: "$default", eventType: "MESSAGE" }, body: JSON.stringify({ action: "joinChatBox", ticketId }) })).statusCode;

const framesTo = (sock: string, ticketId: number) =>
  capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${cid}-ticket` && (f.data.ticket?.id ?? f.data.ticketId) === ticketId);

describe("viewclosed", () => {
  it("hides another agent's closed ticket from an agent of its queue until viewclosed is enabled", async () => {
    await setSetting(cid, "viewclosed", "disabled");
    const t = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: colleague.id, contact: await makeContact(cid, "Carla") });
    const agentSock = await socketOf(agent, [q1]);
    const adminSock = await socketOf(admin);
    const ownerSock = await socketOf(colleague, [q1]);
    capture.clear();

    // The assignee closes it: the admin and the assignee get the closed ticket, the agent only drops it.
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: colleague.token, body: { status: "closed", justClose: true } })).status).toBe(200);
    expect(framesTo(adminSock, t.id).some((f) => f.data.action === "update" && f.data.ticket.status === "closed")).toBe(true);
    expect(framesTo(ownerSock, t.id).some((f) => f.data.action === "update" && f.data.ticket.status === "closed")).toBe(true);
    expect(framesTo(agentSock, t.id).map((f) => f.data)).toEqual([{ action: "delete", ticketId: t.id }]);

    expect((await api("GET", `/api/tickets/${t.id}`, { token: agent.token })).status).toBe(403);
    expect((await api("GET", `/api/tickets/${t.id}`, { token: colleague.token })).status).toBe(200);
    expect((await api("GET", `/api/tickets/${t.id}`, { token: admin.token })).status).toBe(200);
    expect(await join(agentSock, t.id)).toBe(403);
    expect(await join(adminSock, t.id)).toBe(200);
    expect((await getSocketMember(cid, agentSock))?.rooms).toEqual([]);

    capture.clear();
    await publish(cid, "ticket", { action: "update", ticket: { id: t.id } }, { kind: "ticket", ticket: { ...t, status: "closed", userId: colleague.id } });
    expect(framesTo(agentSock, t.id)).toEqual([]);
    expect(framesTo(adminSock, t.id)).toHaveLength(1);

    await setSetting(cid, "viewclosed", "enabled");
    expect((await api("GET", `/api/tickets/${t.id}`, { token: agent.token })).status).toBe(200);
    expect(await join(agentSock, t.id)).toBe(200);
    capture.clear();
    await publish(cid, "ticket", { action: "update", ticket: { id: t.id } }, { kind: "ticket", ticket: { ...t, status: "closed", userId: colleague.id } });
    expect(framesTo(agentSock, t.id)).toHaveLength(1);
    await setSetting(cid, "viewclosed", "disabled");
  });
});

describe("viewgroups", () => {
  it("hides a group ticket of the agent's queue from lists, opening, frames and the chat-box join until viewgroups is enabled", async () => {
    await setSetting(cid, "viewgroups", "disabled");
    const group = await makeTicket(cid, { whatsappId: wa, queueId: q1, isGroup: true, contact: await makeContact(cid, "Grupo Vendas") });
    const single = await makeTicket(cid, { whatsappId: wa, queueId: q1, contact: await makeContact(cid, "Dora") });
    const agentSock = await socketOf(agent, [q1]);
    const adminSock = await socketOf(admin);

    const pendingOf = async (token: string) => (await api("GET", "/api/tickets?status=pending", { token })).body.tickets.map((x: { id: number }) => x.id);
    expect(await pendingOf(agent.token)).toContain(single.id);
    expect(await pendingOf(agent.token)).not.toContain(group.id);
    expect(await pendingOf(admin.token)).toContain(group.id);
    expect((await api("GET", `/api/tickets/${group.id}`, { token: agent.token })).status).toBe(403);
    expect(await join(agentSock, group.id)).toBe(403);
    expect(await join(adminSock, group.id)).toBe(200);

    capture.clear();
    await publish(cid, "ticket", { action: "update", ticket: { id: group.id } }, { kind: "ticket", ticket: group });
    expect(framesTo(agentSock, group.id)).toEqual([]);
    expect(framesTo(adminSock, group.id)).toHaveLength(1);

    await setSetting(cid, "viewgroups", "enabled");
    expect(await pendingOf(agent.token)).toContain(group.id);
    expect((await api("GET", `/api/tickets/${group.id}`, { token: agent.token })).status).toBe(200);
    expect(await join(agentSock, group.id)).toBe(200);
    capture.clear();
    await publish(cid, "ticket", { action: "update", ticket: { id: group.id } }, { kind: "ticket", ticket: group });
    expect(framesTo(agentSock, group.id)).toHaveLength(1);
    await setSetting(cid, "viewgroups", "disabled");
  });
});
