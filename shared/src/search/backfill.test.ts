import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { listContacts } from "../contacts/service.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { makeWhatsapp } from "../tickets/fixtures.testkit.ts";
import { listTickets, type TicketActor } from "../tickets/service.ts";
import { backfillSearchIndex } from "./backfill.ts";
import { holdsWord } from "./writes.ts";
import { storeWithoutIndex } from "./backfill.testkit.ts";

const admin = (companyId: number): TicketActor => ({ userId: 1, companyId, profile: "admin", name: "Admin", queueIds: [], allTicket: "desabled" });
const ticketIds = async (cid: number, q: string) => (await listTickets(admin(cid), { searchParam: q })).tickets.map((t) => t.id).sort((a, b) => a - b);
const contactNames = async (cid: number, q: string) => (await listContacts(cid, { searchParam: q })).contacts.map((c) => c.name).sort();

describe("search index backfill", () => {
  it("makes contacts and messages stored before the index findable, in bounded resumable runs, counting each message once", async () => {
    const cid = 731;
    const wa = await makeWhatsapp(cid);
    await storeWithoutIndex(cid, wa.id);
    // Before: the old data is invisible to word search.
    expect(await ticketIds(cid, "reembolso")).toEqual([]);
    expect(await contactNames(cid, "Lima")).toEqual([]);
    expect(await contactNames(cid, "6666")).toEqual([]);

    // Runs of at most 2 contacts + messages each: several runs, each continuing where the last stopped.
    let runs = 0;
    let indexed = 0;
    for (;;) {
      const r = await backfillSearchIndex(cid, { budget: 2 });
      runs++;
      indexed += r.messagesIndexed;
      expect(r.contacts + r.messagesSeen).toBeLessThanOrEqual(2);
      if (r.done) break;
      expect(runs).toBeLessThan(30);
    }
    expect(runs).toBeGreaterThan(3);
    expect(indexed).toBe(5);

    expect(await ticketIds(cid, "reembolso")).toEqual([1]);
    expect(await ticketIds(cid, "pedido 4521")).toEqual([1]);
    expect(await ticketIds(cid, "boleto")).toEqual([2]);
    expect(await ticketIds(cid, "Prado")).toEqual([2]);
    expect(await contactNames(cid, "Lima")).toEqual(["Helena Lima"]);
    expect(await contactNames(cid, "6666")).toEqual(["Otávio Prado"]);
    expect(await contactNames(cid, "exemplo")).toEqual(["Helena Lima"]);

    // Idempotent: a finished backfill does nothing; a restarted one indexes no message twice.
    expect(await backfillSearchIndex(cid)).toMatchObject({ done: true, contacts: 0, messagesSeen: 0 });
    const again = await backfillSearchIndex(cid, { restart: true });
    expect(again).toMatchObject({ done: true, contacts: 3, messagesSeen: 5, messagesIndexed: 0 });
    const word = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.searchWord(cid, "reembolso", 1), ConsistentRead: true }));
    expect(holdsWord(word.Item)).toBe(true);
  }, 90_000);

  it("keeps its place when a run is cut short, and never reaches another company's data", async () => {
    const cid = 732;
    const other = 733;
    const wa = await makeWhatsapp(cid);
    const wb = await makeWhatsapp(other);
    await storeWithoutIndex(cid, wa.id);
    await storeWithoutIndex(other, wb.id);
    await backfillSearchIndex(cid, { budget: 4 });
    const progress = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.searchBackfill(cid), ConsistentRead: true }));
    expect(progress.Item?.done).toBe(false);
    // A later run with a large budget finishes from there.
    expect((await backfillSearchIndex(cid, { budget: 1000 })).done).toBe(true);
    expect(await ticketIds(cid, "reembolso")).toEqual([1]);
    // The other company was not touched.
    expect(await ticketIds(other, "reembolso")).toEqual([]);
    expect(await contactNames(other, "Lima")).toEqual([]);
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.searchBackfill(other), cursor: null, done: false } }));
    expect((await backfillSearchIndex(other)).done).toBe(true);
    expect(await ticketIds(other, "reembolso")).toEqual([1]);
  }, 90_000);
});
