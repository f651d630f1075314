/**
 * WebSocket tickets: the socket authenticates with a single-use, short-lived ticket instead of the access
 * token in the URL.
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { handler as connect } from "../ws/connect.ts";

const w = companyWorld();

let seq = 0;
const connectWith = (query: Record<string, string>) =>
  connect({ requestContext: { connectionId: `wsticket-${Date.now()}-${++seq}`, routeKey: "$connect", eventType: "CONNECT" }, queryStringParameters: query } as any);
const registered = async (connectionId: string) =>
  !!(await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.wsConnection(connectionId), ConsistentRead: true }))).Item;

describe("POST /api/auth/ws-ticket and $connect with ?ticket=", () => {
  it("opens a socket once with a fresh ticket; the same ticket again is refused", async () => {
    const { admin } = await w.fresh();
    const res = await api("POST", "/api/auth/ws-ticket", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ticket: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresInSeconds: 60 });
    expect(res.body.ticket).not.toContain(admin.token.split(".")[1]);
    const first = await connectWith({ ticket: res.body.ticket });
    expect(first.statusCode).toBe(200);
    expect((await connectWith({ ticket: res.body.ticket })).statusCode).toBe(401);
  });

  it("registers the socket for the ticket's user, and refuses unknown tickets and anonymous callers", async () => {
    const { admin } = await w.fresh();
    const { body } = await api("POST", "/api/auth/ws-ticket", { token: admin.token });
    const id = `wsticket-reg-${Date.now()}`;
    const out = await connect({ requestContext: { connectionId: id, routeKey: "$connect", eventType: "CONNECT" }, queryStringParameters: { ticket: body.ticket } } as any);
    expect(out.statusCode).toBe(200);
    expect(await registered(id)).toBe(true);
    expect((await connectWith({ ticket: "A".repeat(43) })).statusCode).toBe(401);
    expect((await connectWith({ ticket: "../../etc" })).statusCode).toBe(401);
    expect((await api("POST", "/api/auth/ws-ticket", {})).status).toBe(401);
  });

  it("refuses a ticket whose session was revoked after it was issued", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const { body } = await api("POST", "/api/auth/ws-ticket", { token: admin.token });
    await ddb().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.user(companyId, admin.id), UpdateExpression: "ADD tokenVersion :one", ExpressionAttributeValues: { ":one": 1 } }),
    );
    expect((await connectWith({ ticket: body.ticket })).statusCode).toBe(401);
  });
});
