/**
 * Internal chat through the real Lambda handlers (docs/product/chats.md): membership (a non-member and a user of
 * another company see and write nothing), owner-only edit and delete, unread counts with two members, paging of chats
 * and messages, validation, the plan flag, and realtime frames to the members only.
 */
import { describe, expect, it } from "vitest";
import { api, makeCompany, makeUser, type TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { getChat } from "../../../shared/src/chats/repository.ts";
import { Chat, ChatMessagesPage, ChatsPage } from "../../../shared/src/chats/schema.ts";

const w = companyWorld({ agents: [{ name: "Ana" }, { name: "Bruno" }, { name: "Carla" }], other: true });
const ana = () => w.agents[0];
const bruno = () => w.agents[1];
const carla = () => w.agents[2];

const create = (u: TestUser, body: Record<string, unknown>) => api("POST", "/api/chats", { token: u.token, body });
const newChat = async (u: TestUser, users: number[], title = "Plantão") => Chat.parse((await create(u, { title, users })).body);
const chats = async (u: TestUser, query = "") => ChatsPage.parse((await api("GET", `/api/chats${query}`, { token: u.token })).body);
const send = (u: TestUser, id: number, message: string) => api("POST", `/api/chats/${id}/messages`, { token: u.token, body: { message } });
const unreadsOf = (c: Chat, u: TestUser) => c.users.find((m) => m.userId === u.id)?.unreads;

describe("POST /api/chats", () => {
  it("creates a chat owned by the caller with the chosen users of the same company as members", async () => {
    const res = await create(ana(), { title: " Equipe ", users: [bruno().id] });
    expect(res.status).toBe(200);
    const chat = Chat.parse(res.body);
    expect(chat).toMatchObject({ title: "Equipe", ownerId: ana().id, lastMessage: "" });
    expect(chat.users.map((u) => u.userId).sort()).toEqual([ana().id, bruno().id].sort());
    expect(chat.users.every((u) => u.unreads === 0)).toBe(true);
    expect(chat.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a missing title, no users, or a user of another company, writing nothing", async () => {
    const before = (await chats(ana())).count;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ users: [bruno().id] }, "title", "Por favor, preencha o título da conversa."],
      [{ title: "  ", users: [bruno().id] }, "title", "Por favor, preencha o título da conversa."],
      [{ title: "x", users: [] }, "users", "Por favor, selecione pelo menos um usuário."],
      [{ title: "x" }, "users", "Por favor, selecione pelo menos um usuário."],
      // User ids are numbered per company: one no user of this company has (another company's users are unknown here).
      [{ title: "x", users: [bruno().id, 987654] }, "users", ""],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(ana(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      const field = res.body.fields.find((f: { path: string }) => f.path === path);
      expect(field, JSON.stringify(body)).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    expect((await chats(ana())).count).toBe(before);
    expect((await chats(w.other.admin)).count).toBe(0);
  });
});

describe("membership", () => {
  it("a non-member and a user of another company see and write nothing", async () => {
    const chat = await newChat(ana(), [bruno().id], "Segredo");
    await send(ana(), chat.id, "só nós");
    for (const outsider of [carla(), w.admin, w.other.admin]) {
      expect((await chats(outsider)).records.map((c) => c.id)).not.toContain(chat.id);
      const reads = [
        await api("GET", `/api/chats/${chat.id}/messages`, { token: outsider.token }),
        await send(outsider, chat.id, "entrei"),
        await api("POST", `/api/chats/${chat.id}/read`, { token: outsider.token, body: { userId: outsider.id } }),
        await api("PUT", `/api/chats/${chat.id}`, { token: outsider.token, body: { title: "meu" } }),
        await api("DELETE", `/api/chats/${chat.id}`, { token: outsider.token }),
      ];
      for (const res of reads) expect(res.body).toEqual({ error: "ERR_NO_CHAT_FOUND" });
    }
    const page = ChatMessagesPage.parse((await api("GET", `/api/chats/${chat.id}/messages`, { token: bruno().token })).body);
    expect(page.records.map((m) => m.message)).toEqual(["só nós"]);
    expect((await getChat(w.cid, chat.id))?.title).toBe("Segredo");
  });

  it("only the owner edits and deletes; a removed member loses the chat", async () => {
    const chat = await newChat(ana(), [bruno().id, carla().id], "Turno");
    const byMember = await api("PUT", `/api/chats/${chat.id}`, { token: bruno().token, body: { title: "Meu turno" } });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await api("DELETE", `/api/chats/${chat.id}`, { token: bruno().token })).status).toBe(403);
    expect((await getChat(w.cid, chat.id))?.title).toBe("Turno");

    const edited = Chat.parse((await api("PUT", `/api/chats/${chat.id}`, { token: ana().token, body: { title: "Turno B", users: [bruno().id] } })).body);
    expect(edited.title).toBe("Turno B");
    expect(edited.users.map((u) => u.userId).sort()).toEqual([ana().id, bruno().id].sort());
    expect((await send(carla(), chat.id, "ainda aqui?")).status).toBe(404);

    expect((await api("DELETE", `/api/chats/${chat.id}`, { token: ana().token })).status).toBe(200);
    expect(await getChat(w.cid, chat.id)).toBeUndefined();
    expect((await api("GET", `/api/chats/${chat.id}/messages`, { token: ana().token })).status).toBe(404);
  });
});

describe("messages and unreads", () => {
  it("counts each member's unread messages and clears them on read", async () => {
    const chat = await newChat(ana(), [bruno().id]);
    await send(ana(), chat.id, "um");
    await send(ana(), chat.id, "dois");
    expect((await send(ana(), chat.id, "   ")).status).toBe(400);
    let seenByBruno = (await chats(bruno())).records.find((c) => c.id === chat.id) as Chat;
    expect(unreadsOf(seenByBruno, bruno())).toBe(2);
    expect(unreadsOf(seenByBruno, ana())).toBe(0);
    expect(seenByBruno.lastMessage).toBe("dois");

    await send(bruno(), chat.id, "três");
    const seenByAna = (await chats(ana())).records.find((c) => c.id === chat.id) as Chat;
    expect(unreadsOf(seenByAna, ana())).toBe(1);
    expect(unreadsOf(seenByAna, bruno())).toBe(2);

    const read = Chat.parse((await api("POST", `/api/chats/${chat.id}/read`, { token: bruno().token, body: { userId: ana().id } })).body);
    expect(unreadsOf(read, bruno())).toBe(0);
    expect(unreadsOf(read, ana())).toBe(1);
    seenByBruno = (await chats(bruno())).records.find((c) => c.id === chat.id) as Chat;
    expect(unreadsOf(seenByBruno, bruno())).toBe(0);
  });

  it("pages messages newest first and chats by latest activity", async () => {
    const c = await makeCompany();
    const x = await makeUser(c.companyId, { name: "X" });
    const chat = await newChat(c.admin, [x.id], "Longa");
    for (let i = 1; i <= 23; i++) expect((await send(i % 2 ? c.admin : x, chat.id, `m${i}`)).status).toBe(200);
    const p1 = ChatMessagesPage.parse((await api("GET", `/api/chats/${chat.id}/messages`, { token: x.token })).body);
    expect(p1).toMatchObject({ count: 23, hasMore: true });
    expect(p1.records.map((m) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${23 - i}`));
    const p2 = ChatMessagesPage.parse((await api("GET", `/api/chats/${chat.id}/messages?pageNumber=2`, { token: x.token })).body);
    expect(p2.records.map((m) => m.message)).toEqual(["m3", "m2", "m1"]);
    expect(p2.hasMore).toBe(false);
    expect(p2.records[0].sender).toEqual({ id: c.admin.id, name: "Admin" });

    await Promise.all(Array.from({ length: 21 }, (_, i) => newChat(c.admin, [x.id], `Sala ${i}`)));
    await send(x, chat.id, "de volta ao topo");
    const first = await chats(x);
    expect(first).toMatchObject({ count: 22, hasMore: true });
    expect(first.records[0].id).toBe(chat.id);
    const second = await chats(x, "?pageNumber=2");
    expect(second.records).toHaveLength(2);
    expect(second.hasMore).toBe(false);
    expect((await chats(x, "?searchParam=LONGA")).records.map((r) => r.id)).toEqual([chat.id]);
  }, 90_000);
});

describe("plan and realtime", () => {
  it("answers 403 ERR_PLAN_FEATURE_DISABLED on every route when the plan has no internal chat", async () => {
    const c = await makeCompany({ planFlags: { useInternalChat: false } });
    const x = await makeUser(c.companyId, { name: "X" });
    const calls = [
      await api("GET", "/api/chats", { token: c.admin.token }),
      await create(c.admin, { title: "t", users: [x.id] }),
      await api("PUT", "/api/chats/1", { token: c.admin.token, body: { title: "t" } }),
      await api("DELETE", "/api/chats/1", { token: c.admin.token }),
      await api("GET", "/api/chats/1/messages", { token: x.token }),
      await send(x, 1, "oi"),
      await api("POST", "/api/chats/1/read", { token: x.token }),
    ];
    for (const res of calls) expect(res.body).toEqual({ error: "ERR_PLAN_FEATURE_DISABLED" });
  });

  it("sends chat frames to the members only, and a delete to a member removed or a deleted chat", async () => {
    const anaSock = await registerSocket(w.cid, { id: ana().id, profile: "user" });
    const brunoSock = await registerSocket(w.cid, { id: bruno().id, profile: "user" });
    const carlaSock = await registerSocket(w.cid, { id: carla().id, profile: "user" });
    const adminSock = await registerSocket(w.cid, { id: w.admin.id, profile: "admin" });
    await registerSocket(w.other.companyId, { id: w.other.admin.id, profile: "admin" });
    const event = `company-${w.cid}-chat`;
    const got = () => w.capture.frames.filter((f) => f.event.endsWith("-chat")).map((f) => [f.connectionId, f.data.action] as const);
    const to = (...socks: string[]) => socks.sort();

    w.capture.clear();
    const chat = await newChat(ana(), [bruno().id]);
    expect(to(...got().map(([s]) => s))).toEqual(to(anaSock, brunoSock));
    expect(w.capture.frames.every((f) => f.event === event)).toBe(true);

    w.capture.clear();
    const msg = (await send(bruno(), chat.id, "olá")).body;
    expect(to(...got().map(([s]) => s))).toEqual(to(anaSock, brunoSock));
    const toAna = w.capture.frames.find((f) => f.connectionId === anaSock)?.data;
    expect(toAna).toMatchObject({ action: "new-message", newMessage: { id: msg.id, message: "olá" }, chat: { id: chat.id, lastMessage: "olá" } });
    expect(unreadsOf(toAna.chat, ana())).toBe(1);

    w.capture.clear();
    await api("POST", `/api/chats/${chat.id}/read`, { token: ana().token });
    expect(got()).toEqual([[anaSock, "update"]]);

    w.capture.clear();
    await api("PUT", `/api/chats/${chat.id}`, { token: ana().token, body: { users: [carla().id] } });
    expect(got().sort()).toEqual([[anaSock, "update"], [brunoSock, "delete"], [carlaSock, "update"]].sort());

    w.capture.clear();
    await api("DELETE", `/api/chats/${chat.id}`, { token: ana().token });
    expect(got().sort()).toEqual([[anaSock, "delete"], [carlaSock, "delete"]].sort());
    expect(got().map(([s]) => s)).not.toContain(adminSock);
  });
});
