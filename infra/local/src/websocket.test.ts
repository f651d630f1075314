/**
 * The WebSocket emulator itself, with stand-in route handlers that record the API Gateway events they
 * receive: the handshake refused with `$connect`'s status, frames to `$default`, `$disconnect` with the close code,
 * the `@connections` API (POST/GET/DELETE/410) and API Gateway's idle timeout.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { attachWebSocketEmulator, type WsEmulator } from "./websocket.ts";

type Recorded = { route: string; event: any }[];
const g = globalThis as unknown as { wsEvents: Recorded };
g.wsEvents = [];

let dir: string;
let server: Server;
let emulator: WsEmulator;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wsemu-"));
  mkdirSync(join(dir, "ws"));
  const stub = (route: string, body: string) =>
    `export async function handler(event) { globalThis.wsEvents.push({ route: ${JSON.stringify(route)}, event }); ${body} }`;
  writeFileSync(join(dir, "ws/connect.ts"), stub("$connect", `const t = event.queryStringParameters?.token; return { statusCode: t === "ok" ? 200 : t === "expired" ? 403 : 401 };`));
  writeFileSync(join(dir, "ws/default.ts"), stub("$default", `return { statusCode: 200 };`));
  writeFileSync(join(dir, "ws/disconnect.ts"), stub("$disconnect", `return { statusCode: 200 };`));
  server = createServer(async (req, res) => {
    if (!(await emulator.handleManagement(req, res))) res.writeHead(404).end();
  });
  emulator = attachWebSocketEmulator({ server, functionsDir: dir, idleTimeoutMs: 2000, maxLifetimeMs: 60_000 });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await emulator.close();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

function open(token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_q, res) => reject(Object.assign(new Error("refused"), { statusCode: res.statusCode })));
    ws.once("error", reject);
  });
}
const connectionIdOf = () => g.wsEvents.filter((e) => e.route === "$connect").at(-1)!.event.requestContext.connectionId as string;
const mgmt = (id: string, method: string, body?: string) =>
  fetch(`http://127.0.0.1:${port}/@ws/@connections/${encodeURIComponent(id)}`, { method, body });

describe("WebSocket emulator", () => {
  it("refuses the upgrade with the status $connect returned", async () => {
    await expect(open("bad")).rejects.toMatchObject({ statusCode: 401 });
    await expect(open("expired")).rejects.toMatchObject({ statusCode: 403 });
  });

  it("passes API Gateway-shaped events to $connect and $default, and posts frames through @connections", async () => {
    const ws = await open("ok");
    const id = connectionIdOf();
    const connect = g.wsEvents.at(-1)!.event;
    expect(connect.requestContext).toMatchObject({ routeKey: "$connect", eventType: "CONNECT", connectionId: id, stage: "local" });
    expect(connect.queryStringParameters).toEqual({ token: "ok" });

    ws.send(JSON.stringify({ action: "joinNotification" }));
    await vi.waitFor(() => expect(g.wsEvents.some((e) => e.route === "$default" && e.event.requestContext.connectionId === id)).toBe(true));
    const frame = g.wsEvents.find((e) => e.route === "$default")!.event;
    expect(frame.requestContext).toMatchObject({ routeKey: "$default", eventType: "MESSAGE" });
    expect(frame.body).toBe('{"action":"joinNotification"}');

    const got = new Promise<string>((r) => ws.once("message", (d) => r(String(d))));
    expect((await mgmt(id, "POST", '{"event":"company-1-x","data":{}}')).status).toBe(200);
    expect(await got).toBe('{"event":"company-1-x","data":{}}');

    const info = await (await mgmt(id, "GET")).json();
    expect(info).toHaveProperty("ConnectedAt");
    expect(info.Identity.SourceIp).toBe("127.0.0.1");

    const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
    expect((await mgmt(id, "DELETE")).status).toBe(204);
    await closed;
    await vi.waitFor(() => expect(g.wsEvents.some((e) => e.route === "$disconnect" && e.event.requestContext.connectionId === id)).toBe(true));
    expect((await mgmt(id, "POST", "{}")).status).toBe(410);
  });

  it("closes an idle socket with 1001 and runs $disconnect", async () => {
    const ws = await open("ok");
    const id = connectionIdOf();
    const code = await new Promise<number>((r) => ws.once("close", (c) => r(c)));
    expect(code).toBe(1001);
    await vi.waitFor(() => {
      const d = g.wsEvents.find((e) => e.route === "$disconnect" && e.event.requestContext.connectionId === id);
      expect(d?.event.requestContext).toMatchObject({ eventType: "DISCONNECT", disconnectStatusCode: 1001 });
    });
  });
});
