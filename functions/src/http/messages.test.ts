import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { api, makeUser, type TestUser, multipartBody } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, useLocalAws, type World } from "../../../test/world.ts";
import { nowIso } from "../../../shared/src/common.ts";
import { resetConfig } from "../../../shared/src/config.ts";
import { keys } from "../../../shared/src/db/keys.ts";
import { readDailyCounters } from "../../../shared/src/db/counters.ts";
import { settleDeferred } from "../../../shared/src/events/index.ts";
import { localDayHour } from "../../../shared/src/events/outbox.ts";
import { companyTimeZone } from "../../../shared/src/companies/service.ts";
import { getMessage, getMessageById, ingestMessage, updateMessage } from "../../../shared/src/messages/repository.ts";
import { DELETED_MESSAGE_PREVIEW, MessageItem } from "../../../shared/src/messages/schema.ts";
import { mediaTypeOf } from "../../../shared/src/messages/service.ts";
import { mediaKey, putMedia } from "../../../shared/src/storage/media.ts";
import { getTicket } from "../../../shared/src/tickets/service.ts";
import type { TicketItem } from "../../../shared/src/tickets/schema.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp, setSetting } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { greetingOfDay, zonedParts } from "../../../shared/src/automation/variables.ts";
import { DEFAULT_SCHEDULES } from "../../../shared/src/queues/schema.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";

const aws = useLocalAws({ sqs: true });
const world = companyWorld({ queues: ["Fila 1"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }, {}], other: true });
let capture: World["capture"];
let cid: number;
let admin: TestUser;
let agent: TestUser;
let outsider: TestUser;
let other: { companyId: number; admin: TestUser };
let q1: number;
let wa: number;

const drain = (whatsappId = wa) => drainCommands(whatsappId);

async function inbound(
  ticket: TicketItem,
  id: string,
  body: string,
  at = nowIso(),
  remoteJid = "5511999990000@s.whatsapp.net",
  extra: Partial<MessageItem> = {},
): Promise<MessageItem> {
  const now = nowIso();
  const { createdAt: _c, updatedAt: _u, ...m } = MessageItem.parse({
    ...extra,
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

beforeAll(() => {
  ({ capture, cid, admin, wa, other } = world);
  [q1] = world.queues;
  [agent, outsider] = world.agents;
});

beforeEach(async () => {
  await drain();
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
    const commands = await drain();
    expect(commands).toEqual([expect.objectContaining({ type: "send", companyId: cid, whatsappId: wa, ticketId: ticket.id, messageId: res.body.id })]);
    expect((await getTicket(cid, ticket.id))?.lastMessage).toBe(res.body.body);
  });

  it("cuts an agent's long text to the ticket list's preview length, as a customer's, when sent and when edited", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact: await makeContact(cid, "Preview Longo") });
    const long = "a".repeat(65_536);
    const sent = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: long } });
    expect(sent.status).toBe(200);
    expect(sent.body.body).toBe(`*Ana:*\n${long}`);
    const preview = (await getTicket(cid, ticket.id))!.lastMessage;
    expect(preview.length).toBe(1_000);
    expect(preview).toBe(`*Ana:*\n${long}`.slice(0, 1_000));
    const listed = await api("GET", "/api/tickets?status=open", { token: agent.token });
    expect(listed.body.tickets.find((t: any) => t.id === ticket.id).lastMessage).toBe(preview);
    await drain();
    const edited = await api("POST", `/api/messages/edit/${sent.body.id}`, { token: agent.token, body: { body: "b".repeat(65_536) } });
    expect(edited.status).toBe(200);
    const afterEdit = (await getTicket(cid, ticket.id))!.lastMessage;
    expect(afterEdit.length).toBe(1_000);
    expect(afterEdit).toBe(`*Ana:*\n${"b".repeat(65_536)}`.slice(0, 1_000));
    await drain();
  });

  it("renders an agent's variables in the company's time zone (Tokyo), not São Paulo's", async () => {
    const c = await world.fresh({ agents: [{ queues: [0], name: "Bia" }], other: false });
    const zone = await api("PUT", `/api/companies/${c.cid}/schedules`, { token: c.admin.token, body: { schedules: DEFAULT_SCHEDULES, timezone: "Asia/Tokyo" } });
    expect(zone.status).toBe(200);
    const [q, w, bia] = [c.queues[0], c.wa, c.agents[0]];
    const ticket = await makeTicket(c.cid, { whatsappId: w, queueId: q, status: "open", userId: bia.id, contact: await makeContact(c.cid, "Maria Clara") });
    const before = new Date();
    const res = await api("POST", `/api/messages/${ticket.id}`, { token: bia.token, body: { body: "{{ms}}, {{firstName}}! São {{hora}}.", signMessage: false } });
    const after = new Date();
    expect(res.status).toBe(200);
    const [, greeting, hour] = /^(.+), Maria! São (\d\d):\d\d:\d\d\.$/.exec(res.body.body) ?? [];
    // Tokyo is 12 hours ahead of São Paulo: its hour and greeting of the day never match São Paulo's.
    expect([before, after].map((d) => greetingOfDay(d, "Asia/Tokyo"))).toContain(greeting);
    expect([before, after].map((d) => zonedParts(d, "Asia/Tokyo").hour)).toContain(hour);
    expect([before, after].map((d) => zonedParts(d, "America/Sao_Paulo").hour)).not.toContain(hour);
    await drain(w);
  });

  it("counts an agent's sent message on the ticket and in the day's messagesOut of the company and the agent, a customer's on the ticket", async () => {
    const c = await world.fresh({ agents: [{ queues: [0], name: "Bia" }], other: false });
    const [q, w, bia] = [c.queues[0], c.wa, c.agents[0]];
    const ticket = await makeTicket(c.cid, { whatsappId: w, queueId: q, status: "open", userId: bia.id });
    // The company's local days (São Paulo's by default), not UTC's: between 00:00 and 03:00 UTC they differ.
    const zone = await companyTimeZone(c.cid);
    const localDay = () => localDayHour(new Date().toISOString(), zone).day;
    const day = localDay();
    await inbound(ticket, "3EB0COUNTIN000001", "bom dia");
    const res = await api("POST", `/api/messages/${ticket.id}`, { token: bia.token, body: { body: "Bom dia! Como posso ajudar?" } });
    expect(res.status).toBe(200);
    await settleDeferred();
    const days = [...new Set([day, localDay()])];
    const sum = async (userId?: number) => (await Promise.all(days.map((d) => readDailyCounters(c.cid, d, userId)))).reduce((a, x) => a + x.messagesOut, 0);
    expect(await sum()).toBe(1);
    expect(await sum(bia.id)).toBe(1);
    expect(await getTicket(c.cid, ticket.id)).toMatchObject({ messagesIn: 1, messagesOut: 1 });
    await drain(w);
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
    expect(await drain(down.id)).toEqual([]);
  });

  it("marks the message failed when the command cannot be enqueued", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = `${aws.sqs.sessionCommandsPrefix}-missing`;
    resetConfig();
    try {
      const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "sem fila" } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_SENDING_WAPP_MSG");
      expect((await getMessageById(cid, res.body.message.id))?.ack).toBe(-1);
    } finally {
      process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = aws.sqs.sessionCommandsPrefix;
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
    expect(await drain()).toEqual([]);
  });

  it("uploads media to the company's storage and serves it through a short-lived URL", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const { rawBody, contentType } = multipartBody([{ name: "foto.png", type: "image/png", data: png }]);
    const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, rawBody, contentType });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ mediaType: "image", body: "foto.png", ack: 0 });
    expect(res.body[0].mediaKey.startsWith(`media/${cid}/${ticket.id}/`)).toBe(true);
    const commands = await drain();
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

  it("serves a customer's html or svg file as a download that never opens as a page; images, audio and video open inline", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const files = [
      { id: "HTMLBOLETO1", name: "boleto.html", mime: "text/html", data: "<html><body><form>Pague aqui</form></body></html>" },
      { id: "SVGLOGO1", name: "logo.svg", mime: "image/svg+xml", data: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' },
      { id: "XMLNOTA1", name: "nota.xml", mime: "application/xml", data: "<nota/>" },
      { id: "FOTOPNG1", name: "foto.png", mime: "image/png", data: "png" },
      { id: "AUDIOOGG1", name: "", mime: "audio/ogg; codecs=opus", data: "ogg" },
    ];
    for (const f of files) {
      const key = mediaKey(cid, ticket.id, f.id);
      // The object is stored with the type the customer's phone announced.
      await putMedia(key, Buffer.from(f.data), f.mime);
      const m = await inbound(ticket, f.id, "");
      await updateMessage(cid, ticket.id, m.id, { mediaKey: key, mediaMime: f.mime, mediaName: f.name || null, mediaType: mediaTypeOf(f.mime) });
    }
    const list = (await api("GET", `/api/messages/${ticket.id}`, { token: agent.token })).body.messages as { id: string; mediaUrl: string }[];
    const served = async (url: string) => {
      const res = await fetch(url);
      await res.arrayBuffer();
      return { type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition") };
    };
    for (const f of files.slice(0, 3)) {
      const linked = await api("GET", `/api/media/${f.id}`, { token: agent.token });
      for (const url of [linked.body.url, list.find((m) => m.id === f.id)!.mediaUrl]) {
        expect(await served(url)).toEqual({ type: "application/octet-stream", disposition: `attachment; filename="${f.name}"` });
      }
    }
    expect(await served(list.find((m) => m.id === "FOTOPNG1")!.mediaUrl)).toEqual({ type: "image/png", disposition: 'inline; filename="foto.png"' });
    expect(await served(list.find((m) => m.id === "AUDIOOGG1")!.mediaUrl)).toEqual({ type: "audio/ogg", disposition: "inline" });
  });

  it("refuses an 11th file in one upload (400) and sends none of them; ten go out", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const files = (n: number) => Array.from({ length: n }, (_x, i) => ({ name: `nota-${i + 1}.txt`, type: "text/plain", data: Buffer.from(`nota ${i + 1}`) }));
    const eleven = multipartBody(files(11));
    const refused = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, ...eleven });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "ERR_VALIDATION", fields: [{ path: "medias", message: "At most 10 files" }] });
    expect(await drain()).toEqual([]);
    expect((await api("GET", `/api/messages/${ticket.id}`, { token: agent.token })).body.messages).toEqual([]);
    const ten = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, ...multipartBody(files(10)) });
    expect(ten.status).toBe(200);
    expect(ten.body.map((m: any) => m.body).sort()).toEqual(files(10).map((f) => f.name).sort());
    expect(await drain()).toHaveLength(10);
  });

  it("answers 400 for a multipart body without files", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const { rawBody, contentType } = multipartBody([], { body: "só texto" });
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
    const reads = (await drain()).filter((c) => c.type === "read");
    expect(reads).toHaveLength(1);
    expect(reads[0].messageIds).toHaveLength(20);
    const second = await api("GET", `/api/messages/${ticket.id}?cursor=${first.body.nextCursor}`, { token: agent.token });
    expect(second.body.messages.map((m: any) => m.body)).toEqual(["msg 0", "msg 1", "msg 2"]);
    expect(second.body.hasMore).toBe(false);
    const byPage = await api("GET", `/api/messages/${ticket.id}?pageNumber=2`, { token: agent.token });
    expect(byPage.body.messages.map((m: any) => m.body)).toEqual(["msg 0", "msg 1", "msg 2"]);
  });

  it("peek (an admin looking at a waiting ticket) reads the page and changes nothing: still pending, unread, no receipts", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "pending" });
    await inbound(ticket, `IN-peek-${ticket.id}-1`, "alguém aí?");
    await inbound((await getTicket(cid, ticket.id))!, `IN-peek-${ticket.id}-2`, "preciso de ajuda");
    await drain();
    const seen = await api("GET", `/api/messages/${ticket.id}?peek=true`, { token: admin.token });
    expect(seen.status).toBe(200);
    expect(seen.body.messages.map((m: any) => [m.body, m.read])).toEqual([
      ["alguém aí?", false],
      ["preciso de ajuda", false],
    ]);
    expect(await getTicket(cid, ticket.id)).toMatchObject({ status: "pending", userId: null, unreadMessages: 2 });
    expect((await drain()).filter((c) => c.type === "read")).toEqual([]);
    // Another company's admin peeking sees nothing; a bad flag is refused.
    expect((await api("GET", `/api/messages/${ticket.id}?peek=true`, { token: other.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/messages/${ticket.id}?peek=maybe`, { token: admin.token })).status).toBe(400);
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
    await drain();
    const res = await api("POST", `/api/messages/edit/${sent.body.id}`, { token: agent.token, body: { body: "certo" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ body: "certo", previousBody: "errado", isEdited: true });
    expect(await drain()).toEqual([expect.objectContaining({ type: "edit", messageId: sent.body.id, body: "certo" })]);
    const theirs = await inbound(ticket, `IN-edit-${ticket.id}`, "do cliente");
    expect((await api("POST", `/api/messages/edit/${theirs.id}`, { token: agent.token, body: { body: "mudado" } })).status).toBe(403);
    expect((await api("POST", `/api/messages/edit/${sent.body.id}`, { token: other.admin.token, body: { body: "hack" } })).status).toBe(404);
    expect((await api("POST", `/api/messages/edit/${sent.body.id}`, { token: agent.token, body: {} })).status).toBe(400);
    expect((await getMessageById(cid, sent.body.id))?.body).toBe("certo");
  });

  it("deletes only the caller's own messages", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const sent = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "apagar" } });
    await drain();
    expect((await api("DELETE", `/api/messages/${sent.body.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await getMessageById(cid, sent.body.id))?.isDeleted).toBe(false);
    const res = await api("DELETE", `/api/messages/${sent.body.id}`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.isDeleted).toBe(true);
    expect(await drain()).toEqual([expect.objectContaining({ type: "delete", messageId: sent.body.id })]);
    const theirs = await inbound(ticket, `IN-del-${ticket.id}`, "do cliente");
    expect((await api("DELETE", `/api/messages/${theirs.id}`, { token: agent.token })).status).toBe(403);
  });

  it("refuses editing or deleting a colleague's sent message; admins may", async () => {
    const colleague = await makeUser(cid, { queueIds: [q1], name: "Bia" });
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const sent = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "meu texto", signMessage: false } });
    await drain();
    expect((await api("POST", `/api/messages/edit/${sent.body.id}`, { token: colleague.token, body: { body: "alterado" } })).status).toBe(403);
    expect((await api("DELETE", `/api/messages/${sent.body.id}`, { token: colleague.token })).status).toBe(403);
    expect(await drain()).toEqual([]);
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
    expect(await drain()).toEqual([expect.objectContaining({ type: "react", messageId: theirs.id, emoji: "👍" })]);
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
    expect(await drain()).toEqual([expect.objectContaining({ type: "send", messageId: res.body.id })]);
    expect((await api("POST", "/api/message/forward", { token: other.admin.token, body: { messageId: theirs.id, contactId: target.id } })).status).toBe(404);
    expect((await api("POST", "/api/message/forward", { token: agent.token, body: { messageId: theirs.id } })).status).toBe(400);
  });
});

describe("the ticket list's preview and the signature after edits and deletes", () => {
  it("a deleted newest message leaves 'Esta mensagem foi apagada' on the ticket, live in the frame and after a reload", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const sock = await registerSocket(cid, { id: agent.id, profile: "user", queueIds: [q1] });
    await inbound(ticket, `IN-prev-${ticket.id}`, "primeira");
    const sent = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "segredo enviado" } });
    await drain();
    expect((await getTicket(cid, ticket.id))?.lastMessage).toBe("*Ana:*\nsegredo enviado");
    const before = await getTicket(cid, ticket.id);
    capture.clear();
    expect((await api("DELETE", `/api/messages/${sent.body.id}`, { token: agent.token })).status).toBe(200);
    const after = await getTicket(cid, ticket.id);
    expect(after?.lastMessage).toBe(DELETED_MESSAGE_PREVIEW);
    expect(after?.updatedAt).toBe(before?.updatedAt); // the list order stays
    const frame = capture.frames.find((f) => f.connectionId === sock && f.event === `company-${cid}-appMessage` && f.data.message?.id === sent.body.id);
    expect(frame?.data.ticket.lastMessage).toBe("Esta mensagem foi apagada");
    const list = await api("GET", `/api/tickets?status=open&showAll=true`, { token: admin.token });
    expect(list.body.tickets.find((t: any) => t.id === ticket.id)?.lastMessage).toBe("Esta mensagem foi apagada");
  });

  it("deleting an older message leaves the newest message's preview alone", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const old = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "antiga", signMessage: false } });
    await inbound(ticket, `IN-new-${ticket.id}`, "a mais nova", new Date(Date.now() + 1000).toISOString());
    await drain();
    expect((await api("DELETE", `/api/messages/${old.body.id}`, { token: agent.token })).status).toBe(200);
    expect((await getTicket(cid, ticket.id))?.lastMessage).toBe("a mais nova");
  });

  it("an edit keeps the original's signature and the preview follows the new text", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const sent = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "Olá! Tudo bem?" } });
    expect(sent.body.body).toBe("*Ana:*\nOlá! Tudo bem?");
    await drain();
    const res = await api("POST", `/api/messages/edit/${sent.body.id}`, { token: agent.token, body: { body: "Olá! Como posso ajudar?" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ body: "*Ana:*\nOlá! Como posso ajudar?", previousBody: "*Ana:*\nOlá! Tudo bem?", isEdited: true });
    expect(await drain()).toEqual([expect.objectContaining({ type: "edit", body: "*Ana:*\nOlá! Como posso ajudar?" })]);
    expect((await getTicket(cid, ticket.id))?.lastMessage).toBe("*Ana:*\nOlá! Como posso ajudar?");
    // Text that already carries the signature is not signed twice; an unsigned original stays unsigned.
    const again = await api("POST", `/api/messages/edit/${sent.body.id}`, { token: agent.token, body: { body: "*Ana:*\nTchau" } });
    expect(again.body.body).toBe("*Ana:*\nTchau");
    const plain = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "sem assinatura", signMessage: false } });
    const edited = await api("POST", `/api/messages/edit/${plain.body.id}`, { token: agent.token, body: { body: "ainda sem" } });
    expect(edited.body.body).toBe("ainda sem");
  });
});

describe("GET /api/messages/{ticketId}/earlier: the contact's earlier conversation", () => {
  it("pages the earlier tickets' messages newest ticket first, each page oldest to newest, marked by ticket", async () => {
    const contact = await makeContact(cid, "Cliente Antigo");
    const base = Date.parse("2026-02-01T10:00:00.000Z");
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const first = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });
    for (let i = 0; i < 3; i++) await inbound(first, `E1-${first.id}-${i}`, `primeiro ${i}`, at(i));
    await api("PUT", `/api/tickets/${first.id}`, { token: agent.token, body: { status: "closed" } });
    const second = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });
    expect(second.id).not.toBe(first.id);
    for (let i = 0; i < 22; i++) await inbound(second, `E2-${second.id}-${i}`, `segundo ${i}`, at(100 + i));
    await api("PUT", `/api/tickets/${second.id}`, { token: agent.token, body: { status: "closed" } });
    const empty = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });
    await api("PUT", `/api/tickets/${empty.id}`, { token: agent.token, body: { status: "closed" } });
    const current = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });
    await inbound(current, `E3-${current.id}`, "voltei", at(500));

    const p1 = await api("GET", `/api/messages/${current.id}/earlier`, { token: agent.token });
    expect(p1.status).toBe(200);
    expect(p1.body.messages.map((m: any) => m.body)).toEqual(Array.from({ length: 20 }, (_x, i) => `segundo ${i + 2}`));
    expect(new Set(p1.body.messages.map((m: any) => m.ticketId))).toEqual(new Set([second.id]));
    expect(p1.body.hasMore).toBe(true);
    const p2 = await api("GET", `/api/messages/${current.id}/earlier?cursor=${p1.body.nextCursor}`, { token: agent.token });
    expect(p2.body.messages.map((m: any) => m.body)).toEqual(["segundo 0", "segundo 1"]);
    expect(p2.body.hasMore).toBe(true);
    const p3 = await api("GET", `/api/messages/${current.id}/earlier?cursor=${p2.body.nextCursor}`, { token: agent.token });
    expect(p3.body.messages.map((m: any) => [m.body, m.ticketId])).toEqual([0, 1, 2].map((i) => [`primeiro ${i}`, first.id]));
    expect(p3.body.hasMore).toBe(false);
    // The first ticket has nothing before it; reading never zeroes the earlier tickets' state.
    expect((await api("GET", `/api/messages/${first.id}/earlier`, { token: agent.token })).body).toEqual({ messages: [], hasMore: false });
  });

  it("skips the earlier tickets the agent may not see: another queue's, and a colleague's closed ones while viewclosed is disabled", async () => {
    const colleague = await makeUser(cid, { queueIds: [q1], name: "Colega" });
    const q2 = (await makeQueue(cid)).id;
    const contact = await makeContact(cid, "Cliente de Várias Filas");
    const close = async (t: TicketItem) => expect((await api("PUT", `/api/tickets/${t.id}`, { token: admin.token, body: { status: "closed" } })).status).toBe(200);
    const own = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });
    await inbound(own, `V1-${own.id}`, "meu atendimento antigo");
    await close(own);
    const foreignQueue = await makeTicket(cid, { whatsappId: wa, queueId: q2, status: "open", userId: admin.id, contact });
    await inbound(foreignQueue, `V2-${foreignQueue.id}`, "assunto da outra fila");
    const withMedia = await inbound(foreignQueue, `V2m-${foreignQueue.id}`, "contrato.pdf", nowIso(), undefined, {
      mediaKey: `media/${cid}/${foreignQueue.id}/contrato.pdf`,
      mediaType: "application",
      mediaName: "contrato.pdf",
    });
    expect(withMedia.mediaKey).toBeTruthy();
    await close(foreignQueue);
    const colleagues = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: colleague.id, contact });
    await inbound(colleagues, `V3-${colleagues.id}`, "conversa fechada da colega");
    await close(colleagues);
    const current = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });

    await setSetting(cid, "viewclosed", "disabled");
    const hidden = await api("GET", `/api/messages/${current.id}/earlier`, { token: agent.token });
    expect(hidden.status).toBe(200);
    expect(hidden.body.messages.map((m: any) => [m.body, m.ticketId])).toEqual([["meu atendimento antigo", own.id]]);
    expect(hidden.body.hasMore).toBe(false);
    const text = JSON.stringify(hidden.body);
    for (const secret of ["outra fila", "contrato", "colega"]) expect(text).not.toContain(secret);
    // A cursor forged to point straight at the other queue's ticket shows nothing of it either.
    const forged = Buffer.from(JSON.stringify({ tk: foreignQueue.id, sk: keys.ticketEdgeSK(foreignQueue.createdAt, foreignQueue.id) })).toString("base64url");
    const viaCursor = await api("GET", `/api/messages/${current.id}/earlier?cursor=${forged}`, { token: agent.token });
    expect(viaCursor.body.messages.map((m: any) => m.body)).toEqual(["meu atendimento antigo"]);
    expect(JSON.stringify(viaCursor.body)).not.toContain("contrato");
    expect(JSON.stringify(viaCursor.body)).not.toContain("outra fila");

    await setSetting(cid, "viewclosed", "enabled");
    const pages: string[] = [];
    let cursor = "";
    for (let i = 0; i < 5; i++) {
      const r = await api("GET", `/api/messages/${current.id}/earlier${cursor ? `?cursor=${cursor}` : ""}`, { token: agent.token });
      pages.push(...r.body.messages.map((m: any) => m.body));
      if (!r.body.hasMore) break;
      cursor = r.body.nextCursor;
    }
    expect(pages).toEqual(["conversa fechada da colega", "meu atendimento antigo"]);
    // The admin sees every queue.
    const all = await api("GET", `/api/messages/${current.id}/earlier?cursor=${forged}`, { token: admin.token });
    expect(all.body.messages.map((m: any) => m.body)).toEqual(["assunto da outra fila", "contrato.pdf"]);
    await setSetting(cid, "viewclosed", "disabled");
  });

  it("is refused to another company (404), to an agent who may not see the current ticket (403), and to tampered cursors (400)", async () => {
    const contact = await makeContact(cid, "Cliente Sigiloso");
    const old = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });
    await inbound(old, `S1-${old.id}`, "dado sigiloso");
    await api("PUT", `/api/tickets/${old.id}`, { token: agent.token, body: { status: "closed" } });
    const current = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id, contact });
    expect((await api("GET", `/api/messages/${current.id}/earlier`, { token: agent.token })).body.messages.map((m: any) => m.body)).toEqual(["dado sigiloso"]);
    const foreign = await api("GET", `/api/messages/${current.id}/earlier`, { token: other.admin.token });
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain("sigiloso");
    const outside = await api("GET", `/api/messages/${current.id}/earlier`, { token: outsider.token });
    expect(outside.status).toBe(403);
    expect(JSON.stringify(outside.body)).not.toContain("sigiloso");
    // Another company's user with a ticket of its own, pointing the cursor at our ticket: refused.
    const owa = (await makeWhatsapp(other.companyId)).id;
    const theirs = await makeTicket(other.companyId, { whatsappId: owa, status: "open", userId: other.admin.id });
    const stolen = Buffer.from(JSON.stringify({ tk: old.id, sk: `T#${old.createdAt}#${String(old.id).padStart(12, "0")}` })).toString("base64url");
    const r = await api("GET", `/api/messages/${theirs.id}/earlier?cursor=${stolen}`, { token: other.admin.token });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("ERR_INVALID_CURSOR");
    // Our own user, a cursor naming another contact's ticket: refused too.
    const stranger = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const wrong = Buffer.from(JSON.stringify({ tk: stranger.id, sk: `T#${stranger.createdAt}#${String(stranger.id).padStart(12, "0")}` })).toString("base64url");
    expect((await api("GET", `/api/messages/${current.id}/earlier?cursor=${wrong}`, { token: agent.token })).body.error).toBe("ERR_INVALID_CURSOR");
    expect((await api("GET", `/api/messages/${current.id}/earlier?cursor=notbase64json`, { token: agent.token })).status).toBe(400);
  });
});

describe("forward to a ticket the caller may not see", () => {
  it("refuses (409, saying who holds it and in which queue) and sends nothing when the contact's open ticket is in another queue", async () => {
    const q2 = (await makeQueue(cid)).id;
    const holder = await makeUser(cid, { queueIds: [q2] });
    const target = await makeContact(cid, "Fila alheia");
    const hidden = await makeTicket(cid, { whatsappId: wa, queueId: q2, status: "open", userId: holder.id, contact: target });
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const theirs = await inbound(ticket, `IN-fwd-hidden-${ticket.id}`, "não repassar");
    const res = await api("POST", "/api/message/forward", { token: agent.token, body: { messageId: theirs.id, contactId: target.id } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("ERR_OTHER_OPEN_TICKET");
    expect(res.body.ticket).toMatchObject({ id: hidden.id, userId: holder.id, queueId: q2, user: { id: holder.id }, queue: { id: q2 } });
    // Nothing of a ticket the agent may not open: no uuid, contact or messages.
    expect(Object.keys(res.body.ticket).sort()).toEqual(["id", "queue", "queueId", "status", "user", "userId", "whatsappId"]);
    expect(await drain()).toEqual([]);
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
