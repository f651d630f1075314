/**
 * The Contacts page's import and bulk delete through the real handlers: a spreadsheet (.csv in Windows-1252, .xlsx)
 * read with the contact list import's rules and report, contacts created in the caller's company only and updated on
 * a second import; preview writes nothing; many contacts deleted in one request by an admin, another company's ids
 * left untouched, a user refused.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { api, multipartBody, type TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { ImportReport } from "../../../shared/src/contactLists/import-schema.ts";
import { findContactIdByNumber, getContact } from "../../../shared/src/contacts/service.ts";

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
  });

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
