/**
 * `startLocalStack` as other teams' browser tests use it: in memory, on a free port, against the run's
 * DynamoDB Local. Proves the stand-ins are wired through configuration only: the seeded admin logs in through the
 * gateway, S3 presigned downloads carry CORS for the local origin, SQS takes the product's queues, the SPA falls back
 * to index.html, and stop() frees the port.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@atende/shared/config";
import { sqsClient } from "@atende/shared/sqs/enqueue";
import { commandQueueUrl } from "@atende/shared/whatsapp/commands";
import { presignMediaGet, putMedia } from "@atende/shared/storage/media";
import { startLocalStack, type LocalStack } from "./stack.ts";

let stack: LocalStack;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), "dist-"));
  mkdirSync(join(webDist, "assets"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>atende spa</title>");
  stack = await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB, webDist });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(webDist, { recursive: true, force: true });
});

describe("local stack", () => {
  it("serves the real API: version, and the seeded admin's login with its refresh cookie", async () => {
    const v = await fetch(`${stack.url}/api/version`);
    expect(v.status).toBe(200);
    expect(await v.json()).toHaveProperty("version");

    const res = await fetch(`${stack.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@admin.com", password: "123456" }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user.email).toBe("admin@admin.com");
    expect(body.user.company.name).toBe("Empresa 1");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("jrt="))).toBe(true);
  });

  it("answers history routes with the SPA's index.html", async () => {
    const res = await fetch(`${stack.url}/tickets/abc`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("atende spa");
  });

  it("stores media in S3 and serves a presigned download with CORS for the local origin", async () => {
    const key = "media/1/1/msg-1.txt";
    await putMedia(key, Buffer.from("hello"), "text/plain");
    const url = await presignMediaGet(1, key);
    const res = await fetch(url, { headers: { origin: stack.url } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello");
    expect(res.headers.get("access-control-allow-origin")).toBe(stack.url);
  });

  it("creates the dispatch queue and one FIFO command queue per session shard", async () => {
    // The stack's own dispatch consumer drains the queue, so check its definition (with its dead-letter queue).
    const dispatch = (await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: getConfig().DISPATCH_QUEUE_URL!, AttributeNames: ["All"] }))).Attributes!;
    expect(JSON.parse(dispatch.RedrivePolicy!).deadLetterTargetArn).toMatch(/dispatch-dlq$/);

    // The session runner consumes the command queues, so check their definition rather than their messages.
    for (let shard = 0; shard < getConfig().SESSION_SHARDS; shard++) {
      const attrs = (await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: commandQueueUrl(shard), AttributeNames: ["All"] }))).Attributes!;
      expect(attrs.FifoQueue).toBe("true");
      expect(JSON.parse(attrs.RedrivePolicy!).deadLetterTargetArn).toMatch(new RegExp(`session-commands-${shard}-dlq\\.fifo$`));
    }
  });

  it("answers 410 from @connections for an unknown connection id", async () => {
    const res = await fetch(`${stack.url}/@ws/@connections/${encodeURIComponent("nobody=")}`, { method: "POST", body: "{}" });
    expect(res.status).toBe(410);
    expect((await fetch(`${stack.url}/@ws/@connections/nobody`)).status).toBe(410);
  });

  it("frees its port on stop", async () => {
    const other = await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB, webDist });
    expect((await fetch(`${other.url}/api/version`)).status).toBe(200);
    await other.stop();
    await expect(fetch(`${other.url}/api/version`)).rejects.toThrow();
  });
});

describe("local stack exposure", () => {
  const get = (path: string, headers: Record<string, string>, method = "GET") =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: stack.port, path, method, headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });

  it("listens on the loopback interface only", async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === "IPv4" && !i.internal);
    if (external) {
      const err = await fetch(`http://${external.address}:${stack.port}/api/version`).catch((e) => e);
      expect(err).toBeInstanceOf(Error);
    }
    expect((await fetch(`http://127.0.0.1:${stack.port}/api/version`)).status).toBe(200);
  });

  it("refuses another site's page and a foreign Host on /sim, @connections and the API", async () => {
    const host = `127.0.0.1:${stack.port}`;
    const evil = { host, origin: "http://evil.example" };
    expect(await get("/sim/status", evil)).toBe(403);
    expect(await get("/@ws/@connections/abc", evil, "DELETE")).toBe(403);
    expect(await get("/api/version", evil)).toBe(403);
    expect(await get("/api/version", { host: "evil.example" })).toBe(403);
    // Its own page and server-side callers (no Origin) pass.
    expect(await get("/api/version", { host, origin: `http://localhost:${stack.port}` })).toBe(200);
    expect(await get("/api/version", { host })).toBe(200);
  });

  it("sends a Content-Security-Policy with the SPA", async () => {
    const res = await fetch(`${stack.url}/tickets`);
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self'(;|$)/);
  });
});
