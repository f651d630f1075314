/**
 * The company's viewclosed / viewgroups settings in the one access rule (docs/product/tickets.md#who-sees-a-ticket): an agent with
 * viewclosed disabled does not see closed tickets of others, and with viewgroups disabled does not see group tickets —
 * over HTTP (open, list), in the realtime audience, and in the WebSocket chat-box join. Admins and the assignee always do.
 */
import { describe, expect, it } from "vitest";
import { getSocketMember, registerSocket } from "@atende/shared/realtime/connections";
import { publish } from "@atende/shared/realtime/publish";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { makeContact, makeTicket, setSetting } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { handler as wsDefault } from "../ws/default.ts";

const w = companyWorld({ queues: ["Suporte"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Beto" }] });

/** Registers a socket of `user` as `$connect` does (both items) and returns its connection id. */
async function socketOf(user: TestUser, queueIds: number[] = []): Promise<string> {
  const id = `vis-${user.id}-${Math.random().toString(36).slice(2, 8)}`;
  await registerSocket(id, { companyId: w.cid, userId: user.id, profile: user.profile, super: false, queueIds, allTicket: "desabled" });
  return id;
}

const join = async (connectionId: string, ticketId: number) =>
  (await wsDefault({ requestContext: { connectionId, routeKey: "$default", eventType: "MESSAGE" }, body: JSON.stringify({ action: "joinChatBox", ticketId }) })).statusCode;

const framesTo = (sock: string, ticketId: number) =>
  w.capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${w.cid}-ticket` && (f.data.ticket?.id ?? f.data.ticketId) === ticketId);

describe("viewclosed", () => {
  it("hides another agent's closed ticket from an agent of its queue until viewclosed is enabled", async () => {
    await setSetting(w.cid, "viewclosed", "disabled");
    const t = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: w.agents[1].id, contact: await makeContact(w.cid, "Carla") });
    const agentSock = await socketOf(w.agents[0], [w.queues[0]]);
    const adminSock = await socketOf(w.admin);
    const ownerSock = await socketOf(w.agents[1], [w.queues[0]]);
    w.capture.clear();

    // The assignee closes it: the admin and the assignee get the closed ticket, the agent only drops it.
    expect((await api("PUT", `/api/tickets/${t.id}`, { token: w.agents[1].token, body: { status: "closed", justClose: true } })).status).toBe(200);
    expect(framesTo(adminSock, t.id).some((f) => f.data.action === "update" && f.data.ticket.status === "closed")).toBe(true);
    expect(framesTo(ownerSock, t.id).some((f) => f.data.action === "update" && f.data.ticket.status === "closed")).toBe(true);
    expect(framesTo(agentSock, t.id).map((f) => f.data)).toEqual([{ action: "delete", ticketId: t.id }]);

    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.agents[0].token })).status).toBe(403);
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.agents[1].token })).status).toBe(200);
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.admin.token })).status).toBe(200);
    expect(await join(agentSock, t.id)).toBe(403);
    expect(await join(adminSock, t.id)).toBe(200);
    expect((await getSocketMember(w.cid, agentSock))?.rooms).toEqual([]);

    w.capture.clear();
    await publish(w.cid, "ticket", { action: "update", ticket: { id: t.id } }, { kind: "ticket", ticket: { ...t, status: "closed", userId: w.agents[1].id } });
    expect(framesTo(agentSock, t.id)).toEqual([]);
    expect(framesTo(adminSock, t.id)).toHaveLength(1);

    await setSetting(w.cid, "viewclosed", "enabled");
    expect((await api("GET", `/api/tickets/${t.id}`, { token: w.agents[0].token })).status).toBe(200);
    expect(await join(agentSock, t.id)).toBe(200);
    w.capture.clear();
    await publish(w.cid, "ticket", { action: "update", ticket: { id: t.id } }, { kind: "ticket", ticket: { ...t, status: "closed", userId: w.agents[1].id } });
    expect(framesTo(agentSock, t.id)).toHaveLength(1);
    await setSetting(w.cid, "viewclosed", "disabled");
  });
});

describe("viewgroups", () => {
  it("hides a group ticket of the agent's queue from lists, opening, frames and the chat-box join until viewgroups is enabled", async () => {
    await setSetting(w.cid, "viewgroups", "disabled");
    const group = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], isGroup: true, contact: await makeContact(w.cid, "Grupo Vendas") });
    const single = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], contact: await makeContact(w.cid, "Dora") });
    const agentSock = await socketOf(w.agents[0], [w.queues[0]]);
    const adminSock = await socketOf(w.admin);

    const pendingOf = async (token: string) => (await api("GET", "/api/tickets?status=pending", { token })).body.tickets.map((x: { id: number }) => x.id);
    expect(await pendingOf(w.agents[0].token)).toContain(single.id);
    expect(await pendingOf(w.agents[0].token)).not.toContain(group.id);
    expect(await pendingOf(w.admin.token)).toContain(group.id);
    expect((await api("GET", `/api/tickets/${group.id}`, { token: w.agents[0].token })).status).toBe(403);
    expect(await join(agentSock, group.id)).toBe(403);
    expect(await join(adminSock, group.id)).toBe(200);

    w.capture.clear();
    await publish(w.cid, "ticket", { action: "update", ticket: { id: group.id } }, { kind: "ticket", ticket: group });
    expect(framesTo(agentSock, group.id)).toEqual([]);
    expect(framesTo(adminSock, group.id)).toHaveLength(1);

    await setSetting(w.cid, "viewgroups", "enabled");
    expect(await pendingOf(w.agents[0].token)).toContain(group.id);
    expect((await api("GET", `/api/tickets/${group.id}`, { token: w.agents[0].token })).status).toBe(200);
    expect(await join(agentSock, group.id)).toBe(200);
    w.capture.clear();
    await publish(w.cid, "ticket", { action: "update", ticket: { id: group.id } }, { kind: "ticket", ticket: group });
    expect(framesTo(agentSock, group.id)).toHaveLength(1);
    await setSetting(w.cid, "viewgroups", "disabled");
  });
});
