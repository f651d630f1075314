/**
 * Ids at the edge: a path param, a body id or a query id is a string of digits or a JSON integer, nothing else.
 * `"0x1"`, `"1e0"`, `" 1"` or `true` once became id 1 (`DELETE /api/queue/0x1` deleted queue 1); now each is 400
 * `ERR_VALIDATION` and nothing changes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { ClientFrame } from "../ws/default.ts";

const FORGED = ["0x1", "1e0", " 1", "1 ", "+1", "1.0"];
const w = companyWorld({ queues: ["Fila 1"], ticket: true });
let admin: TestUser;
let queueId: number;
let ticketId: number;
let contactId: number;

beforeAll(() => {
  admin = w.admin;
  [queueId] = w.queues;
  expect(queueId).toBe(1);
  contactId = w.contact.id;
  ticketId = w.ticket.id;
});

const refused = (r: { status: number; body: any }) => {
  expect(r.status).toBe(400);
  expect(r.body.error).toBe("ERR_VALIDATION");
};

describe("ids are digit strings or integers", () => {
  it("refuses forged path ids and deletes nothing (DELETE /api/queue/0x1 no longer deletes queue 1)", async () => {
    for (const id of FORGED) {
      refused(await api("DELETE", `/api/queue/${encodeURIComponent(id)}`, { token: admin.token }));
      refused(await api("GET", `/api/queue/${encodeURIComponent(id)}`, { token: admin.token }));
      refused(await api("PUT", `/api/users/${encodeURIComponent(id)}`, { token: admin.token, body: { name: "Outro" } }));
      refused(await api("DELETE", `/api/ticket-tags/${encodeURIComponent(id)}`, { token: admin.token }));
    }
    expect((await api("GET", `/api/queue/${queueId}`, { token: admin.token })).status).toBe(200);
    expect((await api("GET", "/api/users/1", { token: admin.token })).body.name).toBe("Admin");
  });

  it("refuses forged ids in bodies and queries, booleans included", async () => {
    for (const id of [...FORGED, true]) {
      refused(await api("POST", "/api/message/forward", { token: admin.token, body: { messageId: "x", contactId: id } }));
      refused(await api("PUT", `/api/tickets/${ticketId}`, { token: admin.token, body: { queueId: id } }));
      refused(await api("POST", "/api/tags/sync", { token: admin.token, body: { ticketId: id, tags: [] } }));
      refused(await api("GET", `/api/ticket-notes/list?ticketId=${encodeURIComponent(String(id))}`, { token: admin.token }));
      refused(await api("GET", `/api/tickets?queueIds=${encodeURIComponent(JSON.stringify([id]))}`, { token: admin.token }));
      refused(await api("GET", `/api/queue-options?queueId=${queueId}&parentId=${encodeURIComponent(String(id))}`, { token: admin.token }));
      expect(ClientFrame.safeParse({ action: "joinChatBox", ticketId: id }).success).toBe(false);
    }
    const ticket = await api("GET", `/api/tickets/${ticketId}`, { token: admin.token });
    expect(ticket.body.queueId).toBeNull();
  });

  it("takes digit strings and integers as before", async () => {
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${ticketId}&contactId=${contactId}`, { token: admin.token })).status).toBe(200);
    expect((await api("PUT", `/api/tickets/${ticketId}`, { token: admin.token, body: { queueId: String(queueId) } })).body.queueId).toBe(queueId);
    expect((await api("GET", `/api/tickets?status=open&queueIds=${encodeURIComponent(JSON.stringify([queueId]))}`, { token: admin.token })).status).toBe(200);
    expect((await api("GET", `/api/queue-options?queueId=${queueId}&parentId=-1`, { token: admin.token })).status).toBe(200);
    expect(ClientFrame.parse({ action: "joinChatBox", ticketId: "7" })).toEqual({ action: "joinChatBox", ticketId: 7 });
    expect(ClientFrame.parse({ action: "joinChatBox", ticketId: 7 })).toEqual({ action: "joinChatBox", ticketId: 7 });
  });
});
