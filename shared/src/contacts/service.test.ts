import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { normalizeName } from "./normalize.ts";
import { createContact, findOrCreateContactByIdentity, getContact, listContacts, updateContact } from "./service.ts";

const marker = async (k: { PK: string; SK: string }) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: k, ConsistentRead: true }))).Item;

describe("normalizeName", () => {
  it("lowercases, strips accents and collapses spaces", () => {
    expect(normalizeName("  José   da SILVA  Ção ")).toBe("jose da silva cao");
  });
});

describe("findOrCreateContactByIdentity", () => {
  it("creates one contact with every marker when a new person writes", async () => {
    const c = await findOrCreateContactByIdentity(1, { jids: ["5511988887777@s.whatsapp.net", "123456789@lid"], number: "5511988887777", name: "Ana", isGroup: false });
    expect(c.name).toBe("Ana");
    expect(c.number).toBe("5511988887777");
    expect((await marker(keys.contactPhone(1, "5511988887777")))?.contactId).toBe(c.id);
    expect((await marker(keys.contactJid(1, "123456789@lid")))?.contactId).toBe(c.id);
    expect((await marker(keys.contactJid(1, "5511988887777@s.whatsapp.net")))?.contactId).toBe(c.id);
  });

  it("gives one contact when two calls for the same new person race", async () => {
    const identity = { jids: ["5511977776666@s.whatsapp.net"], number: "5511977776666", name: "Bia", isGroup: false };
    const [a, b, c] = await Promise.all([
      findOrCreateContactByIdentity(2, identity),
      findOrCreateContactByIdentity(2, identity),
      findOrCreateContactByIdentity(2, identity),
    ]);
    expect(a.id).toBe(b.id);
    expect(b.id).toBe(c.id);
    const listed = await listContacts(2, { searchParam: "Bia" });
    expect(listed.contacts).toHaveLength(1);
  });

  it("adds a newly revealed LID to the contact found by phone", async () => {
    const first = await findOrCreateContactByIdentity(3, { jids: ["5511966665555@s.whatsapp.net"], number: "5511966665555", name: "Caio", isGroup: false });
    const again = await findOrCreateContactByIdentity(3, { jids: ["998877@lid"], number: "5511966665555", name: "Caio", isGroup: false });
    expect(again.id).toBe(first.id);
    expect(again.jids).toContain("998877@lid");
    const byLid = await findOrCreateContactByIdentity(3, { jids: ["998877@lid"], name: "", isGroup: false });
    expect(byLid.id).toBe(first.id);
  });

  it("merges the markers into the older contact when the LID and the phone were two contacts", async () => {
    const older = await findOrCreateContactByIdentity(4, { jids: ["5511955554444@s.whatsapp.net"], number: "5511955554444", name: "Duda", isGroup: false });
    const younger = await findOrCreateContactByIdentity(4, { jids: ["112233@lid"], name: "Duda LID", isGroup: false });
    expect(younger.id).not.toBe(older.id);
    const merged = await findOrCreateContactByIdentity(4, { jids: ["112233@lid"], number: "5511955554444", name: "Duda", isGroup: false });
    expect(merged.id).toBe(older.id);
    expect((await marker(keys.contactJid(4, "112233@lid")))?.contactId).toBe(older.id);
  });

  it("names a contact after its number when no name is known", async () => {
    const c = await findOrCreateContactByIdentity(5, { jids: ["5511944443333@s.whatsapp.net"], number: "5511944443333", name: "", isGroup: false });
    expect(c.name).toBe("5511944443333");
  });
});

describe("contacts page", () => {
  it("refuses a second contact with the same number", async () => {
    await createContact(6, { name: "Eva", number: "+55 (11) 93333-2222", email: "", disableBot: false, extraInfo: [] });
    await expect(createContact(6, { name: "Eva 2", number: "5511933332222", email: "", disableBot: false, extraInfo: [] })).rejects.toMatchObject({
      code: "ERR_DUPLICATED_CONTACT",
      status: 409,
    });
  });

  it("moves the phone marker when the number changes", async () => {
    const c = await createContact(7, { name: "Fabio", number: "5511922221111", email: "", disableBot: false, extraInfo: [] });
    await updateContact(7, c.id, { number: "5511922220000" });
    expect(await marker(keys.contactPhone(7, "5511922221111"))).toBeUndefined();
    expect((await marker(keys.contactPhone(7, "5511922220000")))?.contactId).toBe(c.id);
    expect((await getContact(7, c.id)).number).toBe("5511922220000");
  });

  it("finds contacts by accent-insensitive name prefix or by number prefix", async () => {
    await createContact(8, { name: "João Conceição", number: "5521911110001", email: "", disableBot: false, extraInfo: [] });
    await createContact(8, { name: "Joana", number: "5531911110002", email: "", disableBot: false, extraInfo: [] });
    await createContact(8, { name: "Pedro", number: "5521911110003", email: "", disableBot: false, extraInfo: [] });
    expect((await listContacts(8, { searchParam: "JOÃO" })).contacts.map((c) => c.name)).toEqual(["João Conceição"]);
    expect((await listContacts(8, { searchParam: "joa" })).contacts.map((c) => c.name)).toEqual(["Joana", "João Conceição"]);
    expect((await listContacts(8, { searchParam: "5521" })).contacts.map((c) => c.name).sort()).toEqual(["João Conceição", "Pedro"]);
    expect((await listContacts(8, { searchParam: "zzz" })).contacts).toEqual([]);
  });

  it("pages through contacts with cursors without repeating or skipping", async () => {
    for (let i = 0; i < 7; i++) await createContact(9, { name: `Pessoa ${i}`, number: `55119000000${i}0`, email: "", disableBot: false, extraInfo: [] });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = await listContacts(9, { cursor, limit: 3 });
      seen.push(...p.contacts.map((c) => c.name));
      cursor = p.nextCursor;
      expect(p.hasMore).toBe(!!cursor);
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `Pessoa ${i}`));
    const byPage = await listContacts(9, { pageNumber: 3, limit: 3 });
    expect(byPage.contacts.map((c) => c.name)).toEqual(["Pessoa 6"]);
    expect(byPage.hasMore).toBe(false);
  });

  it("rejects a cursor of another company", async () => {
    await createContact(10, { name: "Gil", number: "5511911112222", email: "", disableBot: false, extraInfo: [] });
    await createContact(10, { name: "Gilda", number: "5511911112223", email: "", disableBot: false, extraInfo: [] });
    const p = await listContacts(10, { limit: 1 });
    expect(p.nextCursor).toBeDefined();
    await expect(listContacts(11, { cursor: p.nextCursor })).rejects.toMatchObject({ code: "ERR_INVALID_CURSOR" });
  });
});
