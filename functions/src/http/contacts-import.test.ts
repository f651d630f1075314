/**
 * The Contacts page's import and bulk delete through the real handlers: a spreadsheet (.csv in Windows-1252, .xlsx)
 * read with the contact list import's rules and report, contacts created in the caller's company only and updated on
 * a second import; preview writes nothing; many contacts deleted in one request by an admin, another company's ids
 * left untouched, a user refused; the connection's phone book (Baileys `contacts.upsert`, kept by the ingest) imported
 * into contacts with exact counts, within the request or by a background job when large, never into or from another
 * company.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { api, multipartBody, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, runQueuedJobs, useLocalAws } from "../../../test/world.ts";
import { putPhoneBookEntries } from "../../../shared/src/contacts/repository.ts";
import { handleBaileysEvent } from "../../../shared/src/ingest/index.ts";
import { ImportReport } from "../../../shared/src/contactLists/import-schema.ts";
import { findContactIdByNumber, getContact } from "../../../shared/src/contacts/service.ts";

useLocalAws({ sqs: true });
const w = companyWorld({ agents: [{}], other: true });
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../../shared/fixtures/contacts/${name}`, import.meta.url)));
const upload = (u: TestUser, name: string, query = "") =>
  api("POST", `/api/contacts/upload${query}`, { token: u.token, ...multipartBody([{ field: "file", name, type: "application/octet-stream", data: fixture(name) }]) });

describe("POST /api/contacts/upload", () => {
  it("previews, then imports the Windows-1252 CSV into the caller's company (23 new, 5 skipped), then updates them from the .xlsx", async () => {
    const fresh = await w.fresh({ agents: [{}], other: false });
    const preview = ImportReport.parse((await upload(fresh.agents[0]!, "messy-contacts-cp1252.csv", "?preview=true")).body);
    expect(preview).toMatchObject({ preview: true, added: 23, updated: 0, skipped: 5 });
    expect(await findContactIdByNumber(fresh.cid, "5511900000001")).toBeNull();

    const first = ImportReport.parse((await upload(fresh.agents[0]!, "messy-contacts-cp1252.csv")).body);
    expect(first).toMatchObject({ added: 23, skipped: 5 });
    expect(first.rows.find((r) => r.row === 5)?.name).toBe("Maria da Conceição");
    // Row 23 was saved "as shown" (5.562.900.000.015): still one number.
    expect(first.rows.find((r) => r.row === 23)?.number).toBe("5562900000015");
    const id = await findContactIdByNumber(fresh.cid, "5511900000001");
    expect((await getContact(fresh.cid, id!)).name).toBe("João da Silva");
    expect(await findContactIdByNumber(w.cid, "5511900000001")).toBeNull();

    const again = ImportReport.parse((await upload(fresh.admin, "messy-contacts.xlsx")).body);
    expect(again).toMatchObject({ added: 0, updated: 23, skipped: 5 });
    const list = await api("GET", "/api/contacts", { token: fresh.admin.token });
    expect(list.body.count).toBe(23);
  }, 120_000);

  it("refuses a file of another type and an unreadable one, writing nothing", async () => {
    const bad = await api("POST", "/api/contacts/upload", { token: w.admin.token, ...multipartBody([{ field: "file", name: "contatos.txt", type: "text/plain", data: Buffer.from("nome;numero") }]) });
    expect(bad.body).toEqual({ error: "ERR_IMPORT_FILE_TYPE" });
    const broken = await api("POST", "/api/contacts/upload", { token: w.admin.token, ...multipartBody([{ field: "file", name: "c.xls", type: "application/vnd.ms-excel", data: Buffer.from("not a workbook at all") }]) });
    expect(broken.body).toEqual({ error: "ERR_IMPORT_FILE_UNREADABLE" });
  });
});

describe("POST /api/contacts/delete", () => {
  it("deletes many contacts in one request; another company's ids are reported and untouched; a user is refused", async () => {
    const mk = async (u: TestUser, name: string, number: string) => (await api("POST", "/api/contacts", { token: u.token, body: { name, number, email: "" } })).body.id as number;
    const mine = [await mk(w.admin, "Um", "5511977770001"), await mk(w.admin, "Dois", "5511977770002"), await mk(w.admin, "Três", "5511977770003")];
    // The other company's contact gets an id no contact of this company has.
    for (let i = 0; i < mine.at(-1)!; i++) await mk(w.other.admin, `Deles ${i}`, `55119777710${String(i).padStart(2, "0")}`);
    const theirs = await mk(w.other.admin, "Deles", "5511977770004");
    const refused = await api("POST", "/api/contacts/delete", { token: w.agents[0]!.token, body: { contactIds: mine } });
    expect(refused.status).toBe(403);
    expect((await getContact(w.cid, mine[0]!)).name).toBe("Um");
    const res = await api("POST", "/api/contacts/delete", { token: w.admin.token, body: { contactIds: [...mine, theirs] } });
    expect(res.body).toEqual({ deleted: 3, notFound: [theirs] });
    for (const id of mine) await expect(getContact(w.cid, id)).rejects.toMatchObject({ code: "ERR_NO_CONTACT_FOUND" });
    expect((await getContact(w.other.companyId, theirs)).name).toBe("Deles");
    expect((await api("POST", "/api/contacts/delete", { token: w.admin.token, body: { contactIds: [] } })).status).toBe(400);
  });
});

describe("POST /api/contacts/import (the connection's phone book)", () => {
  const book = [
    { id: "5511988880001@s.whatsapp.net", name: "Ana Souza", notify: "Aninha" },
    { id: "99887766554433@lid", phoneNumber: "5511988880002@s.whatsapp.net", notify: "Beto" },
    // A mobile saved without its ninth digit: the same person as 5511998880005.
    { id: "551198880005@s.whatsapp.net", verifiedName: "Loja Central" },
    { id: "5511988880003@s.whatsapp.net", name: "Já Cadastrada" },
    { id: "12@s.whatsapp.net", name: "Curto" },
    // Not kept: a LID without its number, a group, an unreadable entry.
    { id: "11223344556677@lid", name: "Sem número" },
    { id: "120363000000000001@g.us", name: "Grupo da família" },
    { id: 42, name: "Quebrado" },
  ];

  it("creates a contact for each number no contact has (normalized as the other imports), counts exactly, and a second run adds nothing", async () => {
    const fresh = await w.fresh({ agents: [{}], whatsapp: true, other: false });
    const known = await api("POST", "/api/contacts", { token: fresh.admin.token, body: { name: "Cliente Antiga", number: "5511988880003" } });
    expect(known.status).toBe(200);
    await handleBaileysEvent({ companyId: fresh.cid, whatsappId: fresh.wa }, "contacts.upsert", book);
    // A user (the least profile) imports the default connection's phone book.
    const first = await api("POST", "/api/contacts/import", { token: fresh.agents[0]!.token, body: {} });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ added: 3, existing: 1, skipped: 1, total: 5 });
    const named = async (n: string) => (await getContact(fresh.cid, (await findContactIdByNumber(fresh.cid, n))!)).name;
    expect(await named("5511988880001")).toBe("Ana Souza");
    expect(await named("5511988880002")).toBe("Beto");
    expect(await named("5511998880005")).toBe("Loja Central");
    expect(await named("5511988880003")).toBe("Cliente Antiga");
    expect(await findContactIdByNumber(fresh.cid, "12")).toBeNull();
    const again = await api("POST", "/api/contacts/import", { token: fresh.admin.token, body: { whatsappId: fresh.wa } });
    expect(again.body).toEqual({ added: 0, existing: 4, skipped: 1, total: 5 });
    expect((await api("POST", "/api/contacts/import", { token: fresh.admin.token, body: { whatsappId: "x1" } })).status).toBe(400);
  });

  it("never reads another company's connection nor writes into it: 404 and nothing created", async () => {
    // Mine has two connections; theirs one: my second connection's id is none of theirs.
    const mine = await w.fresh({ whatsapp: [{ name: "Loja" }, { name: "Filial", isDefault: false }], other: false });
    const theirs = await w.fresh({ whatsapp: true, other: false });
    const second = mine.whatsapps[1]!;
    expect(theirs.whatsapps).not.toContain(second);
    await handleBaileysEvent({ companyId: mine.cid, whatsappId: second }, "contacts.upsert", book);
    const res = await api("POST", "/api/contacts/import", { token: theirs.admin.token, body: { whatsappId: second } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "ERR_NO_WAPP_FOUND" });
    for (const n of ["5511988880001", "5511988880002"]) {
      expect(await findContactIdByNumber(theirs.cid, n)).toBeNull();
      expect(await findContactIdByNumber(mine.cid, n)).toBeNull();
    }
    // Their own (empty) phone book imports nothing.
    expect((await api("POST", "/api/contacts/import", { token: theirs.admin.token, body: {} })).body).toEqual({ added: 0, existing: 0, skipped: 0, total: 0 });
  });

  it("a large phone book is imported by a background job: 202, progress to done, the exact counts in its result", async () => {
    const fresh = await w.fresh({ whatsapp: true, other: false });
    const at = new Date().toISOString();
    const entries = Array.from({ length: 230 }, (_, i) => {
      const number = `55119777${String(i).padStart(5, "0")}`;
      return { jid: `${number}@s.whatsapp.net`, number, name: `Pessoa ${i}`, notify: null, verifiedName: null, updatedAt: at };
    });
    await putPhoneBookEntries(fresh.cid, fresh.wa, [...entries, { jid: "7@s.whatsapp.net", number: "7", name: "Curto", notify: null, verifiedName: null, updatedAt: at }]);
    const res = await api("POST", "/api/contacts/import", { token: fresh.admin.token, body: {} });
    expect(res.status).toBe(202);
    await runQueuedJobs();
    const job = await api("GET", `/api/jobs/${res.body.jobId}`, { token: fresh.admin.token });
    expect(job.body).toMatchObject({ kind: "importPhoneBook", status: "done", done: 231, total: 231, result: { added: 230, existing: 0, skipped: 1 } });
    expect(await findContactIdByNumber(fresh.cid, "5511977700229")).not.toBeNull();
    const total = await api("GET", "/api/contacts", { token: fresh.admin.token });
    expect(total.body.count).toBe(230);
  }, 120_000);
});
