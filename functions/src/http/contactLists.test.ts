/**
 * Contact lists through the real Lambda handlers: the lists' and items' validation (nothing written on a refusal),
 * the admins-only and plan rules, another company's lists and items answered as missing on every route, the exact
 * `contactsCount`, the spreadsheet import's report (the shared fixtures, .xlsx and .xls), the WhatsApp check queued to
 * the connection's session runner, and the campaigns' read of a list's valid people.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { api, multipartBody, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, runQueuedJobs, useLocalAws } from "../../../test/world.ts";
import { dieAfterCommit } from "../../../shared/src/events/durable.testkit.ts";
import { getJob } from "../../../shared/src/jobs/repository.ts";
import { JobStarted, JobView } from "../../../shared/src/jobs/schema.ts";
import { runJob } from "../../../shared/src/jobs/service.ts";
import { headMedia } from "../../../shared/src/storage/media.ts";
import { listContactListItems } from "../../../shared/src/contactLists/repository.ts";
import { ImportReport } from "../../../shared/src/contactLists/import-schema.ts";
import { ContactList, ContactListItem, ContactListItemsPage, ContactListList, ContactListsPage } from "../../../shared/src/contactLists/schema.ts";
import { validContactListItems } from "../../../shared/src/contactLists/service.ts";
import { recordWhatsappChecks } from "../../../shared/src/contactLists/whatsapp-check.ts";

useLocalAws({ sqs: true });
const w = companyWorld({ whatsapp: true, agents: [{ name: "Ana" }, { name: "Sofia", profile: "supervisor" }], other: true });
/** The shared contact spreadsheets: `../shared/fixtures/contacts` beside the repository (never edited). */
const FIXTURES = fileURLToPath(new URL("../../../../shared/fixtures/contacts", import.meta.url));
const fixture = (name: string) => readFileSync(`${FIXTURES}/${name}`);

const newList = async (u: TestUser = w.admin, name = `Lista ${Math.random().toString(36).slice(2, 8)}`) => {
  const res = await api("POST", "/api/contact-lists", { token: u.token, body: { name } });
  expect(res.status).toBe(200);
  return ContactList.parse(res.body);
};
const addItem = (u: TestUser, body: Record<string, unknown>) => api("POST", "/api/contact-list-items", { token: u.token, body });
const count = async (id: number, u: TestUser = w.admin) => ContactList.parse((await api("GET", `/api/contact-lists/${id}`, { token: u.token })).body).contactsCount;
const upload = (u: TestUser, id: number, name: string, data: Buffer, query = "") =>
  api("POST", `/api/contact-lists/${id}/upload${query}`, { token: u.token, ...multipartBody([{ field: "file", name, type: "application/octet-stream", data }]) });
const items = async (id: number) => listContactListItems(w.cid, id);

beforeEach(async () => {
  if (w.wa) await drainCommands(w.wa);
});

describe("contact lists", () => {
  it("creates, renames, pages by name with search, lists all, and deletes a list with its items", async () => {
    const a = await newList(w.admin, "Clientes Ouro");
    expect(a).toMatchObject({ companyId: w.cid, name: "Clientes Ouro", contactsCount: 0 });
    const renamed = await api("PUT", `/api/contact-lists/${a.id}`, { token: w.admin.token, body: { name: "  Clientes Prata  ", companyId: w.other.companyId } });
    expect(ContactList.parse(renamed.body)).toMatchObject({ id: a.id, name: "Clientes Prata", companyId: w.cid });
    const page = ContactListsPage.parse((await api("GET", "/api/contact-lists?searchParam=prata", { token: w.admin.token })).body);
    expect(page.records.map((l) => l.id)).toEqual([a.id]);
    const all = ContactListList.parse((await api("GET", "/api/contact-lists/list", { token: w.admin.token })).body);
    expect(all.map((l) => l.id)).toContain(a.id);
    await addItem(w.admin, { name: "Pessoa", number: "11 98888-0001", contactListId: a.id });
    const del = await api("DELETE", `/api/contact-lists/${a.id}`, { token: w.admin.token });
    expect(del.status).toBe(200);
    expect((await api("GET", `/api/contact-lists/${a.id}`, { token: w.admin.token })).body).toEqual({ error: "ERR_NO_CONTACT_LIST_FOUND" });
    expect(await items(a.id)).toEqual([]);
  });

  it("validates the name (required, 2-50) and writes nothing on a refusal", async () => {
    const before = ContactListList.parse((await api("GET", "/api/contact-lists/list", { token: w.admin.token })).body).length;
    const cases: [unknown, string][] = [
      [{}, "Required"],
      [{ name: " a " }, "Too Short!"],
      [{ name: "x".repeat(51) }, "Too Long!"],
    ];
    for (const [body, message] of cases) {
      const res = await api("POST", "/api/contact-lists", { token: w.admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([expect.objectContaining({ path: "name", message })]);
    }
    const list = await newList();
    expect((await api("PUT", `/api/contact-lists/${list.id}`, { token: w.admin.token, body: { name: "" } })).status).toBe(400);
    expect(await count(list.id)).toBe(0);
    expect(ContactListList.parse((await api("GET", "/api/contact-lists/list", { token: w.admin.token })).body)).toHaveLength(before + 1);
  });

  it("is the admins' only: a user and a supervisor get 403 on every route and change nothing", async () => {
    const list = await newList();
    for (const u of w.agents) {
      for (const [method, path, body] of [
        ["GET", "/api/contact-lists", undefined],
        ["GET", "/api/contact-lists/list", undefined],
        ["GET", `/api/contact-lists/${list.id}`, undefined],
        ["POST", "/api/contact-lists", { name: "Minha" }],
        ["PUT", `/api/contact-lists/${list.id}`, { name: "Minha" }],
        ["DELETE", `/api/contact-lists/${list.id}`, undefined],
        ["GET", `/api/contact-list-items?contactListId=${list.id}`, undefined],
        ["POST", "/api/contact-list-items", { name: "Ana", number: "5511988880001", contactListId: list.id }],
      ] as const) {
        const res = await api(method, path, { token: u.token, body });
        expect(res.status, `${u.profile} ${method} ${path}`).toBe(403);
      }
      expect((await upload(u, list.id, "a.xlsx", fixture("messy-contacts.xlsx"))).status).toBe(403);
    }
    expect(await count(list.id)).toBe(0);
    expect(await showName(list.id)).toBe(list.name);
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED to a company whose plan has no campaigns", async () => {
    const off = await w.fresh({ planFlags: { useCampaigns: false }, other: false, whatsapp: false, agents: [] });
    const res = await api("POST", "/api/contact-lists", { token: off.admin.token, body: { name: "Lista" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "ERR_PLAN_FEATURE_DISABLED" });
    expect((await api("GET", "/api/contact-list-items?contactListId=1", { token: off.admin.token })).body).toEqual({ error: "ERR_PLAN_FEATURE_DISABLED" });
  });

  it("answers another company's lists and items as missing on every route, and leaves them untouched", async () => {
    const list = await newList();
    const item = ContactListItem.parse((await addItem(w.admin, { name: "Cliente", number: "5511988880002", contactListId: list.id })).body);
    const intruder = w.other.admin;
    const refused: [number, unknown][] = [
      [(await api("GET", `/api/contact-lists/${list.id}`, { token: intruder.token })).status, 404],
      [(await api("PUT", `/api/contact-lists/${list.id}`, { token: intruder.token, body: { name: "Roubada" } })).status, 404],
      [(await api("DELETE", `/api/contact-lists/${list.id}`, { token: intruder.token })).status, 404],
      [(await api("GET", `/api/contact-list-items?contactListId=${list.id}`, { token: intruder.token })).status, 404],
      [(await addItem(intruder, { name: "Intruso", number: "5511988880003", contactListId: list.id })).status, 404],
      [(await api("GET", `/api/contact-list-items/${item.id}`, { token: intruder.token })).status, 404],
      [(await api("PUT", `/api/contact-list-items/${item.id}`, { token: intruder.token, body: { name: "Trocado" } })).status, 404],
      [(await api("DELETE", `/api/contact-list-items/${item.id}`, { token: intruder.token })).status, 404],
      [(await upload(intruder, list.id, "a.xlsx", fixture("messy-contacts.xlsx"))).status, 404],
    ];
    expect(refused.map(([s]) => s)).toEqual(refused.map(([, e]) => e));
    const mine = ContactListsPage.parse((await api("GET", "/api/contact-lists", { token: intruder.token })).body);
    expect(mine.records.map((l) => l.companyId).every((c) => c === w.other.companyId)).toBe(true);
    expect(await count(list.id)).toBe(1);
    expect((await items(list.id)).map((i) => i.name)).toEqual(["Cliente"]);
    await expect(async () => {
      for await (const _ of validContactListItems(w.other.companyId, list.id)) break;
    }).rejects.toMatchObject({ code: "ERR_NO_CONTACT_LIST_FOUND", status: 404 });
  });
});

const showName = async (id: number) => ContactList.parse((await api("GET", `/api/contact-lists/${id}`, { token: w.admin.token })).body).name;

describe("contact list items", () => {
  it("adds people with normalized numbers, keeps one per number, and keeps contactsCount exact", async () => {
    const list = await newList();
    const a = ContactListItem.parse((await addItem(w.admin, { name: "Ana", number: "(31) 8000-0005", email: "ANA@EXAMPLE.COM", contactListId: list.id, companyId: w.other.companyId })).body);
    expect(a).toMatchObject({ companyId: w.cid, number: "5531980000005", email: "ana@example.com", isWhatsappValid: false, contactListId: list.id });
    const again = await addItem(w.admin, { name: "Ana 2", number: "+55 31 98000-0005", contactListId: list.id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "ERR_CONTACT_LIST_ITEM_DUPLICATED" });
    const b = ContactListItem.parse((await addItem(w.admin, { name: "Bruno", number: "551130000017", contactListId: list.id })).body);
    expect(b.number).toBe("551130000017");
    expect(await count(list.id)).toBe(2);
    const page = ContactListItemsPage.parse((await api("GET", `/api/contact-list-items?contactListId=${list.id}&searchParam=bru`, { token: w.admin.token })).body);
    expect(page.contacts.map((i) => i.id)).toEqual([b.id]);
    const edited = await api("PUT", `/api/contact-list-items/${b.id}`, { token: w.admin.token, body: { number: "5531980000005" } });
    expect(edited.status).toBe(409);
    const ok = ContactListItem.parse((await api("PUT", `/api/contact-list-items/${b.id}`, { token: w.admin.token, body: { name: "Bruno Lima", number: "11 3000-0018" } })).body);
    expect(ok).toMatchObject({ name: "Bruno Lima", number: "551130000018" });
    expect((await api("DELETE", `/api/contact-list-items/${a.id}`, { token: w.admin.token })).status).toBe(200);
    expect((await api("DELETE", `/api/contact-list-items/${a.id}`, { token: w.admin.token })).status).toBe(404);
    expect(await count(list.id)).toBe(1);
    // The number of the deleted item is free again.
    expect((await addItem(w.admin, { name: "Ana", number: "5531980000005", contactListId: list.id })).status).toBe(200);
    expect(await count(list.id)).toBe(2);
    expect((await items(list.id)).length).toBe(2);
  });

  it("validates name 2-50, number 8-50 and a phone number, email ('Invalid email'), writing nothing", async () => {
    const list = await newList();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ number: "5511988880001" }, "name", "Required"],
      [{ name: "A", number: "5511988880001" }, "name", "Too Short!"],
      [{ name: "Ana", number: "1234567" }, "number", "Too Short!"],
      [{ name: "Ana", number: "9".repeat(51) }, "number", "Too Long!"],
      [{ name: "Ana", number: "5511988880001", email: "ana@" }, "email", "Invalid email"],
    ];
    for (const [body, path, message] of cases) {
      const res = await addItem(w.admin, { ...body, contactListId: list.id });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields).toEqual([expect.objectContaining({ path, message })]);
    }
    const notPhone = await addItem(w.admin, { name: "Ana", number: "abc-12345", contactListId: list.id });
    expect(notPhone.body).toEqual({ error: "ERR_INVALID_PHONE_NUMBER" });
    expect((await addItem(w.admin, { name: "Ana", number: "5511988880001" })).status).toBe(400);
    expect(await count(list.id)).toBe(0);
  });
});

describe("POST /api/contact-lists/{id}/upload", () => {
  /** Uploads `name` for real: 202 with a job, run by the jobs queue's consumer to the end; the job as its starter reads it. */
  const importThroughJob = async (listId: number, name: string, data = fixture(name)) => {
    const res = await upload(w.admin, listId, name, data);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const started = JobStarted.parse(res.body);
    expect(started.job).toMatchObject({ kind: "importContactList", status: "running", done: 0 });
    await runQueuedJobs();
    const job = await api("GET", `/api/jobs/${started.jobId}`, { token: w.admin.token });
    expect(job.status).toBe(200);
    return { jobId: started.jobId, job: JobView.parse(job.body) };
  };

  it("previews the messy workbook (23 new, 5 skipped with their reasons, a warning for the bad e-mail), then imports it through a job and queues the WhatsApp check", async () => {
    const list = await newList();
    const report = ImportReport.parse((await upload(w.admin, list.id, "messy-contacts.xlsx", fixture("messy-contacts.xlsx"), "?preview=true")).body);
    expect(report).toMatchObject({ preview: true, added: 23, updated: 0, skipped: 5 });
    const skipped = report.rows.filter((r) => r.status === "skipped").map((r) => [r.row, r.reason, r.duplicateOf]);
    expect(skipped).toEqual([
      [15, "duplicate", 4],
      [18, "duplicate", 5],
      [19, "missingNumber", undefined],
      [21, "invalidNumber", undefined],
      [33, "invalidNumber", undefined],
    ]);
    expect(report.rows.find((r) => r.row === 9)).toMatchObject({ status: "added", email: "", warning: "invalidEmail" });
    expect(report.rows.find((r) => r.row === 8)?.number).toBe("5531980000005");
    expect(report.rows.find((r) => r.row === 25)?.number).toBe("551130000017");
    expect(report.rows.find((r) => r.row === 22)?.number).toBe("5527900000014");
    expect(report.rows.find((r) => r.row === 10)).toMatchObject({ name: "Antônio Carlos", number: "5511900000007", email: "antonio.carlos@example.com" });
    expect(await count(list.id)).toBe(0);
    const { job } = await importThroughJob(list.id, "messy-contacts.xlsx");
    expect(job).toMatchObject({ status: "done", done: 23, total: 23, result: { added: 23, updated: 0, skipped: 5 } });
    const stored = await items(list.id);
    expect(stored.map((i) => [i.name, i.number, i.email])).toEqual(
      expect.arrayContaining([
        ["Antônio Carlos", "5511900000007", "antonio.carlos@example.com"],
        [expect.any(String), "5531980000005", expect.any(String)],
      ]),
    );
    expect(stored).toHaveLength(23);
    expect(stored.map((i) => i.number)).not.toContain("5511900000901");
    expect(await count(list.id)).toBe(23);
    const checks = (await drainCommands(w.wa)).filter((c) => c.type === "checkNumbers");
    expect(checks.flatMap((c) => c.items.map((i: { id: number }) => i.id)).sort((a: number, b: number) => a - b)).toEqual(stored.map((i) => i.id));
    expect(checks.every((c) => c.contactListId === list.id && c.companyId === w.cid && c.items.length <= 50)).toBe(true);
  });

  it("updates the people already in the list on a second import (count unchanged), and reads the .xls alike", async () => {
    const list = await newList();
    await importThroughJob(list.id, "messy-contacts.xlsx");
    const preview = ImportReport.parse((await upload(w.admin, list.id, "messy-contacts.xls", fixture("messy-contacts.xls"), "?preview=true")).body);
    expect(preview).toMatchObject({ added: 0, updated: 23, skipped: 5 });
    const { job } = await importThroughJob(list.id, "messy-contacts.xls");
    expect(job.result).toEqual({ added: 0, updated: 23, skipped: 5 });
    expect(await count(list.id)).toBe(23);
  });

  it("imports the 10,000-row workbook through the job in bounded steps: exactly its 10,000 people, once each", async () => {
    const list = await newList();
    const { job, jobId } = await importThroughJob(list.id, "generated-10k-contacts.xlsx");
    expect(job).toMatchObject({ status: "done", done: 10_000, total: 10_000, result: { added: 10_000, updated: 0, skipped: 0 } });
    const stored = await items(list.id);
    expect(stored).toHaveLength(10_000);
    const areas = ["11", "21", "31", "41", "51", "61", "71", "81", "85", "27", "48", "62", "92", "98"];
    const expected = Array.from({ length: 10_000 }, (_, k) => `55${areas[k % 14]}9${String(k + 1).padStart(8, "0")}`).sort();
    expect(stored.map((i) => i.number).sort()).toEqual(expected);
    const first = stored.find((i) => i.number === "5511900000001");
    expect(first).toMatchObject({ name: "Ana Silva", email: "ana.silva.1@example.com", isWhatsappValid: false });
    expect(new Set(stored.map((i) => i.id)).size).toBe(10_000);
    expect(await count(list.id)).toBe(10_000);
    // Every person is sent to the WhatsApp check once, in batches of at most 50.
    const checked: number[] = [];
    for (let got = await drainCommands(w.wa); got.length; got = await drainCommands(w.wa)) {
      for (const c of got) if (c.type === "checkNumbers" && c.contactListId === list.id) checked.push(...c.items.map((i: { id: number }) => i.id));
    }
    expect(checked.sort((a, b) => a - b)).toEqual(stored.map((i) => i.id).sort((a, b) => a - b));
    // The file and its people were kept only for the job.
    const done = await getJob(w.cid, jobId);
    const kept = [String(done?.params.key), String(JSON.parse(done?.cursor ?? "{}").key)];
    expect(kept.every((k) => k.startsWith(`media/${w.cid}/imports/`))).toBe(true);
    expect(await Promise.all(kept.map((k) => headMedia(k)))).toEqual([null, null]);
  }, 900_000);

  it("a step repeated after its consumer died applies nothing twice: the counts and the items stay exact", async () => {
    const list = await newList();
    const res = await upload(w.admin, list.id, "messy-contacts.xlsx", fixture("messy-contacts.xlsx"));
    const { jobId } = JobStarted.parse(res.body);
    // A consumer writes the first step's rows and dies before saving its progress.
    const kill = dieAfterCommit((tx) => tx.length > 1 && tx.some((it) => JSON.stringify(it).includes('"contactListItem"')));
    await runJob(w.cid, jobId).catch(() => undefined);
    expect(kill.died()).toBe(true);
    vi.restoreAllMocks();
    expect(await count(list.id)).toBeGreaterThan(0);
    await runQueuedJobs();
    const job = JobView.parse((await api("GET", `/api/jobs/${jobId}`, { token: w.admin.token })).body);
    expect(job).toMatchObject({ status: "done", result: { added: 23, updated: 0, skipped: 5 } });
    expect(await items(list.id)).toHaveLength(23);
    expect(await count(list.id)).toBe(23);
  });

  it("the job is its starter's and the admins': another company's admin and an agent of the company read nothing", async () => {
    const list = await newList();
    const res = await upload(w.admin, list.id, "messy-contacts.xlsx", fixture("messy-contacts.xlsx"));
    const { jobId } = JobStarted.parse(res.body);
    const intruder = await api("GET", `/api/jobs/${jobId}`, { token: w.other.admin.token });
    expect(intruder.status).toBe(404);
    expect(intruder.body).toEqual({ error: "ERR_NOT_FOUND" });
    const agent = await api("GET", `/api/jobs/${jobId}`, { token: w.agents[0]!.token });
    expect(agent.status).toBe(404);
    // Another company's admin cannot start an import into this list either.
    const foreign = await upload(w.other.admin, list.id, "messy-contacts.xlsx", fixture("messy-contacts.xlsx"));
    expect(foreign.status).toBe(404);
    await runQueuedJobs();
    expect(await count(list.id)).toBe(23);
  });

  it("previews without writing, and refuses other file types and damaged files", async () => {
    const list = await newList();
    const preview = ImportReport.parse((await upload(w.admin, list.id, "whaticket-plus-planilha-excel.xlsx", fixture("whaticket-plus-planilha-excel.xlsx"), "?preview=true")).body);
    expect(preview).toMatchObject({ preview: true, added: 1, skipped: 0 });
    expect(preview.rows[0]).toMatchObject({ number: "5541998239551", email: "atendimento@whaticket.click" });
    expect(await count(list.id)).toBe(0);
    const csv = await upload(w.admin, list.id, "whazing-modelo-full.csv", fixture("whazing-modelo-full.csv"));
    expect(csv.body).toEqual({ error: "ERR_IMPORT_FILE_TYPE" });
    const broken = await upload(w.admin, list.id, "broken.xlsx", Buffer.from("not a workbook"));
    expect(broken.body).toEqual({ error: "ERR_IMPORT_FILE_UNREADABLE" });
    const none = await api("POST", `/api/contact-lists/${list.id}/upload`, { token: w.admin.token, ...multipartBody([]) });
    expect(none.status).toBe(400);
    expect(await count(list.id)).toBe(0);
    expect(await drainCommands(w.wa)).toEqual([]);
    // No job was started for a refused file.
    expect(await runQueuedJobs()).toBe(0);
  });

  it("answers 202 before reading the file: a workbook that turns out damaged fails its job with ERR_IMPORT_FILE_UNREADABLE, nothing written", async () => {
    const list = await newList();
    await addItem(w.admin, { name: "Já estava", number: "5511988880099", contactListId: list.id });
    await drainCommands(w.wa);
    // A ZIP header with nothing of a workbook behind it, and an OLE header likewise: they pass the request's checks.
    const damaged: [string, Buffer][] = [
      ["damaged.xlsx", Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(2000, 7)])],
      ["damaged.xls", Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(2000, 7)])],
    ];
    for (const [name, data] of damaged) {
      const res = await upload(w.admin, list.id, name, data);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(202);
      const { jobId } = JobStarted.parse(res.body);
      const key = String((await getJob(w.cid, jobId))?.params.key);
      expect(await headMedia(key)).not.toBeNull();
      await runQueuedJobs();
      const job = JobView.parse((await api("GET", `/api/jobs/${jobId}`, { token: w.admin.token })).body);
      expect(job, name).toMatchObject({ status: "failed", error: "ERR_IMPORT_FILE_UNREADABLE", done: 0 });
      expect(await headMedia(key)).toBeNull();
    }
    expect((await items(list.id)).map((i) => i.name)).toEqual(["Já estava"]);
    expect(await count(list.id)).toBe(1);
    expect(await drainCommands(w.wa)).toEqual([]);
  });

  it("reads the Whaticket templates and the Whazing workbooks", async () => {
    const list = await newList();
    const saas = ImportReport.parse((await upload(w.admin, list.id, "whaticket-saas-planilha.xlsx", fixture("whaticket-saas-planilha.xlsx"), "?preview=true")).body);
    expect(saas.rows.map((r) => [r.name, r.number, r.email])).toEqual([
      ["Contato 6", "5585888889999", "contato6@test.tom.br"],
      ["Contato 12", "5585888889991", ""],
    ]);
    const full = ImportReport.parse((await upload(w.admin, list.id, "whazing-modelo-full.xls", fixture("whazing-modelo-full.xls"), "?preview=true")).body);
    expect(full.rows.map((r) => [r.name, r.number])).toEqual([
      ["João Silva", "5551900000001"],
      ["Maria Santos", "5551900000002"],
      ["Pedro Costa", "5551900000003"],
    ]);
    // A 10-digit number without a country code is read as a Brazilian area code and landline.
    const short = ImportReport.parse((await upload(w.admin, list.id, "whazing-modelo-nome-numero.xlsx", fixture("whazing-modelo-nome-numero.xlsx"), "?preview=true")).body);
    expect(short.rows.map((r) => [r.name, r.number])).toEqual([["User", "555551900000"]]);
  });
});

describe("validContactListItems", () => {
  it("yields only the people WhatsApp confirmed, by id, whatever the list's size", async () => {
    const list = await newList();
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push(ContactListItem.parse((await addItem(w.admin, { name: `P${i}`, number: `55119888800${10 + i}`, contactListId: list.id })).body).id);
    await recordWhatsappChecks(w.cid, list.id, made.map((id, i) => ({ id, valid: i % 2 === 0 })));
    const got: { id: number; number: string }[] = [];
    for await (const p of validContactListItems(w.cid, list.id)) got.push(p);
    expect(got.map((p) => p.id)).toEqual([made[0], made[2], made[4]]);
    expect(got[0]).toEqual({ id: made[0], name: "P0", number: "5511988880010", email: "" });
    const page = ContactListItemsPage.parse((await api("GET", `/api/contact-list-items?contactListId=${list.id}`, { token: w.admin.token })).body);
    expect(page.contacts.filter((c) => c.isWhatsappValid).map((c) => c.id)).toEqual([made[0], made[2], made[4]]);
  });
});
