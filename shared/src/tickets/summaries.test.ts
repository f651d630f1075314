import { describe, expect, it } from "vitest";
import type { AuthContext } from "../auth/tokens.ts";
import { updateContact } from "../contacts/service.ts";
import { ddb } from "../db/client.ts";
import { commandsOf } from "../ingest/calls.testkit.ts";
import { settleDeferred } from "../events/index.ts";
import { updateQueue } from "../queues/service.ts";
import { addTicketTag, createTag, updateTag } from "../tags/service.ts";
import { updateUser } from "../users/service.ts";
import { updateSessionState, updateWhatsapp } from "../whatsapp/service.ts";
import { companyWorld } from "../../../test/world.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp } from "./fixtures.testkit.ts";
import { listTickets, toTicketView } from "./service.ts";

const w = companyWorld();

const adminAuth = (companyId: number, userId: number): AuthContext => ({
  userId, companyId, profile: "admin", super: false, name: "Admin", email: "admin@test", queueIds: [], allTicket: "desabled", whatsappId: null, tokenVersion: 0,
});

/** The indexes of the Query calls `fn` makes (the ticket tabs' status index is GSI1). */
async function ticketIndexReads(fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const name = `indexReads${Math.random().toString(36).slice(2)}`;
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { IndexName?: string };
      if ((context as { commandName?: string }).commandName === "QueryCommand" && input.IndexName) seen.push(input.IndexName);
      return next(args);
    },
    { step: "initialize", name },
  );
  try {
    await fn();
  } finally {
    ddb().middlewareStack.remove(name);
  }
  return seen;
}

describe("ticket rows from stored summaries", () => {
  it("serves a page of a tab with one Query and the nested contact, queue, connection, user and tags", async () => {
    const { cid, admin } = await w.fresh();
    const auth = adminAuth(cid, admin.id);
    const wa = await makeWhatsapp(cid, { name: "Principal" });
    const q = await makeQueue(cid, { name: "Vendas", color: "#2e7d32" });
    const contact = await makeContact(cid, "Helena Lima", "5511977771234");
    const t = await makeTicket(cid, { whatsappId: wa.id, contact, status: "open", queueId: q.id, userId: admin.id });
    const tag = await createTag(auth, { name: "VIP", color: "#ff0000" } as never);
    await addTicketTag(auth, t.id, tag.id);
    await makeTicket(cid, { whatsappId: wa.id, status: "open", queueId: q.id, userId: admin.id });

    const { result, commands } = await commandsOf(() => listTickets(auth, { status: "open", showAll: true }));
    const row = result.tickets.find((x) => x.id === t.id)!;
    expect(row.contact).toMatchObject({ id: contact.id, name: "Helena Lima", number: "5511977771234" });
    expect(row.queue).toEqual({ id: q.id, name: "Vendas", color: "#2e7d32" });
    expect(row.whatsapp).toEqual({ id: wa.id, name: "Principal", status: "CONNECTED" });
    expect(row.user).toEqual({ id: admin.id, name: "Admin" });
    expect(row.tags).toEqual([{ id: tag.id, name: "VIP", color: "#ff0000" }]);
    // Tagged after creation: its tag is read once; after a rename of the tag the summary holds it and the page is one Query.
    expect(commands.filter((c) => c === "QueryCommand")).toHaveLength(1);
    await updateTag(auth, tag.id, { name: "Cliente VIP" } as never);
    await settleDeferred();
    // The renamed tag's ticket was rewritten: its packed row (tickets/row.ts) is stale, so the first page reads that
    // one item whole and re-packs it; the next page is one Query again.
    const first = await commandsOf(() => listTickets(auth, { status: "open", showAll: true }));
    expect(first.commands.slice(0, 2)).toEqual(["QueryCommand", "BatchGetItemCommand"]);
    expect(first.result.tickets.find((x) => x.id === t.id)!.tags).toEqual([{ id: tag.id, name: "Cliente VIP", color: "#ff0000" }]);
    await settleDeferred();
    const again = await commandsOf(() => listTickets(auth, { status: "open", showAll: true }));
    expect(again.commands).toEqual(["QueryCommand"]);
    expect(again.result.tickets).toEqual(first.result.tickets);
    // The caller's own open tickets (the default tab): one partition, one Query, the same row.
    const mine = await commandsOf(() => listTickets(auth, { status: "open" }));
    expect(mine.commands).toEqual(["QueryCommand"]);
    expect(mine.result.tickets.find((x) => x.id === t.id)).toEqual(again.result.tickets.find((x) => x.id === t.id));
  }, 60_000);

  it("shows renamed contacts, queues, users, connections and a connection's new status in the list", async () => {
    const { cid, admin } = await w.fresh();
    const auth = adminAuth(cid, admin.id);
    const wa = await makeWhatsapp(cid, { name: "Principal" });
    const q = await makeQueue(cid, { name: "Vendas", color: "#2e7d32" });
    const contact = await makeContact(cid, "Helena Lima", "5511977774321");
    const t = await makeTicket(cid, { whatsappId: wa.id, contact, status: "open", queueId: q.id, userId: admin.id });
    const pending = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Rita Campos"), queueId: q.id });

    await updateContact(cid, contact.id, { name: "Helena Lima Prado" });
    await updateQueue(auth, q.id, { name: "Comercial", color: "#1565c0" });
    await updateUser(auth, admin.id, { name: "Ana Admin" });
    await updateWhatsapp({ companyId: cid, admin: true } as never, wa.id, { name: "Loja" } as never);
    await updateSessionState(cid, wa.id, { status: "DISCONNECTED" } as never);

    await settleDeferred();
    const firstRead = await listTickets(auth, { status: "open", showAll: true }); // re-packs the rows the renames left stale
    await settleDeferred();
    const { result, commands } = await commandsOf(() => listTickets(auth, { status: "open", showAll: true }));
    expect(commands).toEqual(["QueryCommand"]);
    expect(result.tickets).toEqual(firstRead.tickets);
    const row = result.tickets.find((x) => x.id === t.id)!;
    expect(row.contact.name).toBe("Helena Lima Prado");
    expect(row.queue).toEqual({ id: q.id, name: "Comercial", color: "#1565c0" });
    expect(row.user).toEqual({ id: admin.id, name: "Ana Admin" });
    expect(row.whatsapp).toEqual({ id: wa.id, name: "Loja", status: "DISCONNECTED" });
    const p = (await listTickets(auth, { status: "pending" })).tickets.find((x) => x.id === pending.id)!;
    expect(p.queue?.name).toBe("Comercial");
    expect(p.user).toBeNull();
  }, 60_000);

  it("reads no ticket when a connection waiting for its scan shows a new QR code (its status is what rows show)", async () => {
    const { cid } = await w.fresh();
    const wa = await makeWhatsapp(cid, { name: "Principal" });
    for (let i = 0; i < 3; i++) await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, `Cliente ${i}`) });
    await updateSessionState(cid, wa.id, { status: "qrcode", qrcode: "2@primeiro" });
    await settleDeferred();
    const refresh = await ticketIndexReads(async () => {
      await updateSessionState(cid, wa.id, { status: "qrcode", qrcode: "2@segundo" });
      await settleDeferred();
    });
    expect(refresh).toEqual([]);
    const connected = await ticketIndexReads(async () => {
      await updateSessionState(cid, wa.id, { status: "CONNECTED", qrcode: "" });
      await settleDeferred();
    });
    expect(connected).toContain("GSI1");
    const auth = adminAuth(cid, (await w.fresh()).admin.id);
    expect((await listTickets({ ...auth, companyId: cid }, { status: "pending", showAll: true })).tickets.map((t) => t.whatsapp?.status)).toEqual(["CONNECTED", "CONNECTED", "CONNECTED"]);
  });

  it("follows a transfer at once: the row names the new queue and user", async () => {
    const { cid, admin } = await w.fresh();
    const wa = await makeWhatsapp(cid);
    const q1 = await makeQueue(cid, { name: "Vendas" });
    const q2 = await makeQueue(cid, { name: "Suporte", color: "#123456" });
    const t = await makeTicket(cid, { whatsappId: wa.id, queueId: q1.id });
    const { writeTicketTransition } = await import("./repository.ts");
    const moved = await writeTicketTransition(t, { queueId: q2.id, userId: admin.id, status: "open", updatedAt: new Date().toISOString() });
    const { commands, result } = await commandsOf(() => toTicketView(cid, moved));
    expect(commands).toEqual([]);
    expect(result.queue).toEqual({ id: q2.id, name: "Suporte", color: "#123456" });
    expect(result.user).toEqual({ id: admin.id, name: "Admin" });
    const row = (await listTickets(adminAuth(cid, admin.id), { status: "open", showAll: true })).tickets.find((x) => x.id === t.id)!;
    expect(row.queue?.name).toBe("Suporte");
  }, 60_000);
});
