/**
 * The session runner as its own process for the media-storm bench (`scripts/bench/storm.ts`): what
 * `npm start` runs in-process (`session-runner/src/local.ts`: every shard, the simulated WhatsApp network), here alone,
 * so the OS reports the runner's own memory. Configuration comes from the environment the parent's local stack set
 * (DynamoDB Local, s3rver, fauxqs endpoints, table, bucket, queues, `@connections`). Serves `/sim/*` and
 * `GET /mem` (`process.memoryUsage()`, bytes) on 127.0.0.1 and prints `READY <port>` once listening; SIGTERM stops it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { interceptLocalhostDns } from "fauxqs";
import { startLocalRunner } from "../../session-runner/src/local.ts";

// fauxqs' queue URLs are `http://sqs.<region>.localhost:<port>/...`: resolvable here as in the stack's process.
interceptLocalhostDns();
const local = await startLocalRunner();
const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/mem") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(process.memoryUsage()));
    return;
  }
  local
    .handleSim(req, res)
    .then((served) => {
      if (!served) res.writeHead(404, { "content-type": "application/json" }).end('{"error":"ERR_ROUTE_NOT_FOUND"}');
    })
    .catch(() => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end('{"error":"ERR_INTERNAL"}');
    });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`));

process.once("SIGTERM", () => {
  void (async () => {
    await local.stop().catch(() => undefined);
    server.closeAllConnections();
    server.close();
    process.exit(0);
  })();
});
