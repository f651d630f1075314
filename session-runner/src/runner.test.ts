/**
 * Session runner with the simulated WhatsApp network, the real FIFO command queues (fauxqs) and DynamoDB Local:
 * pairing through a QR, inbound messages and media through `/sim`, idempotent sends, receipts,
 * disconnects, the reconnect table, and a runner killed mid-burst.
 */
import { createServer, type Server } from "node:http";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { proto, type WAMessage } from "@whiskeysockets/baileys";
import { enqueue } from "@atende/shared/sqs/enqueue";
import { commandQueueUrl, sendSessionCommand, shardOf } from "@atende/shared/whatsapp/commands";
import { getWhatsappItem } from "@atende/shared/whatsapp/repository";
import { createWhatsapp, startWhatsappSession } from "@atende/shared/whatsapp/service";
import { companyWorld } from "../../test/world.ts";
import { loadCreds } from "./auth-state.ts";
import { startLocalRunner, type LocalRunner } from "./local.ts";
import type { MessageStorePort } from "./ports.ts";
import { memoryStore, recordingIngest } from "./testing/fakes.ts";
import { eventually, registerSocket, startQueues, type Queues } from "./testing/harness.ts";

const companies = companyWorld();

let queues: Queues;
const running: LocalRunner[] = [];
let server: Server;
let base = "";
let current: LocalRunner | undefined;

beforeAll(async () => {
  queues = await startQueues();
  server = createServer(async (req, res) => {
    if (!current || !(await current.handleSim(req, res))) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
  current = undefined;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await queues.stop();
});

async function startRunner(opts: { ingest?: ReturnType<typeof recordingIngest>; store?: MessageStorePort; receiptDelayMs?: number } = {}) {
  const r = await startLocalRunner({
    sim: { receiptDelayMs: opts.receiptDelayMs ?? 20, qrIntervalMs: 60000 },
    runner: {
      ...(opts.ingest ? { ingest: opts.ingest.port } : {}),
      ...(opts.store ? { store: opts.store } : {}),
      consumer: { waitSeconds: 1, visibilitySeconds: 2, retryDelaySeconds: 1 },
      sessions: { backoffBaseMs: 20, backoffCapMs: 200 },
      claimMs: 3000,
    },
  });
  running.push(r);
  current = r;
  return r;
}

async function sim(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** A company with one connection whose `start` command is queued; returns ids and the admin. */
async function connection() {
  const { cid: companyId, admin } = await companies.fresh();
  const w = await createWhatsapp({ companyId, admin: true }, { name: "Atendimento" });
  return { companyId, admin, whatsappId: w.id };
}

/** Starts a runner, waits for the QR and scans it. */
async function connected(opts: Parameters<typeof startRunner>[0] = {}, number = "5511999990000") {
  const c = await connection();
  const r = await startRunner(opts);
  await eventually(async () => (await getWhatsappItem(c.companyId, c.whatsappId))?.status === "qrcode");
  const scan = await sim("POST", `/sim/whatsapp/${c.whatsappId}/scan`, { number });
  expect(scan).toEqual({ status: 200, body: { number } });
  return { ...c, r };
}

describe("pairing", () => {
  it("shows a QR after start and becomes CONNECTED with the scanned number, telling the company's admins", async () => {
    const c = await connection();
    const sock = await registerSocket(c.companyId, c.admin.id, "admin");
    await startRunner();
    const qr = await eventually(async () => {
      const w = await getWhatsappItem(c.companyId, c.whatsappId);
      return w?.status === "qrcode" ? w.qrcode : "";
    });
    expect(qr.split(",").length).toBeGreaterThanOrEqual(4);
    expect(companies.capture.frames.some((f) => f.connectionId === sock && f.event === `company-${c.companyId}-whatsappSession` && f.data.session.qrcode === qr)).toBe(true);

    const scan = await sim("POST", `/sim/whatsapp/${c.whatsappId}/scan`, { number: "5511988887777" });
    expect(scan.body).toEqual({ number: "5511988887777" });
    const w = await getWhatsappItem(c.companyId, c.whatsappId);
    expect(w).toMatchObject({ status: "CONNECTED", number: "5511988887777", qrcode: "" });
    expect(companies.capture.frames.some((f) => f.connectionId === sock && f.data.session?.status === "CONNECTED")).toBe(true);
  });

  it("resumes a paired connection without a new QR when the runner restarts", async () => {
    const c = await connected();
    await c.r.stop();
    running.splice(running.indexOf(c.r), 1);
    await startRunner();
    await eventually(() => current!.runner.sessions.get(c.whatsappId)?.isOpen);
    expect((await getWhatsappItem(c.companyId, c.whatsappId))?.status).toBe("CONNECTED");
  });

  it("reports CONNECTED again when asked to start a session that is already open", async () => {
    const c = await connected();
    await startWhatsappSession({ companyId: c.companyId, admin: true }, c.whatsappId);
    expect((await getWhatsappItem(c.companyId, c.whatsappId))?.status).toBe("OPENING");
    await eventually(async () => (await getWhatsappItem(c.companyId, c.whatsappId))?.status === "CONNECTED");
    expect((await getWhatsappItem(c.companyId, c.whatsappId))?.number).toBe("5511999990000");
  });

  it("refuses to scan when no QR is shown", async () => {
    const c = await connected();
    const again = await sim("POST", `/sim/whatsapp/${c.whatsappId}/scan`, {});
    expect(again).toMatchObject({ status: 409, body: { error: "ERR_NO_QR" } });
  });
});

describe("inbound", () => {
  it("forwards a contact's text to the ingest port as a valid WAMessage in messages.upsert notify", async () => {
    const ingest = recordingIngest();
    const c = await connected({ ingest });
    const res = await sim("POST", `/sim/whatsapp/${c.whatsappId}/messages`, { from: "5511900000001", pushName: "Ana", text: "Olá" });
    expect(res.status).toBe(200);
    const upsert = ingest.seen.find((s) => s.event === "messages.upsert" && s.data.type === "notify");
    expect(upsert?.ctx).toMatchObject({ companyId: c.companyId, whatsappId: c.whatsappId });
    const msg = upsert!.data.messages[0] as WAMessage;
    // A real WAMessage: it round-trips through WhatsApp's own protobuf encoding.
    const decoded = proto.WebMessageInfo.decode(proto.WebMessageInfo.encode(msg).finish());
    expect(decoded.message?.conversation).toBe("Olá");
    expect(msg.key).toMatchObject({ remoteJid: "5511900000001@s.whatsapp.net", fromMe: false, id: res.body.id });
    expect(msg.message?.conversation).toBe("Olá");
    expect(msg.pushName).toBe("Ana");
  });

  it("serves inbound media that Baileys' downloadMediaMessage decrypts to the very bytes sent", async () => {
    const ingest = recordingIngest();
    const c = await connected({ ingest });
    const bytes = randomBytes(48 * 1024 + 7);
    const res = await sim("POST", `/sim/whatsapp/${c.whatsappId}/messages`, {
      from: "5511900000002",
      image: bytes.toString("base64"),
      mimetype: "image/jpeg",
      caption: "foto",
    });
    expect(res.status).toBe(200);
    const d = ingest.downloads.find((x) => x.id === res.body.id);
    expect(d?.mimetype).toBe("image/jpeg");
    expect(d?.bytes?.equals(bytes)).toBe(true);
    const msg = ingest.seen.find((s) => s.event === "messages.upsert")!.data.messages[0] as WAMessage;
    expect(msg.message?.imageMessage?.caption).toBe("foto");
    expect(msg.message?.imageMessage?.mediaKey?.length).toBe(32);
  });

  it("emits raw events as given, reviving Buffers, and reports what the ingest skipped without failing", async () => {
    const ingest = recordingIngest();
    const c = await connected({ ingest });
    const fixture = JSON.parse(readFileSync(new URL("../../../shared/fixtures/wa/message-status/messages-update-status-read-lid.json", import.meta.url), "utf8"));
    const ok = await sim("POST", `/sim/whatsapp/${c.whatsappId}/events`, { event: fixture.event, data: fixture.payload });
    expect(ok).toEqual({ status: 200, body: { handled: true, skipped: [] } });
    expect(ingest.seen.at(-1)).toMatchObject({ event: "messages.update", data: fixture.payload });

    const withBuffer = await sim("POST", `/sim/whatsapp/${c.whatsappId}/events`, {
      event: "messages.media-update",
      data: [{ key: { id: "X" }, media: { ciphertext: { type: "Buffer", data: Buffer.from("abc").toString("base64") }, iv: { type: "Buffer", data: "AAAA" } } }],
    });
    expect(withBuffer.status).toBe(200);
    expect(Buffer.isBuffer(ingest.seen.at(-1)!.data[0].media.ciphertext)).toBe(true);

    const junk = await sim("POST", `/sim/whatsapp/${c.whatsappId}/events`, { event: "chats.update", data: { nonsense: true } });
    expect(junk).toEqual({ status: 200, body: { handled: true, skipped: [{ reason: "invalid chats.update payload" }] } });
  });
});

describe("outbound", () => {
  it("sends a command delivered twice only once, with the stored id, and sets ack 1", async () => {
    const ingest = recordingIngest();
    const mem = memoryStore();
    const c = await connected({ ingest, store: mem.store });
    const m = mem.add(c.companyId, c.whatsappId, "*Admin:*\nBom dia");
    const commandId = randomUUID();
    const cmd = { commandId, type: "send", companyId: c.companyId, whatsappId: c.whatsappId, ticketId: 1, messageId: m.id };
    // Two deliveries of the same command (SQS is at-least-once): different dedupe ids so FIFO dedupe does not hide the second.
    await enqueue(commandQueueUrl(shardOf(c.whatsappId)), cmd, { groupId: String(c.whatsappId), dedupeId: randomUUID() });
    await enqueue(commandQueueUrl(shardOf(c.whatsappId)), cmd, { groupId: String(c.whatsappId), dedupeId: randomUUID() });
    const marker = await sendSessionCommand({ type: "read", companyId: c.companyId, whatsappId: c.whatsappId, remoteJid: m.remoteJid, messageIds: ["X1"] });
    expect(marker).toBeTruthy();
    await eventually(() => current!.network!.reads(c.whatsappId).length === 1);
    const sent = (await sim("GET", `/sim/whatsapp/${c.whatsappId}/sent`)).body;
    expect(sent).toEqual([{ id: m.id, jid: "5511900000001@s.whatsapp.net", content: { text: "*Admin:*\nBom dia" }, at: expect.any(String) }]);
    expect(mem.messages.get(m.id)!.ack).toBeGreaterThanOrEqual(1);
    expect(mem.published.some((p) => p.id === m.id && p.ack === 1)).toBe(true);
  });

  it("delivers receipts 2, 3 and 4 to the ingest port as messages.update", async () => {
    const ingest = recordingIngest();
    const mem = memoryStore();
    const c = await connected({ ingest, store: mem.store });
    const m = mem.add(c.companyId, c.whatsappId, "Oi");
    await sendSessionCommand({ type: "send", companyId: c.companyId, whatsappId: c.whatsappId, ticketId: 1, messageId: m.id });
    const statuses = () =>
      ingest.seen.filter((s) => s.event === "messages.update").flatMap((s) => s.data.filter((u: any) => u.key.id === m.id).map((u: any) => u.update.status));
    await eventually(() => statuses().length === 3);
    expect(statuses()).toEqual([2, 3, 4]);
    const echo = ingest.seen.find((s) => s.event === "messages.upsert" && s.data.type === "append");
    expect(echo?.data.messages[0].key).toMatchObject({ id: m.id, fromMe: true });
  });

  it("drives receipts by hand after automatic receipts are turned off", async () => {
    const ingest = recordingIngest();
    const mem = memoryStore();
    const c = await connected({ ingest, store: mem.store });
    expect((await sim("POST", `/sim/whatsapp/${c.whatsappId}/receipts`, { auto: false })).body).toEqual({ auto: false });
    const m = mem.add(c.companyId, c.whatsappId, "Manual");
    await sendSessionCommand({ type: "send", companyId: c.companyId, whatsappId: c.whatsappId, ticketId: 1, messageId: m.id });
    await eventually(async () => (await sim("GET", `/sim/whatsapp/${c.whatsappId}/sent`)).body.length === 1);
    await current!.runner.sessions.get(c.whatsappId)!.idle();
    expect(ingest.seen.some((s) => s.event === "messages.update")).toBe(false);
    const r = await sim("POST", `/sim/whatsapp/${c.whatsappId}/receipts`, { id: m.id, status: 3 });
    expect(r.status).toBe(200);
    const upd = ingest.seen.filter((s) => s.event === "messages.update");
    expect(upd.map((s) => s.data[0].update.status)).toEqual([3]);
  });

  it("edits, reacts to and deletes a sent message and sends read receipts for inbound ones", async () => {
    const mem = memoryStore();
    const c = await connected({ store: mem.store, ingest: recordingIngest() });
    const m = mem.add(c.companyId, c.whatsappId, "Primeiro texto", { ack: 1 });
    const base = { companyId: c.companyId, whatsappId: c.whatsappId, ticketId: 1, messageId: m.id };
    await sendSessionCommand({ ...base, type: "edit", body: "Texto corrigido" });
    await sendSessionCommand({ ...base, type: "react", emoji: "👍" });
    await sendSessionCommand({ ...base, type: "delete" });
    await sendSessionCommand({ companyId: c.companyId, whatsappId: c.whatsappId, type: "read", remoteJid: m.remoteJid, messageIds: ["IN1", "IN2"] });
    const key = { remoteJid: m.remoteJid, fromMe: true, id: m.id };
    const sent = await eventually(async () => {
      const list = (await sim("GET", `/sim/whatsapp/${c.whatsappId}/sent`)).body;
      return list.length === 3 ? list : null;
    });
    expect(sent.map((x: any) => x.content)).toEqual([{ text: "Texto corrigido", edit: key }, { react: { text: "👍", key } }, { delete: key }]);
    await eventually(() => current!.network!.reads(c.whatsappId).length === 2);
    expect(current!.network!.reads(c.whatsappId).map((k) => k.id)).toEqual(["IN1", "IN2"]);
  });

  it("sends media stored in S3 as a real media message", async () => {
    const mem = memoryStore();
    const c = await connected({ store: mem.store, ingest: recordingIngest() });
    const pdf = randomBytes(5000);
    mem.media.set("media/x/doc.pdf", pdf);
    const m = mem.add(c.companyId, c.whatsappId, "", { mediaType: "application", mediaKey: "media/x/doc.pdf", mediaMime: "application/pdf", mediaName: "boleto.pdf" });
    await sendSessionCommand({ type: "send", companyId: c.companyId, whatsappId: c.whatsappId, ticketId: 1, messageId: m.id });
    const sent = await eventually(async () => (await sim("GET", `/sim/whatsapp/${c.whatsappId}/sent`)).body[0]);
    expect(sent.content).toMatchObject({ mimetype: "application/pdf", fileName: "boleto.pdf", document: { type: "Buffer" } });
    expect(Buffer.from(sent.content.document.data, "base64").equals(pdf)).toBe(true);
  });
});

describe("session lifecycle", () => {
  it("logs out on disconnect: status DISCONNECTED, pairing wiped, no more inbound", async () => {
    const c = await connected();
    await sendSessionCommand({ type: "disconnect", companyId: c.companyId, whatsappId: c.whatsappId });
    await eventually(async () => (await getWhatsappItem(c.companyId, c.whatsappId))?.status === "DISCONNECTED");
    expect(await loadCreds(c.whatsappId)).toBeNull();
    const res = await sim("POST", `/sim/whatsapp/${c.whatsappId}/messages`, { from: "5511900000001", text: "alô?" });
    expect(res).toMatchObject({ status: 409, body: { error: "ERR_WAPP_NOT_INITIALIZED" } });
  });

  it("reconnects after a dropped connection (428) and wipes the pairing when logged out from the phone (401)", async () => {
    const c = await connected();
    const s = current!.runner.sessions.get(c.whatsappId)!;
    const drop = await sim("POST", `/sim/whatsapp/${c.whatsappId}/events`, {
      event: "connection.update",
      data: { connection: "close", lastDisconnect: { error: { output: { statusCode: 428 } }, date: new Date().toISOString() } },
    });
    expect(drop.body.handled).toBe(true);
    await s.waitFor((x) => x.isOpen);
    // The status item is written just after the socket opens.
    await eventually(async () => (await getWhatsappItem(c.companyId, c.whatsappId))?.status === "CONNECTED");

    await sim("POST", `/sim/whatsapp/${c.whatsappId}/events`, {
      event: "connection.update",
      data: { connection: "close", lastDisconnect: { error: { output: { statusCode: 401 } }, date: new Date().toISOString() } },
    });
    await eventually(async () => (await getWhatsappItem(c.companyId, c.whatsappId))?.status === "DISCONNECTED");
    await eventually(async () => (await loadCreds(c.whatsappId)) === null); // the pairing is wiped
  });

  it("shows a new QR after newQr, even for a paired connection", async () => {
    const c = await connected();
    await sendSessionCommand({ type: "newQr", companyId: c.companyId, whatsappId: c.whatsappId });
    await eventually(async () => (await getWhatsappItem(c.companyId, c.whatsappId))?.status === "qrcode");
    expect(await loadCreds(c.whatsappId)).toBeNull();
    const scan = await sim("POST", `/sim/whatsapp/${c.whatsappId}/scan`, { number: "5511977776666" });
    expect(scan.body).toEqual({ number: "5511977776666" });
  });
});

describe("crash safety", () => {
  it("loses no command when the runner is killed mid-burst and another one takes over", async () => {
    const mem = memoryStore();
    const c = await connected({ store: mem.store, ingest: recordingIngest(), receiptDelayMs: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const m = mem.add(c.companyId, c.whatsappId, `msg ${i}`);
      ids.push(m.id);
      await sendSessionCommand({ type: "send", companyId: c.companyId, whatsappId: c.whatsappId, ticketId: 1, messageId: m.id });
    }
    const network = current!.network!;
    await eventually(() => network.sent(c.whatsappId).length >= 3);
    await c.r.runner.kill();
    // The next runner shares the simulated network (the phones) and the queues; the killed one acknowledges nothing more.
    const next = await startLocalRunnerOnNetwork(network, mem.store);
    await eventually(() => ids.every((id) => network.sent(c.whatsappId).some((s) => s.id === id)), 20000);
    const sentIds = network.sent(c.whatsappId).map((s) => s.id);
    expect(new Set(sentIds).size).toBe(sentIds.length);
    expect(sentIds).toEqual(ids);
    await next.stop();
  });
});

/** A second runner on an existing simulated network (the first one "died"). */
async function startLocalRunnerOnNetwork(network: NonNullable<LocalRunner["network"]>, store: MessageStorePort) {
  const { Runner } = await import("./runner.ts");
  const all = Array.from({ length: 16 }, (_, n) => n);
  const runner = new Runner({
    transport: network.transport(),
    shards: () => all,
    store,
    ingest: recordingIngest().port,
    consumer: { waitSeconds: 1, visibilitySeconds: 2, retryDelaySeconds: 1 },
    sessions: { backoffBaseMs: 20, backoffCapMs: 200 },
    claimMs: 3000,
  });
  await runner.start();
  return runner;
}
