/**
 * The minute tick (issue 2 §2, §5 user status): users flagged online without any live socket go offline;
 * users with a live socket stay online.
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { registerSocket } from "@atende/shared/realtime/connections";
import { makeCompany, makeUser } from "../../../test/helpers.ts";
import { handler } from "./tick.ts";

async function setOnline(companyId: number, userId: number) {
  await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.user(companyId, userId), UpdateExpression: "SET #online = :t", ExpressionAttributeNames: { "#online": "online" }, ExpressionAttributeValues: { ":t": true } }));
}
async function online(companyId: number, userId: number) {
  return (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId) }))).Item?.online;
}

describe("tick", () => {
  it("sets offline the online users whose sockets are all gone or expired, and keeps connected users online", async () => {
    const a = await makeCompany();
    const gone = await makeUser(a.companyId);
    const expired = await makeUser(a.companyId);
    const connected = await makeUser(a.companyId);
    for (const u of [gone, expired, connected]) await setOnline(a.companyId, u.id);
    const owner = (userId: number) => ({ companyId: a.companyId, userId, profile: "user", super: false, queueIds: [], allTicket: "desabled" });
    await registerSocket("expired-conn", owner(expired.id), Date.now() - 3 * 3600_000);
    await registerSocket("live-conn", owner(connected.id));

    const out = await handler({ "detail-type": "Scheduled Event", time: new Date().toISOString() });

    expect(out.usersSetOffline).toBe(2);
    expect(await online(a.companyId, gone.id)).toBe(false);
    expect(await online(a.companyId, expired.id)).toBe(false);
    expect(await online(a.companyId, connected.id)).toBe(true);
  });
});
