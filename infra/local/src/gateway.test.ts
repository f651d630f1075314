/**
 * The local HTTP gateway: API Gateway HTTP API payload 2.0 events from real HTTP requests, responses
 * written back with one Set-Cookie per cookie, failures contained. Uses stand-in area modules in a temp folder so the
 * event the handler receives can be asserted field by field.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHandler, createStaticHandler, matchRoute } from "./gateway.ts";

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gw-"));
  mkdirSync(join(dir, "functions/http"), { recursive: true });
  // The `auth` area: echoes the event it got and sets two cookies.
  writeFileSync(
    join(dir, "functions/http/auth.ts"),
    `export async function handler(event) {
       return { statusCode: 201, headers: { "content-type": "application/json", "x-area": "auth" }, cookies: ["a=1; Path=/", "b=2; HttpOnly"], body: JSON.stringify(event) };
     }`,
  );
  // The `users` area fails to load.
  writeFileSync(join(dir, "functions/http/users.ts"), `throw new Error("boom at import");`);
  // The `queues` area throws at run time.
  writeFileSync(join(dir, "functions/http/queues.ts"), `export async function handler() { throw new Error("boom"); }`);
  mkdirSync(join(dir, "dist/assets"), { recursive: true });
  writeFileSync(join(dir, "dist/index.html"), "<!doctype html><title>spa</title>");
  writeFileSync(join(dir, "dist/assets/app-1.js"), "console.log(1)");
  const api = createApiHandler({ functionsDir: join(dir, "functions"), webDist: join(dir, "dist") });
  const serveStatic = createStaticHandler(join(dir, "dist"));
  server = createServer(async (req, res) => {
    if (!(await api(req, res))) serveStatic(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe("local gateway", () => {
  it("turns a request into an HTTP API v2 event with lower-cased headers, cookies, query and path parameters", async () => {
    const res = await fetch(`${base}/api/version?x=1&x=2&y=%C3%A9`, { headers: { "X-Custom": "Yes", Cookie: "jrt=abc; other=1" } });
    expect(res.status).toBe(201);
    const event = await res.json();
    expect(event).toMatchObject({
      version: "2.0",
      routeKey: "GET /api/version",
      rawPath: "/api/version",
      rawQueryString: "x=1&x=2&y=%C3%A9",
      cookies: ["jrt=abc", "other=1"],
      queryStringParameters: { x: "1,2", y: "é" },
      isBase64Encoded: false,
      requestContext: { http: { method: "GET", path: "/api/version", sourceIp: "127.0.0.1" }, stage: "$default", routeKey: "GET /api/version" },
    });
    expect(event.headers["x-custom"]).toBe("Yes");
    expect(event.headers.cookie).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
  });

  it("fills pathParameters and keeps a JSON body as text", async () => {
    expect(matchRoute("GET", "/api/users/list")?.route.path).toBe("/api/users/list");
    expect(matchRoute("GET", "/api/users/42")?.params).toEqual({ id: "42" });
    const res = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"email":"a@b.c"}' });
    const event = await res.json();
    expect(event.routeKey).toBe("POST /api/auth/login");
    expect(event.body).toBe('{"email":"a@b.c"}');
    expect(event.isBase64Encoded).toBe(false);
  });

  it("base64-encodes a binary body", async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const res = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: bytes });
    const event = await res.json();
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body, "base64")).toEqual(bytes);
  });

  it("writes each cookie of the result as its own Set-Cookie header", async () => {
    const res = await fetch(`${base}/api/version`);
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; HttpOnly"]);
    expect(res.headers.get("x-area")).toBe("auth");
  });

  it("answers ERR_ROUTE_NOT_FOUND for an /api path the manifest lacks", async () => {
    const res = await fetch(`${base}/api/does-not-exist`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "ERR_ROUTE_NOT_FOUND" });
    expect((await fetch(`${base}/api/version`, { method: "DELETE" })).status).toBe(404);
  });

  it("answers ERR_INTERNAL when an area fails to load or throws, and keeps serving", async () => {
    const broken = await fetch(`${base}/api/users/list`);
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ error: "ERR_INTERNAL" });
    const throws = await fetch(`${base}/api/queue`);
    expect(throws.status).toBe(500);
    expect(await throws.json()).toEqual({ error: "ERR_INTERNAL" });
    expect((await fetch(`${base}/api/version`)).status).toBe(201);
  });

  it("serves the SPA with history fallback, assets by type, and 404 for a missing asset", async () => {
    const page = await fetch(`${base}/tickets/12`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("<title>spa</title>");
    const asset = await fetch(`${base}/assets/app-1.js`);
    expect(asset.headers.get("content-type")).toContain("text/javascript");
    expect(await asset.text()).toBe("console.log(1)");
    expect((await fetch(`${base}/assets/gone-2.js`)).status).toBe(404);
    expect(await (await fetch(`${base}/../../etc/passwd`)).text()).toContain("<title>spa</title>");
  });

  it("tells how to build the web app when web/dist is missing", async () => {
    const s = createServer((req, res) => createStaticHandler(join(dir, "no-dist"))(req, res));
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("npm run build -w web");
    await new Promise((r) => s.close(r));
  });
});
