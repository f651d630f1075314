/**
 * A stand-in started on first use, so the one-machine stack (and each browser test's stack) does not wait for servers
 * most runs never call: {@link startLazy} listens at once on a free loopback port, so its address is known (and can be
 * put in the environment) before the real server exists, and starts the real server with `start()` when the first
 * request (or WebSocket upgrade) arrives. Every request is passed through to it unchanged (method, path, headers, body,
 * streamed both ways); an upgrade's connection is joined byte for byte to the real server's. The real server is started
 * once; a start that fails answers 502 and the next request tries again.
 */
import { createServer, request } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";

/** A real server behind the lazy front: where it listens and how to stop it. */
export interface LazyTarget {
  /** `http://host:port` of the real server. */
  endpoint: string;
  stop(): Promise<void>;
}

/** A running lazy front. */
export interface LazyHandle {
  /** `http://host:port` of the front (what clients are given). */
  endpoint: string;
  /** True once the first request has started the real server. */
  started(): boolean;
  /** Stops the front and, when it was started, the real server. */
  stop(): Promise<void>;
}

/** Listens on `host`:`port` (0 = any free port) and starts the real server with `start` on the first request. */
export async function startLazy(start: () => Promise<LazyTarget>, opts: { host?: string; port?: number } = {}): Promise<LazyHandle> {
  const host = opts.host ?? "127.0.0.1";
  let target: Promise<LazyTarget> | null = null;
  const ensure = () =>
    (target ??= start().catch((err: unknown) => {
      target = null;
      throw err;
    }));
  const upgraded = new Set<Socket>();
  const server = createServer((req, res) => {
    ensure().then(
      (t) => {
        const upstream = request(`${t.endpoint}${req.url ?? "/"}`, { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on("error", () => {
          if (!res.headersSent) res.writeHead(502);
          res.end();
        });
        req.pipe(upstream);
      },
      () => res.writeHead(502).end(),
    );
  });
  server.on("upgrade", (req, socket: Socket, head: Buffer) => {
    upgraded.add(socket);
    socket.on("close", () => upgraded.delete(socket));
    socket.on("error", () => socket.destroy());
    ensure().then(
      (t) => {
        const { hostname, port } = new URL(t.endpoint);
        const upstream = connect(Number(port), hostname, () => {
          const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
          for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
          upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
          if (head.length) upstream.write(head);
          socket.pipe(upstream).pipe(socket);
        });
        upgraded.add(upstream);
        upstream.on("close", () => {
          upgraded.delete(upstream);
          socket.destroy();
        });
        upstream.on("error", () => upstream.destroy());
        socket.on("close", () => upstream.destroy());
      },
      () => socket.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${host}:${port}`,
    started: () => target !== null,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of upgraded) s.destroy();
      });
      const t = await target?.catch(() => null);
      await t?.stop();
    },
  };
}
