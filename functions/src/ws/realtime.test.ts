/**
 * Realtime, server side, end to end over the local stack: real `ws` clients on `/ws?ticket=` (a ticket from
 * `POST /api/auth/ws-ticket`; never the access token in the URL), the
 * `$connect/$default/$disconnect` handlers, `publish` posting through the `@connections` emulator.
 */
import { PutCommand, GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SignJWT } from "jose";
import WebSocket from "ws";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { getSocket, getSocketMember, registerSocket } from "@atende/shared/realtime/connections";
import { publish } from "@atende/shared/realtime/publish";
import { patchUser } from "@atende/shared/users/repository";
import { startLocalStack, type LocalStack } from "../../../infra/local/src/stack.ts";
import { makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { handler as defaultHandler } from "./default.ts";

const world = companyWorld({ capture: false });

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB });
});
afterAll(async () => {
  await stack?.stop();
});

interface Client {
  ws: WebSocket;
  frames: unknown[];
  /** The `company-{id}-user` frames (every connect and last disconnect updates a user's online flag), kept apart. */
  userFrames: unknown[];
  /** Resolves with the next frame not yet consumed (user frames aside). */
  next(): Promise<any>;
  close(): Promise<void>;
}

/** A single-use socket ticket for `token` (`POST /api/auth/ws-ticket`); rejects with the endpoint's status. */
async function ticketFor(token: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${stack.port}/api/auth/ws-ticket`, { method: "POST", headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (res.status !== 200) throw Object.assign(new Error(`ticket refused ${res.status}`), { statusCode: res.status });
  return (await res.json()).ticket;
}

/** Opens a socket for `token` (through a ticket); resolves once the server accepted it. */
async function connect(token: string): Promise<Client> {
  return openWith(`ticket=${encodeURIComponent(await ticketFor(token))}`);
}

/** Opens a socket with the raw query `query`; resolves once the server accepted it. */
function openWith(query: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${stack.port}/ws?${query}`);
    const frames: unknown[] = [];
    const userFrames: unknown[] = [];
    let waiters: ((f: unknown) => void)[] = [];
    let read = 0;
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as { event?: unknown };
      if (typeof frame.event === "string" && /^company-\d+-user$/.test(frame.event)) userFrames.push(frame);
      else frames.push(frame);
      const w = waiters;
      waiters = [];
      for (const f of w) f(undefined);
    });
    const client: Client = {
      ws,
      frames,
      userFrames,
      async next() {
        while (read >= frames.length) await new Promise((r) => waiters.push(r));
        return frames[read++];
      },
      close: () =>
        new Promise((r) => {
          if (ws.readyState === WebSocket.CLOSED) return r();
          ws.once("close", () => r());
          ws.close();
        }),
    };
    ws.once("open", () => resolve(client));
    ws.once("unexpected-response", (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { statusCode: res.statusCode })));
    ws.once("error", reject);
  });
}

async function connectionIdOf(companyId: number, userId: number): Promise<string[]> {
  const { userSockets } = await import("@atende/shared/realtime/connections");
  return (await userSockets(companyId, userId)).map((m) => m.connectionId);
}

async function userOnline(companyId: number, userId: number): Promise<boolean> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId) }));
  return out.Item?.online === true;
}

describe("realtime over /ws", () => {
  it("delivers a company event to that company's admin and never to another company's socket", async () => {
    const a = await world.fresh();
    const b = await world.fresh();
    const aSock = await connect(a.admin.token);
    const bSock = await connect(b.admin.token);

    await publish(a.cid, "ticket", { action: "update", ticketId: 7 });
    await publish(b.cid, "ticket", { action: "update", ticketId: 8 });

    expect(await aSock.next()).toEqual({ event: `company-${a.cid}-ticket`, data: { action: "update", ticketId: 7 } });
    // B's first frame is B's own event: A's event never reached it.
    expect(await bSock.next()).toEqual({ event: `company-${b.cid}-ticket`, data: { action: "update", ticketId: 8 } });
    expect(bSock.frames).toHaveLength(1);
    await Promise.all([aSock.close(), bSock.close()]);
  });

  it("sends a queue-scoped event to admins and that queue's users, not to a user of another queue", async () => {
    const a = await world.fresh();
    const q1User = await makeUser(a.cid, { queueIds: [1] });
    const q2User = await makeUser(a.cid, { queueIds: [2] });
    const admin = await connect(a.admin.token);
    const s1 = await connect(q1User.token);
    const s2 = await connect(q2User.token);

    await publish(a.cid, "ticket", { queue: 2 }, { kind: "queue", queueId: 2 });
    await publish(a.cid, "ticket", { queue: 1 }, { kind: "queue", queueId: 1 });

    expect((await admin.next()).data).toEqual({ queue: 2 });
    expect((await admin.next()).data).toEqual({ queue: 1 });
    expect((await s2.next()).data).toEqual({ queue: 2 });
    expect((await s1.next()).data).toEqual({ queue: 1 });
    expect(s1.frames).toHaveLength(1);
    await Promise.all([admin.close(), s1.close(), s2.close()]);
  });

  it("refuses the handshake with 401 when the token is bad or missing", async () => {
    await expect(connect("not-a-token")).rejects.toMatchObject({ statusCode: 401 });
    await expect(connect("")).rejects.toMatchObject({ statusCode: 401 });
    await expect(openWith("ticket=not-a-ticket")).rejects.toMatchObject({ statusCode: 401 });
    await expect(openWith("")).rejects.toMatchObject({ statusCode: 401 });
  });

  it("refuses a valid access token in the URL (?token=): only a ticket opens a socket", async () => {
    const a = await world.fresh();
    await expect(openWith(`token=${encodeURIComponent(a.admin.token)}`)).rejects.toMatchObject({ statusCode: 401 });
    expect(await connectionIdOf(a.cid, a.admin.id)).toEqual([]);
    const ok = await connect(a.admin.token);
    expect(await connectionIdOf(a.cid, a.admin.id)).toHaveLength(1);
    await ok.close();
  });

  it("refuses the handshake with 403 when the access token has expired", async () => {
    const a = await world.fresh();
    const expired = await new SignJWT({ cid: a.cid, tv: 0, profile: "admin", typ: "access" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(a.admin.id))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(process.env.JWT_SECRET));
    await expect(connect(expired)).rejects.toMatchObject({ statusCode: 403 });
    expect(await connectionIdOf(a.cid, a.admin.id)).toEqual([]);
  });

  it("removes a stale registration when @connections answers 410", async () => {
    const a = await world.fresh();
    await registerSocket("stale-connection", { companyId: a.cid, userId: a.admin.id, profile: "admin", super: false, queueIds: [], allTicket: "desabled" });
    expect(await getSocket("stale-connection")).toBeDefined();

    const res = await fetch(`http://127.0.0.1:${stack.port}/@ws/@connections/stale-connection`, { method: "POST", body: "{}" });
    expect(res.status).toBe(410);

    await publish(a.cid, "ticket", { action: "update" });
    expect(await getSocket("stale-connection")).toBeUndefined();
    expect(await getSocketMember(a.cid, "stale-connection")).toBeUndefined();
  });

  it("shows a user Online as soon as a socket opens (no ping needed) and tells the admin's Users page live", async () => {
    const a = await world.fresh();
    const u = await makeUser(a.cid);
    const adminTab = await connect(a.admin.token);
    await vi.waitFor(async () => expect(await userOnline(a.cid, a.admin.id)).toBe(true), { timeout: 10000 });
    expect(await userOnline(a.cid, u.id)).toBe(false);

    const agentTab = await connect(u.token);
    await vi.waitFor(async () => expect(await userOnline(a.cid, u.id)).toBe(true), { timeout: 10000 });
    await vi.waitFor(
      () =>
        expect(adminTab.userFrames).toContainEqual({
          event: `company-${a.cid}-user`,
          data: expect.objectContaining({ action: "update", user: expect.objectContaining({ id: u.id, online: true }) }),
        }),
      { timeout: 10000 },
    );

    await agentTab.close();
    await vi.waitFor(
      () =>
        expect(adminTab.userFrames).toContainEqual({
          event: `company-${a.cid}-user`,
          data: expect.objectContaining({ action: "update", user: expect.objectContaining({ id: u.id, online: false }) }),
        }),
      { timeout: 10000 },
    );
    expect(await userOnline(a.cid, u.id)).toBe(false);
    await adminTab.close();
  });

  it("sets the user online on userStatus and offline only when the user's last socket closes", async () => {
    const a = await world.fresh();
    const u = await makeUser(a.cid);
    const first = await connect(u.token);
    const second = await connect(u.token);
    await vi.waitFor(async () => expect(await userOnline(a.cid, u.id)).toBe(true), { timeout: 10000 });
    // Flag cleared behind the sockets' back (as the minute tick may do): the 5-minute ping sets it again.
    await patchUser(a.cid, u.id, { online: false });
    first.ws.send(JSON.stringify({ action: "userStatus" }));
    await vi.waitFor(async () => expect(await userOnline(a.cid, u.id)).toBe(true), { timeout: 10000 });

    const [id1, id2] = await connectionIdOf(a.cid, u.id);
    expect(id1 && id2).toBeTruthy();
    await first.close();
    await vi.waitFor(async () => expect(await connectionIdOf(a.cid, u.id)).toHaveLength(1), { timeout: 10000 });
    expect(await userOnline(a.cid, u.id)).toBe(true);

    await second.close();
    await vi.waitFor(async () => expect(await userOnline(a.cid, u.id)).toBe(false), { timeout: 10000 });
    expect(await connectionIdOf(a.cid, u.id)).toEqual([]);
  });

  it("narrows an event published to a chat-box room to the sockets that joined it", async () => {
    const a = await world.fresh();
    const now = new Date().toISOString();
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.ticket(a.cid, 77), id: 77, uuid: "u-77", companyId: a.cid, status: "open", contactId: 1, whatsappId: 1, queueId: null, userId: null, createdAt: now, updatedAt: now },
      }),
    );
    const joined = await connect(a.admin.token);
    const [joinedId] = await connectionIdOf(a.cid, a.admin.id);
    const other = await connect(a.admin.token);
    joined.ws.send(JSON.stringify({ action: "joinChatBox", ticketId: 77 }));
    await vi.waitFor(async () => expect((await getSocketMember(a.cid, joinedId))?.rooms).toEqual(["ticket:77"]), { timeout: 10000 });

    await publish(a.cid, "appMessage", { n: 1 }, { kind: "company" }, "ticket:77");
    await publish(a.cid, "appMessage", { n: 2 }, { kind: "company" });

    expect((await joined.next()).data).toEqual({ n: 1 });
    expect((await joined.next()).data).toEqual({ n: 2 });
    expect((await other.next()).data).toEqual({ n: 2 });
    expect(other.frames).toHaveLength(1);
    await Promise.all([joined.close(), other.close()]);
  });

  it("answers a malformed frame with ERR_VALIDATION and keeps the socket's rooms", async () => {
    const a = await world.fresh();
    const s = await connect(a.admin.token);
    s.ws.send("{not json");
    expect(await s.next()).toEqual({ error: "ERR_VALIDATION" });
    s.ws.send(JSON.stringify({ action: "joinTickets", status: "everything" }));
    expect(await s.next()).toEqual({ error: "ERR_VALIDATION" });
    const [id] = await connectionIdOf(a.cid, a.admin.id);
    expect((await getSocketMember(a.cid, id))?.rooms).toEqual([]);
    await s.close();
  });
});

describe("$default joins", () => {
  const frame = (connectionId: string, body: unknown) =>
    defaultHandler({ requestContext: { connectionId, routeKey: "$default", eventType: "MESSAGE" }, body: JSON.stringify(body) });

  async function ticket(companyId: number, id: number, queueId: number | null) {
    const now = new Date().toISOString();
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.ticket(companyId, id), id, uuid: `uuid-${id}`, companyId, status: "open", contactId: 1, whatsappId: 1, queueId, userId: null, createdAt: now, updatedAt: now },
      }),
    );
  }

  it("lets a user join the chat box of a ticket in their queue and refuses one of another queue or company", async () => {
    const a = await world.fresh();
    const b = await world.fresh();
    await ticket(a.cid, 501, 1);
    await ticket(a.cid, 502, 2);
    await ticket(b.cid, 503, 1);
    const u = await makeUser(a.cid, { queueIds: [1] });
    await registerSocket("u-conn", { companyId: a.cid, userId: u.id, profile: "user", super: false, queueIds: [1], allTicket: "desabled" });

    expect((await frame("u-conn", { action: "joinChatBox", ticketId: 501 })).statusCode).toBe(200);
    expect((await frame("u-conn", { action: "joinChatBox", ticketId: 502 })).statusCode).toBe(403);
    expect((await frame("u-conn", { action: "joinChatBox", ticketId: 503 })).statusCode).toBe(403);
    expect((await getSocketMember(a.cid, "u-conn"))?.rooms).toEqual(["ticket:501"]);

    await frame("u-conn", { action: "leaveChatBox", ticketId: 501 });
    await frame("u-conn", { action: "joinTickets", status: "open" });
    await frame("u-conn", { action: "joinNotification" });
    expect((await getSocketMember(a.cid, "u-conn"))?.rooms).toEqual(["tickets:open", "notification"]);
  });

  it("lets an admin join any ticket of the company and an allTicket user join a ticket without queue", async () => {
    const a = await world.fresh();
    await ticket(a.cid, 601, 9);
    await ticket(a.cid, 602, null);
    await registerSocket("admin-conn", { companyId: a.cid, userId: a.admin.id, profile: "admin", super: false, queueIds: [], allTicket: "desabled" });
    await registerSocket("all-conn", { companyId: a.cid, userId: 99, profile: "user", super: false, queueIds: [], allTicket: "enabled" });
    await registerSocket("none-conn", { companyId: a.cid, userId: 98, profile: "user", super: false, queueIds: [], allTicket: "desabled" });

    expect((await frame("admin-conn", { action: "joinChatBox", ticketId: 601 })).statusCode).toBe(200);
    expect((await frame("all-conn", { action: "joinChatBox", ticketId: 602 })).statusCode).toBe(200);
    expect((await frame("none-conn", { action: "joinChatBox", ticketId: 602 })).statusCode).toBe(403);
    expect((await getSocketMember(a.cid, "none-conn"))?.rooms).toEqual([]);
  });
});
