/**
 * Quick messages through the real Lambda handlers: CRUD with validation, each profile's rights (a user's own and the
 * geral ones, admin-only geral, supervisor edits any), cross-company isolation on every route, realtime frames only to
 * those who may see the record, the media upload through the media port, and sending one into a ticket (its own copy
 * of the file, another company's quick message or key refused).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { api, multipartBody, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, useLocalAws } from "../../../test/world.ts";
import { headMedia, getMedia } from "../../../shared/src/storage/media.ts";
import { makeTicket } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { getQuickMessage } from "../../../shared/src/quickMessages/repository.ts";
import { QuickMessage, QuickMessageList, QuickMessagesPage } from "../../../shared/src/quickMessages/schema.ts";

useLocalAws({ sqs: true, bucket: "atende-quick-messages-test" });
const w = companyWorld({ queues: ["Suporte"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Bruno" }, { queues: [0], name: "Sofia", profile: "supervisor" }], other: true });
const ana = () => w.agents[0];
const bruno = () => w.agents[1];
const sofia = () => w.agents[2];

let n = 0;
/** A fresh shortcode (the tests share one company). */
const code = (base: string) => `${base}-${++n}`;
const create = (u: TestUser, body: Record<string, unknown>) => api("POST", "/api/quick-messages", { token: u.token, body });
const list = async (u: TestUser, query = "") => QuickMessageList.parse((await api("GET", "/api/quick-messages/list" + query, { token: u.token })).body);
const ids = (items: { id: number }[]) => items.map((m) => m.id);
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const upload = (u: TestUser, id: number, name = "minha foto.png", data = png, type = "image/png") =>
  api("POST", `/api/quick-messages/${id}/media-upload`, { token: u.token, ...multipartBody([{ field: "file", name, type, data }], { typeArch: "quickMessage" }) });

beforeEach(async () => {
  if (w.wa) await drainCommands(w.wa);
});

describe("POST /api/quick-messages", () => {
  it("creates a personal quick message owned by the caller, active and not geral by default, in the caller's company", async () => {
    const res = await create(ana(), { shortcode: " ola ", message: "Olá, {{name}}!", companyId: w.other.companyId, userId: w.admin.id });
    expect(res.status).toBe(200);
    expect(QuickMessage.parse(res.body)).toMatchObject({ companyId: w.cid, userId: ana().id, shortcode: "ola", message: "Olá, {{name}}!", geral: false, status: true, isMedia: false, mediaPath: null });
    expect(await getQuickMessage(w.other.companyId, res.body.id)).toBeUndefined();
  });

  it("validates the shortcode (required, 'Obrigatório') and the flags, writing nothing", async () => {
    const before = (await list(w.admin)).length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, "shortcode", "Obrigatório"],
      [{ shortcode: "   " }, "shortcode", "Obrigatório"],
      [{ shortcode: "x".repeat(101) }, "shortcode", "Too Long!"],
      [{ shortcode: "ok", geral: "talvez" }, "geral", ""],
      [{ shortcode: "ok", status: 3 }, "status", ""],
      [{ shortcode: "ok", message: 42 }, "message", ""],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(w.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      const field = res.body.fields.find((f: any) => f.path === path);
      expect(field, JSON.stringify(body)).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    expect((await api("PUT", "/api/quick-messages/abc", { token: w.admin.token, body: { shortcode: "x" } })).status).toBe(400);
    expect(await list(w.admin)).toHaveLength(before);
  });

  it("lets only admins make a quick message geral: a supervisor or a user gets 403 and nothing is written", async () => {
    const before = (await list(w.admin)).length;
    for (const u of [ana(), sofia()]) {
      const res = await create(u, { shortcode: code("geral"), geral: true });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
    }
    expect(await list(w.admin)).toHaveLength(before);
    const ok = await create(w.admin, { shortcode: code("geral"), geral: "true", status: false });
    expect(ok.body).toMatchObject({ geral: true, status: false, userId: w.admin.id });
  });
});

describe("who sees what", () => {
  it("a user sees the geral ones and their own; supervisor and admin see all; the list filters by owner, status and text", async () => {
    const mine = (await create(ana(), { shortcode: code("ana"), message: "Promoção de verão" })).body;
    const theirs = (await create(bruno(), { shortcode: code("bruno") })).body;
    const geral = (await create(w.admin, { shortcode: code("todos"), geral: true })).body;
    const adminOwn = (await create(w.admin, { shortcode: code("admin") })).body;
    const off = (await create(ana(), { shortcode: code("velha"), status: false })).body;

    const anaSees = ids(await list(ana()));
    expect(anaSees).toEqual(expect.arrayContaining([mine.id, geral.id, off.id]));
    expect(anaSees).not.toContain(theirs.id);
    expect(anaSees).not.toContain(adminOwn.id);
    for (const u of [sofia(), w.admin]) expect(ids(await list(u))).toEqual(expect.arrayContaining([mine.id, theirs.id, geral.id, adminOwn.id]));

    // The composer's list: the caller's own plus the geral ones, active only.
    const composer = ids(await list(w.admin, `?companyId=${w.cid}&userId=${w.admin.id}&status=true`));
    expect(composer).toEqual(expect.arrayContaining([geral.id, adminOwn.id]));
    expect(composer).not.toContain(mine.id);
    expect(ids(await list(ana(), `?userId=${ana().id}&status=true`))).not.toContain(off.id);
    expect(ids(await list(ana(), "?searchParam=PROMOCAO"))).toEqual([mine.id]);

    expect((await api("GET", `/api/quick-messages/${theirs.id}`, { token: ana().token })).body).toEqual({ error: "ERR_NO_QUICK_MESSAGE_FOUND" });
    expect(QuickMessage.parse((await api("GET", `/api/quick-messages/${theirs.id}`, { token: sofia().token })).body).id).toBe(theirs.id);
    expect((await api("GET", `/api/quick-messages/${geral.id}`, { token: ana().token })).status).toBe(200);
  });

  it("pages by shortcode with count and hasMore, only what the caller sees", async () => {
    const prefix = code("pagina");
    for (let i = 1; i <= 22; i++) await create(bruno(), { shortcode: `${prefix}-${String(i).padStart(2, "0")}` });
    const p1 = QuickMessagesPage.parse((await api("GET", `/api/quick-messages?searchParam=${prefix}`, { token: bruno().token })).body);
    expect(p1).toMatchObject({ count: 22, hasMore: true });
    expect(p1.records).toHaveLength(20);
    expect(p1.records[0].shortcode).toBe(`${prefix}-01`);
    const p2 = QuickMessagesPage.parse((await api("GET", `/api/quick-messages?searchParam=${prefix}&pageNumber=2`, { token: bruno().token })).body);
    expect(p2.records.map((r) => r.shortcode)).toEqual([`${prefix}-21`, `${prefix}-22`]);
    expect(p2.hasMore).toBe(false);
    expect((await api("GET", `/api/quick-messages?searchParam=${prefix}`, { token: ana().token })).body).toMatchObject({ records: [], count: 0 });
    expect((await api("GET", "/api/quick-messages?pageNumber=0", { token: ana().token })).status).toBe(400);
  });
});

describe("PUT and DELETE /api/quick-messages/{id}", () => {
  it("a user edits and deletes their own personal ones only; supervisor and admin any; only admins change geral", async () => {
    const mine = (await create(ana(), { shortcode: code("minha") })).body;
    const theirs = (await create(bruno(), { shortcode: code("dele") })).body;
    const geral = (await create(w.admin, { shortcode: code("geral"), geral: true, message: "original" })).body;

    const edited = await api("PUT", `/api/quick-messages/${mine.id}`, { token: ana().token, body: { message: "nova", status: false, geral: false } });
    expect(edited.body).toMatchObject({ id: mine.id, message: "nova", status: false, geral: false });
    expect((await api("PUT", `/api/quick-messages/${geral.id}`, { token: ana().token, body: { message: "x" } })).status).toBe(403);
    expect((await api("DELETE", `/api/quick-messages/${geral.id}`, { token: ana().token })).status).toBe(403);
    expect((await api("PUT", `/api/quick-messages/${theirs.id}`, { token: ana().token, body: { message: "x" } })).status).toBe(404);
    expect((await api("DELETE", `/api/quick-messages/${theirs.id}`, { token: ana().token })).status).toBe(404);
    expect((await api("PUT", `/api/quick-messages/${mine.id}`, { token: ana().token, body: { geral: true } })).body).toEqual({ error: "ERR_NO_PERMISSION" });

    expect((await api("PUT", `/api/quick-messages/${geral.id}`, { token: sofia().token, body: { message: "pela supervisora" } })).body.message).toBe("pela supervisora");
    expect((await api("PUT", `/api/quick-messages/${geral.id}`, { token: sofia().token, body: { geral: false } })).status).toBe(403);
    expect((await api("PUT", `/api/quick-messages/${theirs.id}`, { token: w.admin.token, body: { geral: true } })).body.geral).toBe(true);

    const stored = await getQuickMessage(w.cid, geral.id);
    expect(stored).toMatchObject({ message: "pela supervisora", geral: true });
    expect(await getQuickMessage(w.cid, mine.id)).toMatchObject({ message: "nova", status: false, geral: false });

    expect((await api("PUT", `/api/quick-messages/${mine.id}`, { token: ana().token, body: { shortcode: "" } })).status).toBe(400);
    expect((await getQuickMessage(w.cid, mine.id))?.shortcode).toBe(mine.shortcode);

    expect((await api("DELETE", `/api/quick-messages/${mine.id}`, { token: ana().token })).body).toEqual({ message: "Quick message deleted" });
    expect((await api("DELETE", `/api/quick-messages/${geral.id}`, { token: sofia().token })).status).toBe(200);
    expect(await getQuickMessage(w.cid, mine.id)).toBeUndefined();
    expect(await getQuickMessage(w.cid, geral.id)).toBeUndefined();
    expect((await api("GET", `/api/quick-messages/${mine.id}`, { token: ana().token })).status).toBe(404);
  });

  it("tells the owner and the managers about a personal one, and the whole company about a geral one", async () => {
    const adminSock = await registerSocket(w.cid, { id: w.admin.id, profile: "admin" });
    const anaSock = await registerSocket(w.cid, { id: ana().id, profile: "user" });
    const brunoSock = await registerSocket(w.cid, { id: bruno().id, profile: "user" });
    const sofiaSock = await registerSocket(w.cid, { id: sofia().id, profile: "supervisor" });
    const otherSock = await registerSocket(w.other.companyId, { id: w.other.admin.id, profile: "admin" });
    const event = `company-${w.cid}-quickmessage`;
    const receivers = () => w.capture.frames.filter((f) => f.event === event).map((f) => f.connectionId).sort();

    w.capture.clear();
    const personal = (await create(ana(), { shortcode: code("pessoal") })).body;
    expect(receivers()).toEqual([adminSock, anaSock, sofiaSock].sort());
    expect(w.capture.frames.find((f) => f.connectionId === anaSock)?.data).toEqual({ action: "create", record: personal });

    w.capture.clear();
    await api("DELETE", `/api/quick-messages/${personal.id}`, { token: ana().token });
    expect(receivers()).toEqual([adminSock, anaSock, sofiaSock].sort());
    expect(w.capture.frames[0].data).toEqual({ action: "delete", id: personal.id });

    w.capture.clear();
    const geral = (await create(w.admin, { shortcode: code("todos"), geral: true })).body;
    expect(receivers()).toEqual([adminSock, anaSock, brunoSock, sofiaSock].sort());
    expect(w.capture.frames.map((f) => f.connectionId)).not.toContain(otherSock);
    w.capture.clear();
    await api("PUT", `/api/quick-messages/${geral.id}`, { token: sofia().token, body: { message: "novo" } });
    expect(w.capture.frames.find((f) => f.connectionId === brunoSock)?.data).toMatchObject({ action: "update", record: { id: geral.id, message: "novo" } });

    // Made personal again: the users who may no longer see it drop it; the owner and the managers get the update.
    w.capture.clear();
    await api("PUT", `/api/quick-messages/${geral.id}`, { token: w.admin.token, body: { geral: false, message: "só da gestão" } });
    const got = (sock: string) => w.capture.frames.filter((f) => f.event === event && f.connectionId === sock).map((f) => f.data);
    for (const sock of [anaSock, brunoSock]) expect(got(sock)).toEqual([{ action: "delete", id: geral.id }]);
    for (const sock of [adminSock, sofiaSock]) expect(got(sock)).toEqual([expect.objectContaining({ action: "update", record: expect.objectContaining({ id: geral.id, geral: false }) })]);
    expect(got(otherSock)).toEqual([]);
  });
});

describe("another company", () => {
  it("gets 404 on every route for this company's quick messages, sees none of them, and changes nothing", async () => {
    const geral = (await create(w.admin, { shortcode: code("segredo"), geral: true, message: "interno" })).body;
    await upload(w.admin, geral.id);
    const stored = await getQuickMessage(w.cid, geral.id);
    const them = w.other.admin.token;
    const calls = [
      api("GET", `/api/quick-messages/${geral.id}`, { token: them }),
      api("PUT", `/api/quick-messages/${geral.id}`, { token: them, body: { message: "invasor" } }),
      api("DELETE", `/api/quick-messages/${geral.id}`, { token: them }),
      api("POST", `/api/quick-messages/${geral.id}/media-upload`, { token: them, ...multipartBody([{ field: "file", name: "x.png", type: "image/png", data: png }]) }),
      api("DELETE", `/api/quick-messages/${geral.id}/media-upload`, { token: them }),
    ];
    for (const res of await Promise.all(calls)) expect(res.body).toEqual({ error: "ERR_NO_QUICK_MESSAGE_FOUND" });
    expect(ids(await list(w.other.admin, `?companyId=${w.cid}`))).not.toContain(geral.id);
    expect(ids((await api("GET", "/api/quick-messages", { token: them })).body.records)).not.toContain(geral.id);
    expect(await getQuickMessage(w.cid, geral.id)).toEqual(stored);
    expect(await headMedia(stored!.mediaPath!)).not.toBeNull();
  });
});

describe("media", () => {
  it("stores the upload under the company and the quick message, spaces of its name as underscores, replacing and deleting the old file", async () => {
    const qm = (await create(ana(), { shortcode: code("foto") })).body;
    const res = await upload(ana(), qm.id);
    expect(res.status).toBe(200);
    const first = QuickMessage.parse(res.body);
    expect(first).toMatchObject({ isMedia: true, mediaName: "minha_foto.png", mediaMime: "image/png", mediaSize: png.length });
    expect(first.mediaPath).toMatch(new RegExp(`^media/${w.cid}/quick-messages/${qm.id}/[0-9a-f-]{36}\\.png$`));
    expect((await getMedia(first.mediaPath!)).equals(png)).toBe(true);

    const pdf = Buffer.from("%PDF-1.4 tabela");
    const second = QuickMessage.parse((await upload(ana(), qm.id, "tabela de preços.pdf", pdf, "application/pdf")).body);
    expect(second.mediaName).toBe("tabela_de_preços.pdf");
    expect(await headMedia(first.mediaPath!)).toBeNull();

    const cleared = QuickMessage.parse((await api("DELETE", `/api/quick-messages/${qm.id}/media-upload`, { token: ana().token })).body);
    expect(cleared).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null });
    expect(await headMedia(second.mediaPath!)).toBeNull();

    const third = QuickMessage.parse((await upload(ana(), qm.id)).body);
    await api("DELETE", `/api/quick-messages/${qm.id}`, { token: ana().token });
    expect(await headMedia(third.mediaPath!)).toBeNull();
  });

  it("refuses an upload without a file (400) and one the caller may not make (403 / 404), storing nothing", async () => {
    const geral = (await create(w.admin, { shortcode: code("geral"), geral: true })).body;
    const theirs = (await create(bruno(), { shortcode: code("dele") })).body;
    const none = await api("POST", `/api/quick-messages/${theirs.id}/media-upload`, { token: bruno().token, ...multipartBody([], { typeArch: "quickMessage" }) });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: "ERR_VALIDATION", fields: [{ path: "file", message: "Required" }] });
    expect((await upload(ana(), geral.id)).status).toBe(403);
    expect((await api("DELETE", `/api/quick-messages/${geral.id}/media-upload`, { token: ana().token })).status).toBe(403);
    expect((await upload(ana(), theirs.id)).status).toBe(404);
    expect(await getQuickMessage(w.cid, geral.id)).toMatchObject({ mediaPath: null });
    expect(await getQuickMessage(w.cid, theirs.id)).toMatchObject({ mediaPath: null });
  });
});

describe("sending a quick message into a ticket", () => {
  it("sends its media as the message's own copy with the composer's text as caption; the history survives the quick message", async () => {
    const ticket = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: ana().id });
    const qm = (await create(ana(), { shortcode: code("catalogo") })).body;
    const media = QuickMessage.parse((await upload(ana(), qm.id, "catálogo 2026.png")).body);

    const res = await api("POST", `/api/messages/${ticket.id}`, { token: ana().token, body: { body: "Segue o catálogo", quickMessageId: qm.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ body: "Segue o catálogo", mediaName: "catálogo_2026.png", mediaMime: "image/png", mediaSize: png.length, mediaType: "image", ack: 0 });
    expect(res.body.mediaKey).toMatch(new RegExp(`^media/${w.cid}/${ticket.id}/`));
    expect(res.body.mediaKey).not.toBe(media.mediaPath);
    expect(await drainCommands(w.wa)).toEqual([expect.objectContaining({ type: "send", companyId: w.cid, ticketId: ticket.id, messageId: res.body.id })]);

    await api("DELETE", `/api/quick-messages/${qm.id}`, { token: ana().token });
    expect(await headMedia(media.mediaPath!)).toBeNull();
    expect((await getMedia(res.body.mediaKey)).equals(png)).toBe(true);
  });

  it("sends the text of a quick message without media", async () => {
    const ticket = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: ana().id });
    const geral = (await create(w.admin, { shortcode: code("bomdia"), geral: true, message: "Bom dia!" })).body;
    const res = await api("POST", `/api/messages/${ticket.id}`, { token: ana().token, body: { body: "Bom dia!", quickMessageId: geral.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ body: "*Ana:*\nBom dia!", mediaKey: null });
  });

  it("refuses another user's personal quick message, another company's quick message and another company's media key, sending nothing", async () => {
    const ticket = await makeTicket(w.cid, { whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: ana().id });
    const theirs = (await create(bruno(), { shortcode: code("dele") })).body;
    await upload(bruno(), theirs.id);
    // Ids are per company: the other company's quick message gets an id this company has not used.
    const ourTop = Math.max(...ids(await list(w.admin)), ...ids(await list(w.admin, "?status=false")));
    let foreign = (await create(w.other.admin, { shortcode: code("fora"), geral: true })).body;
    while (foreign.id <= ourTop) foreign = (await create(w.other.admin, { shortcode: code("fora"), geral: true })).body;
    const foreignMedia = QuickMessage.parse((await upload(w.other.admin, foreign.id)).body);

    for (const quickMessageId of [theirs.id, foreign.id, 999999]) {
      const res = await api("POST", `/api/messages/${ticket.id}`, { token: ana().token, body: { body: "oi", quickMessageId } });
      expect(res.body).toEqual({ error: "ERR_NO_QUICK_MESSAGE_FOUND" });
    }
    const byKey = await api("POST", `/api/messages/${ticket.id}`, { token: ana().token, body: { body: "", medias: [{ key: foreignMedia.mediaPath, fileName: "x.png" }] } });
    expect(byKey.body).toEqual({ error: "ERR_NOT_FOUND" });
    expect(await drainCommands(w.wa)).toEqual([]);
    expect((await api("GET", `/api/messages/${ticket.id}`, { token: ana().token })).body.messages).toEqual([]);
  });
});
