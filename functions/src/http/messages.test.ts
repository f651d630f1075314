import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { api, makeCompany, makeUser, type TestUser } from "../../../test/helpers.ts";
import { startS3, type S3Handle } from "../../../infra/local/src/s3.ts";
import { startSqs, type SqsHandle } from "../../../infra/local/src/sqs.ts";
import { nowIso } from "../../../shared/src/common.ts";
import { resetConfig } from "../../../shared/src/config.ts";
import { getMessage, getMessageById, ingestMessage, updateMessage } from "../../../shared/src/messages/repository.ts";
import { MessageItem } from "../../../shared/src/messages/schema.ts";
import { resetSqs, sqsClient } from "../../../shared/src/sqs/enqueue.ts";
import { resetS3 } from "../../../shared/src/storage/media.ts";
import { getTicket } from "../../../shared/src/tickets/service.ts";
import type { TicketItem } from "../../../shared/src/tickets/schema.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { registerSocket, startRealtimeCapture } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { commandQueueUrl, shardOf } from "../../../shared/src/whatsapp/commands.ts";

let sqs: SqsHandle;
let s3: S3Handle;
let s3Dir: string;
let capture: Awaited<ReturnType<typeof startRealtimeCapture>>;
let cid: number;
let admin: TestUser;
let agent: TestUser;
let outsider: TestUser;
let other: { companyId: number; admin: TestUser };
let q1: number;
let wa: number;

/** Receives (and deletes) every command waiting on the connection's shard queue. */
async function drainCommands(whatsappId = wa): Promise<any[]> {
  const url = commandQueueUrl(shardOf(whatsappId));
  const out: any[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!res.Messages?.length) break;
    for (const m of res.Messages) {
      out.push(JSON.parse(m.Body!));
      await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return out;
}

async function inbound(ticket: TicketItem, id: string, body: string, at = nowIso(), remoteJid = "5511999990000@s.whatsapp.net"): Promise<MessageItem> {
  const now = nowIso();
  const { createdAt: _c, updatedAt: _u, ...m } = MessageItem.parse({
    id,
    ticketId: ticket.id,
    companyId: ticket.companyId,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    remoteJid,
    body,
    fromMe: false,
    waTimestamp: at,
    createdAt: now,
    updatedAt: now,
  });
  return (await ingestMessage(ticket.companyId, ticket, m, { lastMessage: body, incrementUnread: true, waAliasJid: m.remoteJid })).message;
}

function multipart(files: { name: string; type: string; data: Buffer }[], fields: Record<string, string> = {}) {
  const boundary = "----atendeTestBoundary42";
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`));
    parts.push(f.data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { rawBody: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

beforeAll(async () => {
  process.env.SESSION_SHARDS = "2";
  sqs = await startSqs({ region: "us-east-1", shards: 2 });
  process.env.AWS_ENDPOINT_URL_SQS = sqs.endpoint;
  process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = sqs.sessionCommandsPrefix;
  s3Dir = mkdtempSync(join(tmpdir(), "atende-s3-"));
  process.env.MEDIA_BUCKET = "atende-media-test";
  s3 = await startS3({ directory: s3Dir, bucket: "atende-media-test", origins: ["http://localhost"], accessKeyId: process.env.AWS_ACCESS_KEY_ID });
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  resetConfig();
  resetSqs();
  resetS3();
  capture = await startRealtimeCapture();
  const c = await makeCompany();
  cid = c.companyId;
  admin = c.admin;
  q1 = (await makeQueue(cid)).id;
  wa = (await makeWhatsapp(cid)).id;
  agent = await makeUser(cid, { queueIds: [q1], name: "Ana" });
  outsider = await makeUser(cid, { queueIds: [] });
  other = await makeCompany();
});

afterAll(async () => {
  await capture?.stop();
  await sqs?.stop();
  await s3?.stop();
  rmSync(s3Dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await drainCommands();
  capture.clear();
});

describe("POST /api/messages/{ticketId}", () => {
  it("stores the message unsent with the signature and variables, and enqueues the send", async () => {
    const contact = await makeContact(cid, "Maria Clara");
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });
    const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "Olá {{firstName}}, protocolo {{protocol}}" } });
    expect(res.status).toBe(200);
    expect(res.body.ack).toBe(0);
    expect(res.body.fromMe).toBe(true);
    expect(res.body.userId).toBe(agent.id);
    expect(res.body.body).toMatch(/^\*Ana:\*\nOlá Maria, protocolo \d{14}\d+$/);
    expect(res.body.body.endsWith(String(ticket.id))).toBe(true);
    const commands = await drainCommands();
    expect(commands).toEqual([expect.objectContaining({ type: "send", companyId: cid, whatsappId: wa, ticketId: ticket.id, messageId: res.body.id })]);
    expect((await getTicket(cid, ticket.id))?.lastMessage).toBe(res.body.body);
  });

  it("sends without the signature when signMessage is false", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "sem assinatura", signMessage: false } });
    expect(res.body.body).toBe("sem assinatura");
  });

  it("marks the message failed and answers ERR_SENDING_WAPP_MSG when the connection is down", async () => {
    const down = await makeWhatsapp(cid, { status: "DISCONNECTED", isDefault: false });
    const ticket = await makeTicket(cid, { whatsappId: down.id, queueId: q1, status: "open", userId: agent.id });
    const sock = await registerSocket(cid, { id: agent.id, profile: "user", queueIds: [q1] });
    const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "vai falhar" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("ERR_SENDING_WAPP_MSG");
    const stored = await getMessageById(cid, res.body.message.id);
    expect(stored).toMatchObject({ ack: -1, body: "*Ana:*\nvai falhar" });
    expect(stored?.sendError).toBeTruthy();
    const updates = capture.frames.filter((f) => f.connectionId === sock && f.event === `company-${cid}-appMessage` && f.data.action === "update");
    expect(updates.at(-1)?.data.message.ack).toBe(-1);
    expect(await drainCommands(down.id)).toEqual([]);
  });

  it("marks the message failed when the command cannot be enqueued", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = `${sqs.sessionCommandsPrefix}-missing`;
    resetConfig();
    try {
      const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "sem fila" } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_SENDING_WAPP_MSG");
      expect((await getMessageById(cid, res.body.message.id))?.ack).toBe(-1);
    } finally {
      process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = sqs.sessionCommandsPrefix;
      resetConfig();
    }
  });

  it("refuses other companies, agents outside the queue, and malformed bodies without storing anything", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    expect((await api("POST", `/api/messages/${ticket.id}`, { token: other.admin.token, body: { body: "x" } })).status).toBe(404);
    expect((await api("POST", `/api/messages/${ticket.id}`, { token: outsider.token, body: { body: "x" } })).status).toBe(403);
    expect((await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: 42 } })).status).toBe(400);
    expect((await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "   " } })).status).toBe(400);
    expect((await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: "{oops" })).body.error).toBe("ERR_INVALID_JSON");
    expect((await api("GET", `/api/messages/${ticket.id}`, { token: agent.token })).body.messages).toEqual([]);
    expect(await drainCommands()).toEqual([]);
  });

  it("uploads media to the company's storage and serves it through a short-lived URL", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const { rawBody, contentType } = multipart([{ name: "foto.png", type: "image/png", data: png }]);
    const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, rawBody, contentType });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ mediaType: "image", body: "foto.png", ack: 0 });
    expect(res.body[0].mediaKey.startsWith(`media/${cid}/${ticket.id}/`)).toBe(true);
    const commands = await drainCommands();
    expect(commands.map((c) => c.messageId)).toEqual([res.body[0].id]);
    const media = await api("GET", `/api/media/${res.body[0].id}`, { token: agent.token });
    expect(media.status).toBe(200);
    const fetched = await fetch(media.body.url);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(png)).toBe(true);
    const list = await api("GET", `/api/messages/${ticket.id}`, { token: agent.token });
    expect(list.body.messages[0].mediaUrl).toMatch(/^http/);
    expect((await api("GET", `/api/media/${res.body[0].id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/media/${res.body[0].id}`, { token: outsider.token })).status).toBe(403);
  });

  it("answers 400 for a multipart body without files", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const { rawBody, contentType } = multipart([], { body: "só texto" });
    expect((await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, rawBody, contentType })).status).toBe(400);
  });
});

describe("GET /api/messages/{ticketId}", () => {
  it("pages newest first, oldest to newest within a page, and zeroes unread with read receipts", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const base = Date.parse("2026-01-01T10:00:00.000Z");
    let t = ticket;
    for (let i = 0; i < 23; i++) await inbound(t, `IN-${ticket.id}-${i}`, `msg ${i}`, new Date(base + i * 1000).toISOString());
    t = (await getTicket(cid, ticket.id))!;
    expect(t.unreadMessages).toBe(23);
    const first = await api("GET", `/api/messages/${ticket.id}`, { token: agent.token });
    expect(first.status).toBe(200);
    expect(first.body.messages.map((m: any) => m.body)).toEqual(Array.from({ length: 20 }, (_x, i) => `msg ${i + 3}`));
    expect(first.body.hasMore).toBe(true);
    expect(first.body.ticket.id).toBe(ticket.id);
    expect(first.body.ticket.unreadMessages).toBe(0);
    expect((await getTicket(cid, ticket.id))?.unreadMessages).toBe(0);
    const reads = (await drainCommands()).filter((c) => c.type === "read");
    expect(reads).toHaveLength(1);
    expect(reads[0].messageIds).toHaveLength(20);
    const second = await api("GET", `/api/messages/${ticket.id}?cursor=${first.body.nextCursor}`, { token: agent.token });
    expect(second.body.messages.map((m: any) => m.body)).toEqual(["msg 0", "msg 1", "msg 2"]);
    expect(second.body.hasMore).toBe(false);
    const byPage = await api("GET", `/api/messages/${ticket.id}?pageNumber=2`, { token: agent.token });
    expect(byPage.body.messages.map((m: any) => m.body)).toEqual(["msg 0", "msg 1", "msg 2"]);
  });

  it("refuses another company (404) and an agent outside the queue (403)", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1 });
    await inbound(ticket, `IN-x-${ticket.id}`, "segredo");
    expect((await api("GET", `/api/messages/${ticket.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/messages/${ticket.id}`, { token: outsider.token })).status).toBe(403);
    expect((await getTicket(cid, ticket.id))?.unreadMessages).toBe(1);
    const foreignCursor = Buffer.from(JSON.stringify({ PK: `C#${other.companyId}#TK#1`, SK: "M#x" })).toString("base64url");
    expect((await api("GET", `/api/messages/${ticket.id}?cursor=${foreignCursor}`, { token: admin.token })).body.error).toBe("ERR_INVALID_CURSOR");
  });
});

describe("edit, delete, react, forward", () => {
  it("edits only the caller's own messages, keeping the previous text", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const sent = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "errado", signMessage: false } });
    await drainCommands();
    const res = await api("POST", `/api/messages/edit/${sent.body.id}`, { token: agent.token, body: { body: "certo" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ body: "certo", previousBody: "errado", isEdited: true });
    expect(await drainCommands()).toEqual([expect.objectContaining({ type: "edit", messageId: sent.body.id, body: "certo" })]);
    const theirs = await inbound(ticket, `IN-edit-${ticket.id}`, "do cliente");
    expect((await api("POST", `/api/messages/edit/${theirs.id}`, { token: agent.token, body: { body: "mudado" } })).status).toBe(403);
    expect((await api("POST", `/api/messages/edit/${sent.body.id}`, { token: other.admin.token, body: { body: "hack" } })).status).toBe(404);
    expect((await api("POST", `/api/messages/edit/${sent.body.id}`, { token: agent.token, body: {} })).status).toBe(400);
    expect((await getMessageById(cid, sent.body.id))?.body).toBe("certo");
  });

  it("deletes only the caller's own messages", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const sent = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "apagar" } });
    await drainCommands();
    expect((await api("DELETE", `/api/messages/${sent.body.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await getMessageById(cid, sent.body.id))?.isDeleted).toBe(false);
    const res = await api("DELETE", `/api/messages/${sent.body.id}`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.isDeleted).toBe(true);
    expect(await drainCommands()).toEqual([expect.objectContaining({ type: "delete", messageId: sent.body.id })]);
    const theirs = await inbound(ticket, `IN-del-${ticket.id}`, "do cliente");
    expect((await api("DELETE", `/api/messages/${theirs.id}`, { token: agent.token })).status).toBe(403);
  });

  it("refuses editing or deleting a colleague's sent message; admins may", async () => {
    const colleague = await makeUser(cid, { queueIds: [q1], name: "Bia" });
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const sent = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "meu texto", signMessage: false } });
    await drainCommands();
    expect((await api("POST", `/api/messages/edit/${sent.body.id}`, { token: colleague.token, body: { body: "alterado" } })).status).toBe(403);
    expect((await api("DELETE", `/api/messages/${sent.body.id}`, { token: colleague.token })).status).toBe(403);
    expect(await drainCommands()).toEqual([]);
    expect(await getMessageById(cid, sent.body.id)).toMatchObject({ body: "meu texto", isDeleted: false, isEdited: false });
    const res = await api("POST", `/api/messages/edit/${sent.body.id}`, { token: admin.token, body: { body: "corrigido" } });
    expect(res.status).toBe(200);
    expect((await api("DELETE", `/api/messages/${sent.body.id}`, { token: admin.token })).status).toBe(200);
  });

  it("stores a reaction on the target message and enqueues it", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const theirs = await inbound(ticket, `IN-react-${ticket.id}`, "bom dia");
    const res = await api("POST", `/api/messages/${theirs.id}/reactions`, { token: agent.token, body: { type: "👍" } });
    expect(res.body.error).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body.reactions).toEqual([expect.objectContaining({ emoji: "👍", fromMe: true })]);
    expect(await drainCommands()).toEqual([expect.objectContaining({ type: "react", messageId: theirs.id, emoji: "👍" })]);
    expect((await api("POST", `/api/messages/${theirs.id}/reactions`, { token: other.admin.token, body: { type: "👎" } })).status).toBe(404);
    expect((await api("POST", `/api/messages/${theirs.id}/reactions`, { token: agent.token, body: {} })).status).toBe(400);
  });

  it("forwards a message to another contact's ticket", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const theirs = await inbound(ticket, `IN-fwd-${ticket.id}`, "repassar isto");
    const target = await makeContact(cid, "Destino");
    const res = await api("POST", "/api/message/forward", { token: agent.token, body: { messageId: theirs.id, contactId: target.id, signMessage: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ body: "repassar isto", isForwarded: true, fromMe: true });
    expect(res.body.ticketId).not.toBe(ticket.id);
    const newTicket = await getTicket(cid, res.body.ticketId);
    expect(newTicket).toMatchObject({ contactId: target.id, status: "open", userId: agent.id });
    expect(await drainCommands()).toEqual([expect.objectContaining({ type: "send", messageId: res.body.id })]);
    expect((await api("POST", "/api/message/forward", { token: other.admin.token, body: { messageId: theirs.id, contactId: target.id } })).status).toBe(404);
    expect((await api("POST", "/api/message/forward", { token: agent.token, body: { messageId: theirs.id } })).status).toBe(400);
  });
});

describe("forward to a ticket the caller may not see", () => {
  it("refuses (403) and sends nothing when the contact's open ticket is in another queue, held by someone else", async () => {
    const q2 = (await makeQueue(cid)).id;
    const holder = await makeUser(cid, { queueIds: [q2] });
    const target = await makeContact(cid, "Fila alheia");
    const hidden = await makeTicket(cid, { whatsappId: wa, queueId: q2, status: "open", userId: holder.id, contact: target });
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const theirs = await inbound(ticket, `IN-fwd-hidden-${ticket.id}`, "não repassar");
    const res = await api("POST", "/api/message/forward", { token: agent.token, body: { messageId: theirs.id, contactId: target.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect(await drainCommands()).toEqual([]);
    const list = await api("GET", `/api/messages/${hidden.id}`, { token: holder.token });
    expect(list.body.messages).toEqual([]);
    // An admin may forward there.
    expect((await api("POST", "/api/message/forward", { token: admin.token, body: { messageId: theirs.id, contactId: target.id } })).status).toBe(200);
  });
});

describe("a message id reused by another chat", () => {
  it("keeps the first message reachable by id and each ticket's own copy addressable", async () => {
    const q2 = (await makeQueue(cid)).id;
    const mine = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const theirs = await makeTicket(cid, { whatsappId: wa, queueId: q2, status: "pending" });
    const id = `COLLIDE-${mine.id}`;
    await inbound(mine, id, "original");
    await inbound(theirs, id, "intruso", nowIso(), "5511988887777@s.whatsapp.net");
    const res = await api("POST", `/api/messages/${id}/reactions`, { token: agent.token, body: { type: "👍" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticketId: mine.id, body: "original" });
    expect(await getMessageById(cid, id)).toMatchObject({ ticketId: mine.id, body: "original" });
    expect(await getMessage(cid, theirs.id, id)).toMatchObject({ ticketId: theirs.id, body: "intruso", reactions: [] });
    expect((await updateMessage(cid, theirs.id, id, { read: true })).body).toBe("intruso");
  });
});

describe("ticket notes", () => {
  it("adds, lists and deletes notes of an accessible ticket", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1 });
    const created = await api("POST", "/api/ticket-notes", { token: agent.token, body: { note: "Cliente VIP", ticketId: ticket.id, contactId: ticket.contactId } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ note: "Cliente VIP", ticketId: ticket.id, user: { name: "Ana" } });
    const list = await api("GET", `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token: agent.token });
    expect(list.body.map((n: any) => n.note)).toEqual(["Cliente VIP"]);
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${ticket.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api("DELETE", `/api/ticket-notes/${created.body.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api("DELETE", `/api/ticket-notes/${created.body.id}`, { token: agent.token })).status).toBe(200);
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${ticket.id}`, { token: agent.token })).body).toEqual([]);
  });

  it("validates notes and keeps others' tickets closed to them", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1 });
    expect((await api("POST", "/api/ticket-notes", { token: agent.token, body: { note: "x", ticketId: ticket.id } })).status).toBe(400);
    expect((await api("POST", "/api/ticket-notes", { token: agent.token, body: { note: "ok ok" } })).status).toBe(400);
    expect((await api("POST", "/api/ticket-notes", { token: outsider.token, body: { note: "olá", ticketId: ticket.id } })).status).toBe(403);
    expect((await api("POST", "/api/ticket-notes", { token: other.admin.token, body: { note: "olá", ticketId: ticket.id } })).status).toBe(404);
    const mine = await api("POST", "/api/ticket-notes", { token: admin.token, body: { note: "do admin", ticketId: ticket.id } });
    expect((await api("DELETE", `/api/ticket-notes/${mine.body.id}`, { token: agent.token })).status).toBe(403);
  });
});
