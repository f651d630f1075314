import { describe, expect, it } from "vitest";
import { nowIso } from "../common.ts";
import { ingestMessage, listMessages } from "../messages/repository.ts";
import { MessageItem } from "../messages/schema.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp } from "./fixtures.testkit.ts";
import { writeTicketTransition } from "./repository.ts";
import { findOrCreateTicket, getTicket, listTickets, type TicketActor } from "./service.ts";

const admin = (companyId: number, userId = 1): TicketActor => ({ userId, companyId, profile: "admin", name: "Admin", queueIds: [], allTicket: "desabled" });
const agent = (companyId: number, userId: number, queueIds: number[], allTicket = "desabled"): TicketActor => ({
  userId,
  companyId,
  profile: "user",
  name: "Agente",
  queueIds,
  allTicket,
});

describe("findOrCreateTicket", () => {
  it("gives one ticket when calls for the same contact race", async () => {
    const wa = await makeWhatsapp(1);
    const contact = await makeContact(1, "Rita");
    const results = await Promise.all(
      Array.from({ length: 4 }, () => findOrCreateTicket(1, { contactId: contact.id, whatsappId: wa.id, isGroup: false })),
    );
    expect(new Set(results.map((r) => r.ticket.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0].ticket.status).toBe("pending");
  });

  it("starts a new pending ticket when the customer writes after a close, keeping the old one readable", async () => {
    const wa = await makeWhatsapp(1);
    const contact = await makeContact(1, "Sara");
    const { ticket } = await findOrCreateTicket(1, { contactId: contact.id, whatsappId: wa.id, isGroup: false });
    await writeTicketTransition(ticket, { status: "closed", updatedAt: nowIso() });
    const again = await findOrCreateTicket(1, { contactId: contact.id, whatsappId: wa.id, isGroup: false });
    expect(again.created).toBe(true);
    expect(again.ticket.id).not.toBe(ticket.id);
    expect((await getTicket(1, ticket.id))?.status).toBe("closed");
  });

  it("keeps one active ticket per connection: another connection gets its own", async () => {
    const [w1, w2] = [await makeWhatsapp(2), await makeWhatsapp(2, { isDefault: false })];
    const contact = await makeContact(2, "Tom");
    const a = await findOrCreateTicket(2, { contactId: contact.id, whatsappId: w1.id, isGroup: false });
    const b = await findOrCreateTicket(2, { contactId: contact.id, whatsappId: w2.id, isGroup: false });
    expect(a.ticket.id).not.toBe(b.ticket.id);
  });
});

describe("ingestMessage", () => {
  it("stores a message once when the same WhatsApp message arrives three times at once", async () => {
    const wa = await makeWhatsapp(3);
    const ticket = await makeTicket(3, { whatsappId: wa.id });
    const now = nowIso();
    const msg = MessageItem.parse({
      id: "WAID-1",
      ticketId: ticket.id,
      companyId: 3,
      whatsappId: wa.id,
      remoteJid: "5511@s.whatsapp.net",
      body: "oi",
      fromMe: false,
      waTimestamp: now,
      createdAt: now,
      updatedAt: now,
    });
    const { createdAt: _a, updatedAt: _b, ...m } = msg;
    const results = await Promise.all(
      [1, 2, 3].map(() => ingestMessage(3, ticket, m, { lastMessage: "oi", incrementUnread: true, waAliasJid: "5511@s.whatsapp.net" })),
    );
    expect(results.filter((r) => r.stored)).toHaveLength(1);
    expect(results.every((r) => r.message.id === "WAID-1")).toBe(true);
    expect((await listMessages(3, ticket.id)).messages).toHaveLength(1);
    const t = await getTicket(3, ticket.id);
    expect(t?.unreadMessages).toBe(1);
    expect(t?.lastMessage).toBe("oi");
  });
});

describe("listTickets", () => {
  it("merges a user's queues newest first and pages with cursors without repeats or gaps", async () => {
    const cid = 4;
    const wa = await makeWhatsapp(cid);
    const [q1, q2, q3] = [await makeQueue(cid), await makeQueue(cid), await makeQueue(cid)];
    const made: number[] = [];
    for (let i = 0; i < 9; i++) {
      const queueId = [q1.id, q2.id, q3.id][i % 3];
      made.push((await makeTicket(cid, { whatsappId: wa.id, queueId })).id);
    }
    const user = agent(cid, 50, [q1.id, q2.id]);
    const expected = made.filter((_id, i) => i % 3 !== 2).reverse(); // newest first, q3 excluded
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 10; n++) {
      const page = await listTickets(user, { status: "pending", cursor, limit: 2 });
      seen.push(...page.tickets.map((t) => t.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(expected);
  });

  it("shows admins every pending ticket including those without a queue, and agents only their queues", async () => {
    const cid = 5;
    const wa = await makeWhatsapp(cid);
    const q1 = await makeQueue(cid);
    const q2 = await makeQueue(cid);
    const inQ1 = await makeTicket(cid, { whatsappId: wa.id, queueId: q1.id });
    const inQ2 = await makeTicket(cid, { whatsappId: wa.id, queueId: q2.id });
    const none = await makeTicket(cid, { whatsappId: wa.id, queueId: null });
    const all = await listTickets(admin(cid), { status: "pending" });
    expect(all.tickets.map((t) => t.id).sort()).toEqual([inQ1.id, inQ2.id, none.id].sort());
    const mine = await listTickets(agent(cid, 60, [q1.id]), { status: "pending" });
    expect(mine.tickets.map((t) => t.id)).toEqual([inQ1.id]);
    const withAll = await listTickets(agent(cid, 61, [q1.id], "enabled"), { status: "pending" });
    expect(withAll.tickets.map((t) => t.id).sort()).toEqual([inQ1.id, none.id].sort());
    const asked = await listTickets(admin(cid), { status: "pending", queueIds: [q2.id] });
    expect(asked.tickets.map((t) => t.id).sort()).toEqual([inQ2.id, none.id].sort());
  });

  it("lists the caller's own open tickets by default and every open ticket with showAll for admins", async () => {
    const cid = 6;
    const wa = await makeWhatsapp(cid);
    const q = await makeQueue(cid);
    const mine = await makeTicket(cid, { whatsappId: wa.id, queueId: q.id, status: "open", userId: 70 });
    const theirs = await makeTicket(cid, { whatsappId: wa.id, queueId: q.id, status: "open", userId: 71 });
    expect((await listTickets(agent(cid, 70, [q.id]), { status: "open" })).tickets.map((t) => t.id)).toEqual([mine.id]);
    expect((await listTickets(agent(cid, 70, [q.id]), { status: "open", showAll: true })).tickets.map((t) => t.id)).toEqual([mine.id]);
    const everything = await listTickets(admin(cid), { status: "open", showAll: true });
    expect(everything.tickets.map((t) => t.id)).toEqual([theirs.id, mine.id]);
  });

  it("returns each ticket with its contact, queue and connection", async () => {
    const cid = 7;
    const wa = await makeWhatsapp(cid, { name: "Comercial" });
    const q = await makeQueue(cid, { name: "Vendas", color: "#ff0000" });
    const contact = await makeContact(cid, "Úrsula Lima", "5511912345678");
    await makeTicket(cid, { whatsappId: wa.id, queueId: q.id, contact });
    const { tickets, hasMore } = await listTickets(admin(cid), { status: "pending" });
    expect(hasMore).toBe(false);
    expect(tickets[0].contact).toMatchObject({ name: "Úrsula Lima", number: "5511912345678" });
    expect(tickets[0].queue).toEqual({ id: q.id, name: "Vendas", color: "#ff0000" });
    expect(tickets[0].whatsapp).toEqual({ id: wa.id, name: "Comercial", status: "CONNECTED" });
    expect(tickets[0].user).toBeNull();
  });

  it("searches tickets by contact name prefix (accents ignored) and by number prefix", async () => {
    const cid = 8;
    const wa = await makeWhatsapp(cid);
    const q = await makeQueue(cid);
    const a = await makeTicket(cid, { whatsappId: wa.id, queueId: q.id, contact: await makeContact(cid, "Márcia Souza", "5511955550001") });
    const b = await makeTicket(cid, { whatsappId: wa.id, queueId: q.id, contact: await makeContact(cid, "Marcos", "5521955550002") });
    await makeTicket(cid, { whatsappId: wa.id, queueId: q.id, contact: await makeContact(cid, "Paulo", "5531955550003") });
    expect((await listTickets(admin(cid), { searchParam: "marc" })).tickets.map((t) => t.id).sort()).toEqual([a.id, b.id].sort());
    expect((await listTickets(admin(cid), { searchParam: "MÁRCIA" })).tickets.map((t) => t.id)).toEqual([a.id]);
    expect((await listTickets(admin(cid), { searchParam: "552195" })).tickets.map((t) => t.id)).toEqual([b.id]);
    expect((await listTickets(agent(cid, 80, []), { searchParam: "marc" })).tickets).toEqual([]);
  });

  it("rejects a cursor that names another company's partitions", async () => {
    const wa = await makeWhatsapp(9);
    for (let i = 0; i < 3; i++) await makeTicket(9, { whatsappId: wa.id });
    const page = await listTickets(admin(9), { status: "pending", limit: 1 });
    expect(page.nextCursor).toBeDefined();
    await expect(listTickets(admin(10), { status: "pending", cursor: page.nextCursor })).rejects.toMatchObject({ code: "ERR_INVALID_CURSOR" });
  });
});
