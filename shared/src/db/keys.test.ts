import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { belongsToCompany, keys, pad } from "./keys.ts";
import { AppError } from "../errors.ts";

describe("keys", () => {
  it("zero-pads ids so lexical order is numeric order", () => {
    expect([pad(10), pad(9), pad(100)].sort()).toEqual([pad(9), pad(10), pad(100)]);
  });
  it("scopes every tenant key by company", () => {
    expect(keys.user(7, 3)).toEqual({ PK: "C#7", SK: "USER#0000000003" });
    expect(keys.ticket(7, 3).PK).toBe("C#7#TK#3");
  });
  it("gives an assigned ticket a user index and an unassigned one none", () => {
    const base = { companyId: 1, id: 5, status: "open", contactId: 2, updatedAt: "2026-01-01T00:00:00.000Z", createdAt: "2026-01-01T00:00:00.000Z" };
    expect(keys.ticketIndexes({ ...base, userId: 9 }).GSI3PK).toBe("C#1#S#open#U#9");
    expect(keys.ticketIndexes({ ...base, userId: null })).not.toHaveProperty("GSI3PK");
    expect(keys.ticketIndexes({ ...base, queueId: null }).GSI2PK).toBe("C#1#S#open#Q#NONE");
  });
  it("keeps a ticket's tag edge in the ticket's partition and indexes it by tag, newest ticket first", () => {
    expect(keys.ticketTag(7, 3, 12)).toEqual({ PK: "C#7#TK#3", SK: "TAG#0000000012" });
    const older = keys.tagTicketsIndex(7, 12, "2026-01-01T00:00:00.000Z", 3);
    const newer = keys.tagTicketsIndex(7, 12, "2026-01-02T00:00:00.000Z", 4);
    expect(older.GSI4PK).toBe(keys.tagTicketsPK(7, 12));
    expect(newer.GSI4SK > older.GSI4SK).toBe(true);
    expect(keys.tagTicketsPK(7, 12)).not.toBe(keys.tagTicketsPK(8, 12));
  });
});

describe("belongsToCompany", () => {
  it("accepts a key of the company's own partitions and refuses another company's, even one sharing a digit prefix", () => {
    expect(belongsToCompany({ PK: "C#7#TK#3", SK: "M#x" }, 7)).toBe(true);
    expect(belongsToCompany({ PK: "C#7", SK: "USER#1" }, 7)).toBe(true);
    expect(belongsToCompany({ PK: "C#70#TK#3", SK: "M#x" }, 7)).toBe(false);
    expect(belongsToCompany({ PK: "C#8#TK#3", SK: "M#x" }, 7)).toBe(false);
    expect(belongsToCompany({ PK: "EMAIL#a@b.c", SK: "#" }, 7)).toBe(false);
  });
  it("checks every index partition key the cursor carries, and the expected partition", () => {
    const own = { PK: "C#7#TK#3", SK: "#TICKET", GSI2PK: keys.ticketQueuePK(7, "open", 1), GSI2SK: "x" };
    expect(belongsToCompany(own, 7, { equal: { GSI2PK: keys.ticketQueuePK(7, "open", 1) } })).toBe(true);
    expect(belongsToCompany(own, 7, { equal: { GSI2PK: keys.ticketQueuePK(7, "open", 2) } })).toBe(false);
    expect(belongsToCompany({ ...own, GSI2PK: keys.ticketQueuePK(8, "open", 1) }, 7)).toBe(false);
    expect(belongsToCompany(own, 7, { pkPrefix: keys.ticketPartitionPrefix(7) })).toBe(true);
    expect(belongsToCompany(own, 7, { pkPrefix: keys.contactPartitionPrefix(7) })).toBe(false);
  });
  it("refuses anything that is not a key object", () => {
    for (const k of [null, undefined, "C#7", 7, [], { SK: "x" }, { PK: 7 }, { PK: "C#7", GSI1PK: 1 }]) expect(belongsToCompany(k, 7)).toBe(false);
  });
});

describe("cursor", () => {
  it("round-trips a key", () => {
    const k = { PK: "C#1", SK: "USER#1" };
    expect(decodeCursor(encodeCursor(k))).toEqual(k);
  });
  it("decodes another company's cursor, which the ownership check then refuses", () => {
    const k = decodeCursor(encodeCursor({ PK: "C#2", SK: "USER#1" }));
    expect(belongsToCompany(k, 1)).toBe(false);
    expect(belongsToCompany(k, 2)).toBe(true);
  });
  it("rejects a cursor that is not an object", () => {
    expect(() => decodeCursor(encodeCursor({ PK: "C#1" })!.replace(/./, "W"))).toThrow(AppError);
    expect(() => decodeCursor(Buffer.from("[1]").toString("base64url"))).toThrow(AppError);
  });
  it("rejects garbage", () => {
    expect(() => decodeCursor("%%%not-base64")).toThrow(AppError);
  });
});
