/**
 * The benchmark's seeder (`scripts/bench/seed.ts`) writes tickets as the services do: the list tabs and the search
 * return a seeded ticket in exactly the shape of one made through the product (ingest path, real transition), found by
 * the same words. If the product's items change and the seeder does not follow, this fails.
 */
import { describe, expect, it } from "vitest";
import { batchPut, seedTicketItems, type SeedNames } from "../../../scripts/bench/seed.ts";
import { nowIso } from "../common.ts";
import { ingestMessage } from "../messages/repository.ts";
import { MessageItem } from "../messages/schema.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp } from "../tickets/fixtures.testkit.ts";
import { listTickets, type TicketActor } from "../tickets/service.ts";

const admin = (companyId: number): TicketActor => ({ userId: 1, companyId, profile: "admin", name: "Admin", queueIds: [], allTicket: "desabled" });

/** The shape of a value: object keys (sorted) and the type of every leaf. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape((v as Record<string, unknown>)[k])]));
  return v === null ? "null" : typeof v;
}

describe("seeded tickets", () => {
  it("are listed and found like tickets made through the product", async () => {
    const cid = 45;
    const wa = await makeWhatsapp(cid, { name: "Principal" });
    const q = await makeQueue(cid, { name: "Vendas", color: "#2e7d32" });
    const real = await makeTicket(cid, { whatsappId: wa.id, queueId: q.id, contact: await makeContact(cid, "Rita Lima", "5511920000001") });
    const now = nowIso();
    const m = MessageItem.parse({ id: "REAL1", ticketId: real.id, companyId: cid, whatsappId: wa.id, remoteJid: "x@s.whatsapp.net", body: "Quero o reembolso", fromMe: false, waTimestamp: now, createdAt: now, updatedAt: now });
    const { createdAt: _c, updatedAt: _u, ...toStore } = m;
    await ingestMessage(cid, real, toStore, { lastMessage: m.body, incrementUnread: true, waAliasJid: "x@s.whatsapp.net" });

    const names: SeedNames = { queues: new Map([[q.id, { id: q.id, name: q.name, color: q.color }]]), whatsapp: { id: wa.id, name: wa.name, status: wa.status }, user: { id: 1, name: "Admin" } };
    const seededId = 900;
    await batchPut(
      seedTicketItems(
        { companyId: cid, whatsappId: wa.id, userId: 1, queueIds: [q.id], names },
        { id: seededId, name: "Caio Lima", number: "5511920000900", status: "pending", at: new Date(), bodies: ["Bom dia", "Quero o reembolso da compra"], index: true },
      ),
    );

    const tab = (await listTickets(admin(cid), { status: "pending" })).tickets;
    const seeded = tab.find((t) => t.id === seededId);
    const made = tab.find((t) => t.id === real.id);
    expect(seeded && made).toBeTruthy();
    expect(shape(seeded)).toEqual(shape(made));
    expect(seeded?.queue).toEqual(made?.queue);
    expect(seeded?.whatsapp).toEqual(made?.whatsapp);
    expect(seeded?.contact.name).toBe("Caio Lima");
    expect(seeded?.lastMessage).toBe("Quero o reembolso da compra");

    for (const term of ["lima", "reembolso", "0900", "caio reembolso"]) {
      const found = (await listTickets(admin(cid), { searchParam: term })).tickets;
      const s = found.find((t) => t.id === seededId);
      expect(s, term).toBeDefined();
      if (term !== "0900" && term !== "caio reembolso") {
        const r = found.find((t) => t.id === real.id);
        expect(r, term).toBeDefined();
        expect(shape(s)).toEqual(shape(r));
      }
    }
  });
});
