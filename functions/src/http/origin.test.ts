/**
 * Direct calls to the execute-api endpoints are refused in the cloud. With `ORIGIN_VERIFY_SECRET` set,
 * every route of the manifest answers 403 `ERR_NO_PERMISSION` to a request without CloudFront's origin secret header
 * (or with a wrong one) before it reads a token or writes anything, and the WebSocket `$connect` refuses the upgrade;
 * with the secret the same requests are served. The CDK side (the secret reaches every area Lambda and `$connect`, and
 * CloudFront sends it) is asserted in `infra/test/stack.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@atende/shared/config";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { handler as wsConnect } from "../ws/connect.ts";
import { routes } from "./routes.ts";

const w = companyWorld();

const SECRET = "cloudfront-origin-secret-for-origin-test";

beforeAll(() => {
  process.env.ORIGIN_VERIFY_SECRET = SECRET;
  resetConfig();
});
afterAll(() => {
  delete process.env.ORIGIN_VERIFY_SECRET;
  resetConfig();
});

/** A concrete path for a route key's path (`{id}` → 1, `{uuid}` → a uuid). */
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === "uuid" ? "00000000-0000-4000-8000-000000000000" : "1"));

describe("origin secret", () => {
  it("refuses every route of the manifest without CloudFront's origin secret, even with a valid token", async () => {
    const { admin } = await w.fresh();
    expect(routes.length).toBeGreaterThan(50);
    for (const r of routes) {
      for (const presented of ["", "guessed-secret-0123456789"]) {
        const res = await api(r.method as never, concrete(r.path), { token: admin.token, body: {}, headers: { "x-atende-origin": presented } });
        expect({ route: `${r.method} ${r.path}`, status: res.status, body: res.body }).toEqual({ route: `${r.method} ${r.path}`, status: 403, body: { error: "ERR_NO_PERMISSION" } });
      }
    }
  });

  it("serves the same requests when the secret comes with them", async () => {
    const { admin } = await w.fresh();
    expect((await api("GET", "/api/version", { headers: { "x-atende-origin": SECRET } })).status).toBe(200);
    const me = await api("GET", "/api/auth/me", { token: admin.token, headers: { "x-atende-origin": SECRET } });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(admin.id);
  });

  it("refuses the WebSocket upgrade without the secret and accepts a ticket with it", async () => {
    const { admin } = await w.fresh();
    const ticketOf = async () => (await api("POST", "/api/auth/ws-ticket", { token: admin.token })).body.ticket as string;
    const event = (headers: Record<string, string>, ticket: string) =>
      ({ requestContext: { connectionId: `origin-${Math.random()}`, routeKey: "$connect", eventType: "CONNECT" }, headers, queryStringParameters: { ticket } }) as never;
    expect((await wsConnect(event({}, await ticketOf()))).statusCode).toBe(403);
    expect((await wsConnect(event({ "x-atende-origin": "guessed-secret-0123456789" }, await ticketOf()))).statusCode).toBe(403);
    expect((await wsConnect(event({ "x-atende-origin": SECRET }, await ticketOf()))).statusCode).toBe(200);
  });
});
