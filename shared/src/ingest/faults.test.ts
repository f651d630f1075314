/**
 * Proof against DynamoDB Local that inbound messages are never dropped. DynamoDB fails (throttling, 5xx,
 * transaction conflicts) for the first calls of a burst of 200 messages from 20 customers; what the in-process retries
 * cannot store is parked and re-driven, and in the end every message is stored exactly once, in order per chat, and
 * reached the agent's socket. Retries wait on a controlled clock (no real waiting, no timing assertions).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { registerSocket, startRealtimeCapture } from "../users/realtime-capture.testkit.ts";
import { shardOf } from "../whatsapp/commands.ts";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { injectDdbFaults, type FaultKind } from "./faults.testkit.ts";
import { handleBaileysEvent, redriveParked, type IngestContext } from "./index.ts";
import { dueParked, heldCount, retryOptions } from "./parking.ts";
import { freshCompanyId, storedState } from "./testkit.ts";

let capture: Awaited<ReturnType<typeof startRealtimeCapture>>;
const realSleep = retryOptions.sleep;
/** The controlled clock: every backoff the retries ask for is recorded and returns at once. */
const waited: number[] = [];
beforeAll(async () => {
  capture = await startRealtimeCapture();
  retryOptions.sleep = async (ms) => void waited.push(ms);
});
afterEach(() => {
  waited.length = 0;
});
afterAll(async () => {
  retryOptions.sleep = realSleep;
  await capture?.stop();
});

const KINDS: FaultKind[] = ["throttle", "5xx", "conflict"];
const LATER = () => Date.now() + 24 * 3600_000;

function burst(customers: number, perCustomer: number, base = 1767366000) {
  const out: { chat: string; id: string; body: string; msg: unknown }[] = [];
  for (let k = 0; k < customers * perCustomer; k++) {
    const c = k % customers;
    const chat = `55119${String(80000000 + c).padStart(8, "0")}@s.whatsapp.net`;
    const id = `3EB0FAULT${String(k).padStart(11, "0")}`;
    const body = `cliente ${c} mensagem ${Math.floor(k / customers)}`;
    out.push({ chat, id, body, msg: { key: { remoteJid: chat, fromMe: false, id }, message: { conversation: body }, messageTimestamp: base + k, pushName: `Cliente ${c}` } });
  }
  return out;
}

describe("inbound under DynamoDB faults", () => {
  it("stores all 200 messages of 20 customers exactly once, in order per chat, and tells the agent, after throttling, 5xx and conflicts", async () => {
    const ctx: IngestContext = { companyId: freshCompanyId(), whatsappId: 3 };
    const socket = await registerSocket(ctx.companyId, { id: 1, profile: "admin" });
    const sent = burst(20, 10);
    // The first 600 DynamoDB calls fail two times out of three, cycling through the three kinds of failure.
    const faults = injectDdbFaults(({ n }) => (n < 600 && n % 3 !== 2 ? KINDS[n % 3] : null));
    const reasons: string[] = [];
    for (let b = 0; b < sent.length; b += 10) {
      const r = await handleBaileysEvent(ctx, "messages.upsert", { messages: sent.slice(b, b + 10).map((s) => s.msg), type: "notify" });
      reasons.push(...r.skipped.map((s) => s.reason));
    }
    faults.remove();
    expect(faults.failed).toBeGreaterThan(300);
    // Some messages could not be stored while DynamoDB failed: they were parked, not dropped.
    const parked = reasons.filter((r) => r.startsWith("parked for re-drive")).length;
    expect(parked).toBeGreaterThan(0);
    expect((await storedState(ctx.companyId)).messages.length).toBeLessThan(200);
    expect(waited.length).toBeGreaterThan(0);

    // The owner of the shard re-drives what is due (the clock moved a day on).
    const shard = shardOf(ctx.whatsappId);
    let redriven = 0;
    for (let pass = 0; pass < 3; pass++) redriven += (await redriveParked({ shards: [shard], now: LATER() })).stored;
    expect(redriven).toBe(parked);
    expect(await dueParked(shard, LATER())).toEqual([]);
    expect(heldCount()).toBe(0);

    const st = await storedState(ctx.companyId);
    expect(st.messages.map((m) => m.id).sort()).toEqual(sent.map((s) => s.id).sort());
    expect(st.contacts).toHaveLength(20);
    expect(st.tickets).toHaveLength(20);
    for (const t of st.tickets) {
      expect(t.unreadMessages).toBe(10);
      const chat = st.messages.filter((m) => m.ticketId === t.id);
      // In order per chat: the ticket's messages, as the conversation lists them, are the customer's in sending order.
      expect(chat.map((m) => m.body)).toEqual(sent.filter((s) => s.chat === chat[0].remoteJid).map((s) => s.body));
    }
    const created = capture.frames.filter((f) => f.connectionId === socket && f.event === `company-${ctx.companyId}-appMessage` && f.data.action === "create");
    expect(new Set(created.map((f) => f.data.message.id))).toEqual(new Set(sent.map((s) => s.id)));
  }, 240_000);

  it("stores each message exactly once when DynamoDB applied a write but its answer was lost and the write is retried", async () => {
    const ctx: IngestContext = { companyId: freshCompanyId(), whatsappId: 4 };
    const socket = await registerSocket(ctx.companyId, { id: 1, profile: "admin" });
    const sent = burst(5, 4, 1767370000);
    // Every other transaction (new tickets and the messages' own) is applied, then answers a 5xx: the ingest sees an
    // error and writes again what is already stored.
    let transactions = 0;
    const faults = injectDdbFaults(({ command }) => (command.startsWith("TransactWrite") && transactions++ % 2 === 0 ? "lostAnswer" : null));
    for (const s of sent) await handleBaileysEvent(ctx, "messages.upsert", { messages: [s.msg], type: "notify" });
    faults.remove();
    expect(faults.failed).toBeGreaterThanOrEqual(sent.length / 2);

    const st = await storedState(ctx.companyId);
    expect(st.messages.map((m) => m.id).sort()).toEqual(sent.map((s) => s.id).sort());
    expect(st.contacts).toHaveLength(5);
    expect(st.tickets).toHaveLength(5);
    // Each customer's 4 messages are counted once: unread badge and the ticket's own count.
    expect(st.tickets.map((t) => [t.unreadMessages, t.messagesIn])).toEqual(st.tickets.map(() => [4, 4]));
    // The agent is told of every message once: a try that finds its own earlier store (answer lost) still publishes it.
    const created = capture.frames.filter((f) => f.connectionId === socket && f.event === `company-${ctx.companyId}-appMessage` && f.data.action === "create");
    expect(created.map((f) => f.data.message.id).sort()).toEqual(sent.map((s) => s.id).sort());
  }, 120_000);

  it("keeps an unreadable message raw for inspection instead of skipping it silently", async () => {
    const ctx: IngestContext = { companyId: freshCompanyId(), whatsappId: 5 };
    const r = await handleBaileysEvent(ctx, "messages.upsert", { messages: [{ key: "not a key", message: 42 }], type: "notify" });
    expect(r.skipped).toEqual([{ reason: "unreadable message" }]);
    const out = await ddb().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": `INDEAD#C#${ctx.companyId}#5` } }),
    );
    expect(out.Items).toHaveLength(1);
    expect(out.Items![0]).toMatchObject({ reason: "unreadable message", companyId: ctx.companyId });
    expect(JSON.parse(out.Items![0].raw)).toEqual({ key: "not a key", message: 42 });
  });
});
