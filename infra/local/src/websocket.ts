/**
 * The local API Gateway WebSocket API (docs/architecture.md#2-one-machine-npm-start), on the gateway's own HTTP server:
 *
 * - `GET /ws?token=...` (upgrade): runs `$connect` (`functions/src/ws/connect.ts`) with an API Gateway-shaped event;
 *   a non-2xx result refuses the handshake with that HTTP status, as API Gateway does. Each text frame runs
 *   `$default`; the close runs `$disconnect`.
 * - The `@connections` management API at `<mountPath>/@connections/{connectionId}` (what
 *   `@aws-sdk/client-apigatewaymanagementapi` calls with endpoint `http://127.0.0.1:<port><mountPath>`):
 *   POST sends the body as one frame (200), DELETE closes the socket (204), GET describes it (200
 *   `{ConnectedAt, LastActiveAt, Identity}`); an unknown id answers 410 `GoneException`.
 * - API Gateway's limits: a socket is closed (1001) after `maxLifetimeMs` (2 h) or `idleTimeoutMs` (10 min) without
 *   a frame from the client.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { WebSocketServer, WebSocket } from "ws";

type WsHandler = (event: unknown, context: unknown) => Promise<{ statusCode?: number; body?: string } | undefined>;

interface Conn {
  ws: WebSocket;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent: string;
}

export interface WsEmulatorOptions {
  server: Server;
  /** Folder of `functions/src` (handlers are `<functionsDir>/ws/{connect,disconnect,default}.ts`). */
  functionsDir: string;
  /** Upgrade path (default `/ws`). */
  path?: string;
  /** Management API mount (default `/@ws`). */
  mountPath?: string;
  /** Default 10 min. */
  idleTimeoutMs?: number;
  /** Default 2 h. */
  maxLifetimeMs?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** Refuses (403) an upgrade this returns false for (the local stack: foreign `Origin` or `Host`). */
  allowUpgrade?: (req: IncomingMessage) => boolean;
}

export interface WsEmulator {
  /** Serves `<mountPath>/@connections/*`; resolves true when it handled the request. */
  handleManagement(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Number of open sockets. */
  size(): number;
  /** Closes every socket (running `$disconnect` for each) and stops the timers. */
  close(): Promise<void>;
}

/** A connection id in API Gateway's style (12 random bytes, base64, e.g. `L0SM9cOFvHcCIhw=`). */
export const newConnectionId = () => randomBytes(10).toString("base64");

/** Attaches the emulator to `server` (see module doc). */
export function attachWebSocketEmulator(opts: WsEmulatorOptions): WsEmulator {
  const path = opts.path ?? "/ws";
  const mount = opts.mountPath ?? "/@ws";
  const idle = opts.idleTimeoutMs ?? 10 * 60_000;
  const lifetime = opts.maxLifetimeMs ?? 2 * 3600_000;
  // API Gateway's frame limit is 32 KB per frame, 128 KB per message.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 128 * 1024 });
  const conns = new Map<string, Conn>();
  const pending = new Set<Promise<unknown>>();
  const handlers = new Map<string, Promise<WsHandler>>();
  const handler = (name: "connect" | "disconnect" | "default"): Promise<WsHandler> => {
    let p = handlers.get(name);
    if (!p) {
      p = import(pathToFileURL(join(opts.functionsDir, "ws", `${name}.ts`)).href).then((m: { handler: WsHandler }) => m.handler);
      handlers.set(name, p);
      p.catch(() => handlers.delete(name));
    }
    return p;
  };
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };

  const baseContext = (connectionId: string, routeKey: string, eventType: string, req?: { host?: string }) => ({
    connectionId,
    routeKey,
    eventType,
    messageDirection: "IN",
    domainName: (req?.host ?? "localhost").split(":")[0],
    stage: "local",
    apiId: "local",
    requestId: randomUUID(),
    extendedRequestId: randomUUID(),
    requestTimeEpoch: Date.now(),
    connectedAt: conns.get(connectionId)?.connectedAt ?? Date.now(),
  });

  const invoke = async (name: "connect" | "disconnect" | "default", event: { requestContext: { connectionId: string } }) => {
    try {
      const h = await handler(name);
      return (await h(event, { awsRequestId: randomUUID(), functionName: `atende-ws-${name}` })) ?? { statusCode: 200 };
    } catch (err) {
      opts.log?.(`ws: $${name} failed`, { connectionId: event.requestContext.connectionId, err: String((err as Error)?.message ?? err) });
      return { statusCode: 500 };
    }
  };

  const disconnect = (connectionId: string, code: number, reason: string) => {
    const c = conns.get(connectionId);
    if (!c) return;
    conns.delete(connectionId);
    track(
      invoke("disconnect", {
        requestContext: { ...baseContext(connectionId, "$disconnect", "DISCONNECT"), connectedAt: c.connectedAt, disconnectStatusCode: code, disconnectReason: reason },
        headers: {},
        isBase64Encoded: false,
      } as never),
    );
  };

  const refuse = (socket: Duplex, status: number) => {
    const text = { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error" }[status] ?? "Error";
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://local");
    if (url.pathname !== path) {
      refuse(socket, 404);
      return;
    }
    if (opts.allowUpgrade && !opts.allowUpgrade(req)) {
      refuse(socket, 403);
      return;
    }
    const connectionId = newConnectionId();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(",") : v;
    const query = Object.fromEntries(url.searchParams);
    const sourceIp = (req.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
    let socketGone = false;
    socket.once("close", () => (socketGone = true));
    track(
      (async () => {
        const res = await invoke("connect", {
          requestContext: { ...baseContext(connectionId, "$connect", "CONNECT", { host: headers.host }), identity: { sourceIp, userAgent: headers["user-agent"] ?? "" } },
          headers,
          queryStringParameters: Object.keys(query).length ? query : undefined,
          isBase64Encoded: false,
        } as never);
        const status = res.statusCode ?? 200;
        if (status < 200 || status > 299) {
          refuse(socket, status);
          return;
        }
        if (socketGone) {
          // The client left while $connect ran: API Gateway still sends $disconnect for the registered connection.
          await invoke("disconnect", {
            requestContext: { ...baseContext(connectionId, "$disconnect", "DISCONNECT"), disconnectStatusCode: 1006, disconnectReason: "" },
            headers: {},
            isBase64Encoded: false,
          } as never);
          return;
        }
        wss.handleUpgrade(req, socket, head, (ws) => {
          const now = Date.now();
          conns.set(connectionId, { ws, connectedAt: now, lastActiveAt: now, sourceIp, userAgent: headers["user-agent"] ?? "" });
          ws.on("message", (data, isBinary) => {
            const c = conns.get(connectionId);
            if (c) c.lastActiveAt = Date.now();
            const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
            track(
              invoke("default", {
                requestContext: { ...baseContext(connectionId, "$default", "MESSAGE", { host: headers.host }), identity: { sourceIp } },
                body: isBinary ? buf.toString("base64") : buf.toString("utf8"),
                isBase64Encoded: isBinary,
              } as never),
            );
          });
          ws.on("close", (code, reason) => disconnect(connectionId, code, reason.toString()));
          ws.on("error", () => ws.terminate());
        });
      })(),
    );
  };
  opts.server.on("upgrade", onUpgrade);

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const c of conns.values()) {
      if (now - c.connectedAt >= lifetime || now - c.lastActiveAt >= idle) c.ws.close(1001, "Going away");
    }
  }, Math.max(50, Math.min(30_000, Math.floor(Math.min(idle, lifetime) / 4))));
  sweep.unref();

  const gone = (res: ServerResponse) => {
    res.writeHead(410, { "content-type": "application/json", "x-amzn-errortype": "GoneException" });
    res.end(JSON.stringify({ message: "Gone" }));
  };

  return {
    async handleManagement(req, res) {
      const url = new URL(req.url ?? "/", "http://local");
      const prefix = `${mount}/@connections/`;
      if (!url.pathname.startsWith(prefix)) return false;
      const connectionId = decodeURIComponent(url.pathname.slice(prefix.length));
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const c = conns.get(connectionId);
      if (!c || c.ws.readyState !== WebSocket.OPEN) {
        gone(res);
        return true;
      }
      switch (req.method) {
        case "POST": {
          const body = Buffer.concat(chunks);
          await new Promise<void>((resolveSend) => c.ws.send(body.toString("utf8"), () => resolveSend()));
          res.writeHead(200, { "content-type": "application/json" }).end("{}");
          return true;
        }
        case "DELETE":
          c.ws.close(1000, "");
          res.writeHead(204).end();
          return true;
        case "GET":
          res.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({
              ConnectedAt: new Date(c.connectedAt).toISOString(),
              LastActiveAt: new Date(c.lastActiveAt).toISOString(),
              Identity: { SourceIp: c.sourceIp, UserAgent: c.userAgent },
            }),
          );
          return true;
        default:
          res.writeHead(405, { allow: "GET, POST, DELETE" }).end();
          return true;
      }
    },
    size: () => conns.size,
    async close() {
      clearInterval(sweep);
      opts.server.off("upgrade", onUpgrade);
      for (const c of conns.values()) c.ws.close(1001, "Going away");
      // Wait for the close handshakes (or terminate) and every handler in flight.
      const deadline = Date.now() + 3000;
      while (conns.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const [id, c] of conns) {
        c.ws.terminate();
        disconnect(id, 1006, "");
      }
      while (pending.size) await Promise.allSettled([...pending]);
      wss.close();
    },
  };
}
