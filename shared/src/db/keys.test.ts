import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { keys, pad } from "./keys.ts";
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

describe("cursor", () => {
  it("round-trips a key", () => {
    const k = { PK: "C#1", SK: "USER#1" };
    expect(decodeCursor(encodeCursor(k), { PK: "C#1" })).toEqual(k);
  });
  it("rejects a cursor from another company's partition", () => {
    const c = encodeCursor({ PK: "C#2", SK: "USER#1" });
    expect(() => decodeCursor(c, { PK: "C#1" })).toThrow(AppError);
  });
  it("rejects garbage", () => {
    expect(() => decodeCursor("%%%not-base64")).toThrow(AppError);
  });
});
