/**
 * The `userStatus` frame (the web sends it every 5 minutes): the user's `online` flag is written and published only
 * when it changes, and a socket's frames are taken at most once per {@link USER_STATUS_MIN_GAP_MS}; a socket sending it
 * in a loop costs no write and no frame to the company.
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { registerSocket } from "@atende/shared/realtime/connections";
import { patchUser } from "@atende/shared/users/repository";
import { handler, USER_STATUS_MIN_GAP_MS } from "./default.ts";

const w = companyWorld({ agents: [{}] });
let cid: number;
let user: TestUser;

beforeAll(() => {
  cid = w.cid;
  [user] = w.agents;
});
beforeEach(() => w.capture.clear());

const userStatus = (connectionId: string) =>
  handler({ requestContext: { connectionId, routeKey: "$default", eventType: "MESSAGE" }, body: JSON.stringify({ action: "userStatus" }) });
const stored = async () => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.user(cid, user.id), ConsistentRead: true }))).Item!;
/** The `company-{id}-user` frames one socket received. */
const userFrames = (connectionId: string) => w.capture.frames.filter((f) => f.event === `company-${cid}-user` && f.connectionId === connectionId);
async function open(): Promise<string> {
  const id = `status-${Math.random().toString(36).slice(2, 10)}`;
  await registerSocket(id, { companyId: cid, userId: user.id, profile: "user", super: false, queueIds: [], allTicket: "desabled" });
  return id;
}

describe("userStatus frames", () => {
  it("sets online and publishes once when the flag changes; writes and publishes nothing when it is already set", async () => {
    await patchUser(cid, user.id, { online: false });
    const first = await open();
    expect((await userStatus(first)).statusCode).toBe(200);
    expect((await stored()).online).toBe(true);
    expect(userFrames(first).map((f) => f.data.user.online)).toEqual([true]);

    w.capture.clear();
    const before = (await stored()).updatedAt;
    const second = await open();
    expect((await userStatus(second)).statusCode).toBe(200);
    expect((await stored()).updatedAt).toBe(before);
    expect(userFrames(first)).toEqual([]);
  });

  it("takes one frame per socket per interval: a loop of frames is refused (429) without a write", async () => {
    const socket = await open();
    await patchUser(cid, user.id, { online: false });
    expect((await userStatus(socket)).statusCode).toBe(200);
    expect((await stored()).online).toBe(true);
    // Cleared behind the socket's back: the frames that follow at once are not taken.
    await patchUser(cid, user.id, { online: false });
    w.capture.clear();
    for (let i = 0; i < 5; i++) expect((await userStatus(socket)).statusCode).toBe(429);
    expect((await stored()).online).toBe(false);
    expect(userFrames(socket)).toEqual([]);
    // Once the interval has passed (the last frame taken moved back in time), the next frame is taken again.
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.wsConnection(socket),
        UpdateExpression: "SET statusAt = :t",
        ExpressionAttributeValues: { ":t": Date.now() - USER_STATUS_MIN_GAP_MS - 1 },
      }),
    );
    expect((await userStatus(socket)).statusCode).toBe(200);
    expect((await stored()).online).toBe(true);
    expect(userFrames(socket).map((f) => f.data.user.online)).toEqual([true]);
  });
});
