/**
 * Announcements' fan-out off the request (docs/product/announcements.md#live): the super user's request queues one
 * dispatch job per shard of the platform channel and posts nothing itself; each job (the dispatch consumer) posts to
 * its shard's sockets over many companies. A redelivered job posts its shard again at most; a bad or failing job
 * never costs the others their frame.
 */
import { DeleteMessageCommand, type Message, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws } from "../../../test/world.ts";
import { getConfig } from "../../../shared/src/config.ts";
import { keys, WS_PLATFORM_SHARDS } from "../../../shared/src/db/keys.ts";
import { settleDeferred } from "../../../shared/src/events/index.ts";
import { injectDdbFaults } from "../../../shared/src/ingest/faults.testkit.ts";
import { sqsClient } from "../../../shared/src/sqs/enqueue.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { handler } from "./dispatch.ts";

useLocalAws({ sqs: true });
const w = companyWorld({ other: true, root: true });

const shardOf = (connectionId: string) => Number(keys.wsPlatformIndex(connectionId).GSI2PK.split("#")[1]);

/** Sockets of `companies` companies (fake ids beside the world's), two users each, covering every shard. */
async function sockets(companies: number): Promise<{ id: string; companyId: number }[]> {
  const out: { id: string; companyId: number }[] = [];
  const base = 900_000 + Math.floor(Math.random() * 50_000);
  for (let i = 0; i < companies; i++) {
    const companyId = i === 0 ? w.cid : i === 1 ? w.other.companyId : base + i;
    for (const userId of [1, 2]) out.push({ id: await registerSocket(companyId, { id: userId, profile: "user" }), companyId });
  }
  return out;
}

/** Every message waiting on the dispatch queue (received, and deleted: the test hands them to the consumer). */
async function takeDispatchMessages(): Promise<Message[]> {
  const url = getConfig().DISPATCH_QUEUE_URL!;
  const out: Message[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!res.Messages?.length) break;
    for (const m of res.Messages) {
      out.push(m);
      await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return out;
}

const records = (ms: Message[]) => ({ Records: ms.map((m) => ({ messageId: m.MessageId!, body: m.Body! })) });
const shardOfMessage = (m: Message) => JSON.parse(m.Body!).shard as number;

describe("announcement frames through one dispatch job per platform shard", () => {
  it("the request posts nothing; the jobs reach every socket of every company, each under its own company's name", async () => {
    const socks = await sockets(30);
    expect(new Set(socks.map((s) => shardOf(s.id))).size).toBeGreaterThanOrEqual(3);
    await takeDispatchMessages();
    w.capture.clear();
    const res = await api("POST", "/api/announcements", { token: w.root.token, body: { title: "Manutenção", text: "Hoje às 22h", priority: 1 } });
    expect(res.status).toBe(200);
    await settleDeferred();
    expect(w.capture.frames.filter((f) => f.event.endsWith("-announcement"))).toEqual([]);

    const jobs = await takeDispatchMessages();
    expect(jobs.map(shardOfMessage).sort((a, b) => a - b)).toEqual(Array.from({ length: WS_PLATFORM_SHARDS }, (_, i) => i));
    // Three shards' jobs first: only their sockets have the frame.
    const first = jobs.slice(0, 3);
    expect((await handler(records(first))).batchItemFailures).toEqual([]);
    const done = new Set(first.map(shardOfMessage));
    const reached = () => new Set(w.capture.frames.filter((f) => f.event.endsWith("-announcement")).map((f) => f.connectionId));
    expect([...reached()].sort()).toEqual(socks.filter((s) => done.has(shardOf(s.id))).map((s) => s.id).sort());
    expect((await handler(records(jobs.slice(3)))).batchItemFailures).toEqual([]);
    expect(reached().size).toBe(socks.length);
    for (const s of socks) {
      const frames = w.capture.frames.filter((f) => f.connectionId === s.id);
      expect(frames).toEqual([{ connectionId: s.id, event: `company-${s.companyId}-announcement`, data: { action: "create", record: res.body } }]);
    }
  });

  it("a redelivered job posts its shard again at most; a bad job is dropped and a failing shard comes back alone", async () => {
    const socks = await sockets(24);
    await takeDispatchMessages();
    const res = await api("POST", "/api/announcements", { token: w.root.token, body: { title: "Novidade", text: "Relatórios", priority: 3 } });
    await settleDeferred();
    const jobs = await takeDispatchMessages();
    expect(jobs).toHaveLength(WS_PLATFORM_SHARDS);
    const shardWithSockets = (n: number) => jobs.find((j) => socks.filter((s) => shardOf(s.id) === shardOfMessage(j)).length >= n)!;
    const again = shardWithSockets(1);
    const failing = jobs.find((j) => j !== again && socks.some((s) => shardOf(s.id) === shardOfMessage(j)))!;
    const ofShard = (j: Message) => socks.filter((s) => shardOf(s.id) === shardOfMessage(j));
    const framesTo = (id: string) => w.capture.frames.filter((f) => f.connectionId === id && f.event.endsWith("-announcement")).length;

    w.capture.clear();
    // The failing shard's listing errors (its job returns for redelivery); a bad body is dropped; the rest are posted.
    const faults = injectDdbFaults(({ command, input }) =>
      command === "QueryCommand" && (input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[":pk"] === keys.wsPlatformPK(shardOfMessage(failing)) ? "5xx" : null,
    );
    const bad = { messageId: "bad", body: JSON.stringify({ kind: "platformFrames", shard: 99, frames: [] }) };
    let out: Awaited<ReturnType<typeof handler>>;
    try {
      out = await handler({ Records: [bad, ...records(jobs).Records] });
    } finally {
      faults.remove();
    }
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: failing.MessageId }]);
    for (const s of socks) expect(framesTo(s.id)).toBe(shardOf(s.id) === shardOfMessage(failing) ? 0 : 1);
    // Redelivered: the failing shard's job now posts; the other one posts its shard a second time, and no more.
    expect((await handler(records([failing, again]))).batchItemFailures).toEqual([]);
    for (const s of ofShard(failing)) expect(framesTo(s.id)).toBe(1);
    for (const s of ofShard(again)) expect(framesTo(s.id)).toBe(2);
    expect(w.capture.frames.find((f) => f.event.endsWith("-announcement"))?.data).toEqual({ action: "create", record: res.body });
  });
});
