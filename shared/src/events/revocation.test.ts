/**
 * Access revoked means revoked on open sockets too. A socket registered at `$connect` follows its
 * user's later changes (queues, profile, deletion, logout, refresh-token reuse) at once, through the real services and
 * the real `publish` path; and a credential setting's update reaches admins only.
 */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it, vi } from "vitest";
import { makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { authenticate } from "../auth/tokens.ts";
import { logout } from "../auth/service.ts";
import { getSocketMember, registerSocket } from "../realtime/connections.ts";
import { publish, SOCKET_LISTING_TTL_MS } from "../realtime/publish.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { updateSetting } from "../settings/service.ts";
import { makeQueue } from "../tickets/fixtures.testkit.ts";
import { deleteUser, updateUser } from "../users/service.ts";

const w = companyWorld();

/** Registers a socket as `$connect` does, from the user's verified token. */
async function connectAs(token: string, id: string): Promise<string> {
  const a = await authenticate(token);
  await registerSocket(id, { companyId: a.companyId, userId: a.userId, profile: a.profile, super: a.super, queueIds: a.queueIds, allTicket: a.allTicket, tokenVersion: a.tokenVersion });
  return id;
}

const queueTicket = (queueId: number) => ({ kind: "ticket" as const, ticket: { queueId, userId: null } });
const framesTo = (conn: string, event: string) => w.capture.frames.filter((f) => f.connectionId === conn && f.event === event);

describe("open sockets follow access changes", () => {
  it("stops a queue's frames the moment the user leaves the queue", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const [q1, q2] = [await makeQueue(companyId), await makeQueue(companyId)];
    const agent = await makeUser(companyId, { queueIds: [q1.id, q2.id] });
    const sock = await connectAs(agent.token, `rv-q-${companyId}`);
    await publish(companyId, "ticket", { n: 1 }, queueTicket(q1.id));
    expect(framesTo(sock, `company-${companyId}-ticket`)).toHaveLength(1);

    await updateUser(await authenticate(admin.token), agent.id, { queueIds: [q2.id] });
    await publish(companyId, "ticket", { n: 2 }, queueTicket(q1.id));
    await publish(companyId, "ticket", { n: 3 }, queueTicket(q2.id));
    expect(framesTo(sock, `company-${companyId}-ticket`).map((f) => f.data.n)).toEqual([1, 3]);
    expect((await getSocketMember(companyId, sock))?.queueIds).toEqual([q2.id]);
  });

  it("stops everything an admin saw once demoted to user", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const boss = await makeUser(companyId, { profile: "admin" });
    const sock = await connectAs(boss.token, `rv-d-${companyId}`);
    await updateUser(await authenticate(admin.token), boss.id, { profile: "user" });
    await publish(companyId, "ticket", { n: 1 }, queueTicket(5));
    await publish(companyId, "whatsapp", { n: 2 }, { kind: "admins" });
    expect(framesTo(sock, `company-${companyId}-ticket`)).toEqual([]);
    expect(framesTo(sock, `company-${companyId}-whatsapp`)).toEqual([]);
  });

  it("closes a deleted user's sockets", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId, { queueIds: [1] });
    const sock = await connectAs(agent.token, `rv-x-${companyId}`);
    await deleteUser(await authenticate(admin.token), agent.id);
    expect(await getSocketMember(companyId, sock)).toBeUndefined();
    await publish(companyId, "ticket", { n: 1 }, { kind: "company" });
    expect(framesTo(sock, `company-${companyId}-ticket`)).toEqual([]);
  });

  it("closes the sockets of a session that logged out, and keeps other users'", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId, { queueIds: [1] });
    const sock = await connectAs(agent.token, `rv-l-${companyId}`);
    const other = await connectAs(admin.token, `rv-l2-${companyId}`);
    await logout(undefined, agent.token);
    expect(await getSocketMember(companyId, sock)).toBeUndefined();
    expect(await getSocketMember(companyId, other)).toBeDefined();
    await publish(companyId, "ticket", { n: 1 }, queueTicket(1));
    expect(framesTo(sock, `company-${companyId}-ticket`)).toEqual([]);
    expect(framesTo(other, `company-${companyId}-ticket`)).toHaveLength(1);
  });

  it("a socket another process registered meanwhile gets frames within two seconds, and a logout closes it at once", async () => {
    const { cid: companyId } = await w.fresh();
    const agent = await makeUser(companyId, { queueIds: [1] });
    const sock = await connectAs(agent.token, `rv-p-${companyId}`);
    await publish(companyId, "ticket", { n: 1 }, queueTicket(1));
    // Another process's `$connect`: the items are written, this process keeps the listing it read for its frames.
    const elsewhere = `rv-p2-${companyId}`;
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.wsConnection(elsewhere), connectionId: elsewhere, companyId, userId: agent.id, connectedAt: new Date().toISOString(), expiresAt } }));
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.wsRoomMember(companyId, "company", elsewhere), connectionId: elsewhere, userId: agent.id, profile: "user", super: false, queueIds: [1], allTicket: "desabled", rooms: [], tokenVersion: 0, expiresAt },
      }),
    );
    await publish(companyId, "ticket", { n: 2 }, queueTicket(1));
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + SOCKET_LISTING_TTL_MS + 1);
      await publish(companyId, "ticket", { n: 3 }, queueTicket(1));
    } finally {
      vi.useRealTimers();
    }
    expect(framesTo(sock, `company-${companyId}-ticket`).map((f) => f.data.n)).toEqual([1, 2, 3]);
    expect(framesTo(elsewhere, `company-${companyId}-ticket`).map((f) => f.data.n)).toEqual([3]);

    // Closing a user's sockets reads them afresh, whatever listing frames keep.
    await publish(companyId, "ticket", { n: 4 }, queueTicket(1));
    await logout(undefined, agent.token);
    expect(await getSocketMember(companyId, sock)).toBeUndefined();
    expect(await getSocketMember(companyId, elsewhere)).toBeUndefined();
  });
});

describe("credential settings", () => {
  it("sends a credential setting's update to admins only, and an ordinary one to everyone", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId);
    const root = await makeUser(companyId, { profile: "admin", super: true }); // credential keys are super-only to set
    const adminSock = await connectAs(admin.token, `rv-s1-${companyId}`);
    const agentSock = await connectAs(agent.token, `rv-s2-${companyId}`);
    const auth = await authenticate(root.token);
    await updateSetting(auth, "asaas", "tok-123");
    await updateSetting(auth, "viewclosed", "enabled");
    const ev = `company-${companyId}-settings`;
    expect(framesTo(adminSock, ev).map((f) => f.data.setting)).toEqual([
      { key: "asaas", value: "********" }, // a credential is never sent in clear
      { key: "viewclosed", value: "enabled" },
    ]);
    expect(framesTo(agentSock, ev).map((f) => f.data.setting)).toEqual([{ key: "viewclosed", value: "enabled" }]);
  });
});
