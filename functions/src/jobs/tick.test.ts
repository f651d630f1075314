/**
 * The minute tick (users' online status, docs/product/users.md#online-status): users flagged online whose sockets all expired, or were closed
 * without `$disconnect` (a revocation), go offline through their presence check's due-time item; users with a live
 * socket stay online.
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { registerSocket, SOCKET_TTL_SECONDS, syncUserSockets } from "@atende/shared/realtime/connections";
import { PRESENCE_CHECK } from "@atende/shared/realtime/presence";
import { getTimer } from "@atende/shared/timers/index";
import { makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { handler } from "./tick.ts";

const w = companyWorld();

async function setOnline(companyId: number, userId: number) {
  await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.user(companyId, userId), UpdateExpression: "SET #online = :t", ExpressionAttributeNames: { "#online": "online" }, ExpressionAttributeValues: { ":t": true } }));
}
async function online(companyId: number, userId: number) {
  return (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId) }))).Item?.online;
}
const tick = (at = Date.now()) => handler({ "detail-type": "Scheduled Event", time: new Date(at).toISOString() });

describe("tick", () => {
  it("sets offline the online users whose sockets all expired, and keeps connected users online", async () => {
    const a = await w.fresh();
    const expired = await makeUser(a.cid);
    const connected = await makeUser(a.cid);
    for (const u of [expired, connected]) await setOnline(a.cid, u.id);
    const owner = (userId: number) => ({ companyId: a.cid, userId, profile: "user", super: false, queueIds: [], allTicket: "desabled" });
    await registerSocket("expired-conn", owner(expired.id), Date.now() - 3 * 3600_000);
    await registerSocket("live-conn", owner(connected.id));

    const out = await tick();

    expect(out.usersSetOffline).toBeGreaterThanOrEqual(1);
    expect(await online(a.cid, expired.id)).toBe(false);
    expect(await online(a.cid, connected.id)).toBe(true);
    // The connected user's check waits for their socket's expiry.
    expect(Date.parse((await getTimer(a.cid, PRESENCE_CHECK, connected.id))!.dueAt)).toBeGreaterThan(Date.now() + (SOCKET_TTL_SECONDS - 60) * 1000);
  });

  it("a socket closed without $disconnect (revoked) makes its user's check due at once; an older expiry of another socket does not end a live one", async () => {
    const a = await w.fresh();
    const gone = await makeUser(a.cid);
    const twoTabs = await makeUser(a.cid);
    for (const u of [gone, twoTabs]) await setOnline(a.cid, u.id);
    const owner = (userId: number) => ({ companyId: a.cid, userId, profile: "user", super: false, queueIds: [], allTicket: "desabled" });
    await registerSocket("gone-conn", owner(gone.id));
    // A newer tab first, then an older registration replaces the check with its earlier expiry: the check reschedules.
    await registerSocket("tab-new", owner(twoTabs.id));
    await registerSocket("tab-old", owner(twoTabs.id), Date.now() - 3 * 3600_000);

    // Not due yet: nothing changes.
    await tick();
    expect(await online(a.cid, gone.id)).toBe(true);

    // A logout revokes the socket (closed and unregistered, no `$disconnect` reaches us): its check is due at once.
    expect(await syncUserSockets(a.cid, gone.id, { minTokenVersion: 1 })).toBe(1);
    await tick();
    expect(await online(a.cid, gone.id)).toBe(false);
    expect(await online(a.cid, twoTabs.id)).toBe(true);
    expect(Date.parse((await getTimer(a.cid, PRESENCE_CHECK, twoTabs.id))!.dueAt)).toBeGreaterThan(Date.now() + 3600_000);
  });
});
