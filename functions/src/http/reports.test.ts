/**
 * The report of attendances through the real Lambda handlers: each filter alone, paging by cursor with no duplicate
 * and no gap, the export read back from its file, the Atendimentos tab, the backfill of cycles stored before the
 * report entries, a renamed contact's name on every attendance (also one closed mid-rename), a deleted ticket's
 * attendances leaving every filter. Another company sees none of it and cannot use our cursor; agents and supervisors get 403 on the
 * report, and the Atendimentos tab lists only what the caller may open.
 */
import ExcelJS from "exceljs";
import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld, runQueuedJobs, useLocalAws } from "../../../test/world.ts";
import { finishRating } from "../../../shared/src/automation/rating.ts";
import { ddb, tableName } from "../../../shared/src/db/client.ts";
import { keys } from "../../../shared/src/db/keys.ts";
import { reportEntryPKs } from "../../../shared/src/reports/entries.ts";
import { backfillReportEntries, REPORT_BACKFILL_KIND, startReportBackfill } from "../../../shared/src/reports/backfill.ts";
import { getBackfill } from "../../../shared/src/reports/repository.ts";
import { createCompany } from "../../../shared/src/companies/service.ts";
import { authenticate } from "../../../shared/src/auth/tokens.ts";
import { createQueue } from "../../../shared/src/queues/service.ts";
import { getTimer } from "../../../shared/src/timers/index.ts";
import type { TicketCycle } from "../../../shared/src/tickets/cycles.ts";
import { queryAll } from "../../../shared/src/db/query.ts";
import { makeContact, makeTicket, setSetting } from "../../../shared/src/tickets/fixtures.testkit.ts";

useLocalAws({ sqs: true });
const w = companyWorld({
  queues: ["Suporte", "Vendas"],
  whatsapp: [{ name: "Principal" }, { name: "Segunda" }],
  agents: [{ queues: [0], name: "Ana" }, { queues: [1], name: "Beto", profile: "supervisor" }],
  other: true,
});

type Row = { ticketId: number; status: string; contact: { id: number; name: string }; queue: { id: number } | null; user: { id: number } | null; whatsapp: { id: number } | null; rate: number | null };
const report = async (token: string, query = "") => api("GET", `/api/ticket/reports${query ? `?${query}` : ""}`, { token });
const rows = async (query = "", token = w.admin.token): Promise<Row[]> => {
  const res = await report(token, `limit=200${query ? `&${query}` : ""}`);
  expect(res.status).toBe(200);
  expect(res.body.hasMore).toBe(false);
  return res.body.tickets;
};
const ids = (rs: Row[]) => rs.map((r) => r.ticketId).sort((a, b) => a - b);

/** The tickets of the scripted data, by role. */
const T = { rated: 0, tagged: 0, vendas: 0, second: 0, pending: 0, open: 0, bulk: [] as number[] };
let tagId = 0;
let maria = 0;
let mariaNumber = "";

const close = async (id: number, token = w.admin.token) => expect((await api("PUT", `/api/tickets/${id}`, { token, body: { status: "closed", justClose: true } })).body.status).toBe("closed");

describe("reports", { timeout: 240_000 }, () => {
  beforeAll(async () => {
    const [suporte, vendas] = w.queues;
    const [wa1, wa2] = w.whatsapps;
    const ana = w.agents[0];
    const mariaContact = await makeContact(w.cid, "Maria Relatório");
    maria = mariaContact.id;
    mariaNumber = mariaContact.number;
    // Rated 3 by Maria, after Ana handled it in Suporte.
    const rated = await makeTicket(w.cid, { whatsappId: wa1, queueId: suporte, status: "open", userId: ana.id, contact: mariaContact });
    T.rated = rated.id;
    await setSetting(w.cid, "userRating", "enabled");
    const resolved = await api("PUT", `/api/tickets/${rated.id}`, { token: ana.token, body: { status: "closed" } });
    expect(await finishRating(w.cid, rated.id, resolved.body.ratingAt, 3)).toBe(true);
    await setSetting(w.cid, "userRating", "disabled");
    // Tagged "VIP" before it closes.
    const tag = await api("POST", "/api/tags", { token: w.admin.token, body: { name: "VIP", color: "#ff0000" } });
    tagId = tag.body.id;
    const tagged = await makeTicket(w.cid, { whatsappId: wa1, queueId: suporte, status: "open", userId: ana.id });
    expect((await api("POST", "/api/tags/sync", { token: w.admin.token, body: { ticketId: tagged.id, tags: [{ id: tagId }] } })).status).toBe(200);
    await close(tagged.id);
    T.tagged = tagged.id;
    T.vendas = (await makeTicket(w.cid, { whatsappId: wa1, queueId: vendas, status: "open", userId: w.admin.id })).id;
    await close(T.vendas);
    T.second = (await makeTicket(w.cid, { whatsappId: wa2, queueId: null, status: "open", userId: w.admin.id })).id;
    await close(T.second);
    // Left pending in Suporte, and open with Ana: Maria's second ticket.
    T.pending = (await makeTicket(w.cid, { whatsappId: wa2, queueId: suporte })).id;
    T.open = (await makeTicket(w.cid, { whatsappId: wa2, queueId: suporte, status: "open", userId: ana.id, contact: mariaContact })).id;
    for (let i = 0; i < 12; i++) {
      const t = await makeTicket(w.cid, { whatsappId: wa1, queueId: vendas, status: "open", userId: w.admin.id });
      await close(t.id);
      T.bulk.push(t.id);
    }
  });

  it("lists every attendance of the period with its contact, queue, attendant, times and rating", async () => {
    const all = await rows();
    expect(ids(all)).toEqual(ids([T.rated, T.tagged, T.vendas, T.second, T.pending, T.open, ...T.bulk].map((ticketId) => ({ ticketId }) as Row)));
    const rated = all.find((r) => r.ticketId === T.rated) as Row & Record<string, unknown>;
    expect(rated).toMatchObject({ status: "closed", contact: { id: maria, name: "Maria Relatório", number: mariaNumber }, queue: { id: w.queues[0], name: "Suporte" }, user: { id: w.agents[0].id, name: "Ana" }, whatsapp: { name: "Principal" }, rate: 3 });
    expect(rated.acceptedAt).toEqual(expect.any(String));
    expect(rated.closedAt).toEqual(expect.any(String));
    expect(all.find((r) => r.ticketId === T.pending)).toMatchObject({ status: "pending", acceptedAt: null, closedAt: null, user: null });
    // newest first within each part: current work, then finished cycles
    expect(all.slice(0, 2).map((r) => r.status).sort()).toEqual(["open", "pending"]);
  });

  it("filters by each of status, queue, attendant, connection, tag, contact and rating", async () => {
    expect(ids(await rows("status=pending"))).toEqual([T.pending]);
    expect(ids(await rows("status=open"))).toEqual([T.open]);
    expect(ids(await rows("status=closed"))).toEqual([T.rated, T.tagged, T.vendas, T.second, ...T.bulk].sort((a, b) => a - b));
    expect(ids(await rows(`queueId=${w.queues[0]}`))).toEqual([T.rated, T.tagged, T.pending, T.open]);
    expect(ids(await rows(`queueId=${w.queues[0]}&status=closed`))).toEqual([T.rated, T.tagged]);
    expect(ids(await rows(`userId=${w.agents[0].id}`))).toEqual([T.rated, T.tagged, T.open]);
    expect(ids(await rows(`whatsappId=${w.whatsapps[1]}`))).toEqual([T.second, T.pending, T.open]);
    expect(ids(await rows(`tagId=${tagId}`))).toEqual([T.tagged]);
    expect(ids(await rows(`contactId=${maria}`))).toEqual([T.rated, T.open]);
    expect(ids(await rows("rate=3"))).toEqual([T.rated]);
    expect(ids(await rows("rate=1"))).toEqual([]);
    expect(ids(await rows(`queueId=${w.queues[1]}&userId=${w.agents[0].id}`))).toEqual([]);
    // a period before any of it
    expect(await rows("initialDate=2020-01-01&finalDate=2020-01-31")).toEqual([]);
  });

  it("pages by cursor with no duplicate and no gap, however the filters combine", async () => {
    for (const q of ["", "status=closed", `queueId=${w.queues[1]}`, `whatsappId=${w.whatsapps[0]}&status=closed`]) {
      const whole = ids(await rows(q));
      const seen: number[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 40; i++) {
        const res = await report(w.admin.token, `limit=4${q ? `&${q}` : ""}${cursor ? `&cursor=${cursor}` : ""}`);
        expect(res.status).toBe(200);
        expect(res.body.tickets.length).toBeLessThanOrEqual(4);
        seen.push(...res.body.tickets.map((r: Row) => r.ticketId));
        if (!res.body.hasMore) break;
        cursor = res.body.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort((a, b) => a - b)).toEqual(whole);
    }
  });

  it("refuses bad queries and forged cursors with 400", async () => {
    expect((await report(w.admin.token, "limit=0")).status).toBe(400);
    expect((await report(w.admin.token, "rate=4")).status).toBe(400);
    expect((await report(w.admin.token, "initialDate=2026-02-10&finalDate=2026-02-01")).status).toBe(400);
    expect((await report(w.admin.token, "initialDate=2020-01-01&finalDate=2022-01-01")).body).toMatchObject({ error: "ERR_VALIDATION" });
    expect((await report(w.admin.token, "cursor=nonsense")).body).toEqual({ error: "ERR_INVALID_CURSOR" });
    const forged = Buffer.from(JSON.stringify({ s: 99 })).toString("base64url");
    expect((await report(w.admin.token, `cursor=${forged}`)).body).toEqual({ error: "ERR_INVALID_CURSOR" });
  });

  it("gives agents and supervisors 403; another company sees none of it, even with our cursor", async () => {
    for (const a of w.agents) {
      expect((await api("GET", "/api/ticket/reports", { token: a.token })).body).toEqual({ error: "ERR_NO_PERMISSION" });
      expect((await api("POST", "/api/ticket/reports/export", { token: a.token, body: { format: "csv" } })).status).toBe(403);
    }
    const theirs = await rows("", w.other.admin.token);
    expect(theirs.some((r) => [T.rated, T.open, ...T.bulk].includes(r.ticketId) && r.contact.id === maria)).toBe(false);
    expect(theirs).toEqual([]);
    const first = await report(w.admin.token, "limit=3");
    const next = await report(w.other.admin.token, `limit=3&cursor=${first.body.nextCursor}`);
    expect(next.status === 200 ? next.body.tickets : []).toEqual([]);
    expect((await api("GET", `/api/ticket/history/${T.open}`, { token: w.other.admin.token })).status).toBe(404);
  });

  it("exports the whole filtered report to .xlsx and .csv, readable by the company's admins only", async () => {
    const started = await api("POST", "/api/ticket/reports/export", { token: w.admin.token, body: { format: "xlsx", filters: { queueId: w.queues[1] } } });
    expect(started).toMatchObject({ status: 202, body: { job: { kind: "exportReport", status: "running" } } });
    await runQueuedJobs();
    expect((await api("GET", `/api/jobs/${started.body.jobId}`, { token: w.admin.token })).body).toMatchObject({ status: "done", done: 13 });
    expect((await api("GET", `/api/ticket/reports/export/${started.body.jobId}`, { token: w.other.admin.token })).status).toBe(404);
    const link = await api("GET", `/api/ticket/reports/export/${started.body.jobId}`, { token: w.admin.token });
    expect(link).toMatchObject({ status: 200, body: { fileName: "relatorio-atendimentos.xlsx" } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await (await fetch(link.body.url)).arrayBuffer());
    const sheet = wb.getWorksheet("Atendimentos")!;
    expect(sheet.getRow(1).getCell(1).value).toBe("Atendimento");
    const exported = [] as number[];
    sheet.eachRow((row, n) => {
      if (n > 1) exported.push(Number(row.getCell(1).value));
    });
    expect(exported.sort((a, b) => a - b)).toEqual([T.vendas, ...T.bulk].sort((a, b) => a - b));
    const csv = await api("POST", "/api/ticket/reports/export", { token: w.admin.token, body: { format: "csv", filters: { rate: 3 } } });
    await runQueuedJobs();
    const csvLink = await api("GET", `/api/ticket/reports/export/${csv.body.jobId}`, { token: w.admin.token });
    const text = await (await fetch(csvLink.body.url)).text();
    const lines = text.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("Maria Relatório");
    expect(lines[1].split(";")[12]).toBe("3");
  });

  it("lists a contact's attendances on the Atendimentos tab, only those the caller may open", async () => {
    const admin = await api("GET", `/api/ticket/history/${T.open}`, { token: w.admin.token });
    expect(admin.status).toBe(200);
    expect(admin.body.attendances.map((r: Row) => [r.ticketId, r.rate])).toEqual([[T.rated, 3]]);
    // Ana works Suporte: she sees Maria's rated attendance; Beto (Vendas) may not open Maria's open ticket at all
    expect((await api("GET", `/api/ticket/history/${T.open}`, { token: w.agents[0].token })).body.attendances).toHaveLength(1);
    expect((await api("GET", `/api/ticket/history/${T.open}`, { token: w.agents[1].token })).status).toBe(403);
    expect((await api("GET", "/api/ticket/history/99999999", { token: w.admin.token })).status).toBe(404);
  });

  it("backfills the report entries of cycles stored before they existed, resumably", async () => {
    const c = await w.fresh({ queues: ["Antiga"] });
    const t = await makeTicket(c.cid, { whatsappId: c.wa, queueId: c.queues[0], status: "open", userId: c.admin.id });
    await close(t.id, c.admin.token);
    const [cycle] = (await queryAll({ KeyConditionExpression: "PK = :pk AND begins_with(SK, :c)", ExpressionAttributeValues: { ":pk": keys.ticket(c.cid, t.id).PK, ":c": keys.ticketCyclePrefix } })) as TicketCycle[];
    // as stored before the entries existed: no entries, and a company not born with them (no progress)
    for (const pk of reportEntryPKs(cycle, [])) await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.reportEntry(pk, cycle.finishedAt, t.id) }));
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.reportBackfill(c.cid) }));
    const byQueue = () => report(c.admin.token, `queueId=${c.queues[0]}&status=closed`);
    expect((await byQueue()).body.tickets).toEqual([]);
    expect(await backfillReportEntries(c.cid, 1)).toMatchObject({ done: false });
    expect((await getBackfill(c.cid))?.done).toBe(false);
    for (let i = 0; i < 20 && !(await getBackfill(c.cid))?.done; i++) await backfillReportEntries(c.cid, 1);
    expect((await getBackfill(c.cid))?.done).toBe(true);
    expect((await byQueue()).body.tickets.map((r: Row) => r.ticketId)).toEqual([t.id]);
  });

  it("names a queue created since the page before (the names a page joins are reused briefly, never missing)", async () => {
    const c = await w.fresh({ queues: ["Primeira"] });
    await makeTicket(c.cid, { whatsappId: c.wa, queueId: c.queues[0], status: "open", userId: c.admin.id });
    const names = async () => ((await report(c.admin.token)).body.tickets as { queue: { name: string } | null }[]).map((r) => r.queue?.name).sort();
    expect(await names()).toEqual(["Primeira"]);
    const { id } = await createQueue(await authenticate(c.admin.token), { name: "Recente", color: "#123456", greetingMessage: "", outOfHoursMessage: "" });
    await makeTicket(c.cid, { whatsappId: c.wa, queueId: id, status: "pending" });
    expect(await names()).toEqual(["Primeira", "Recente"]);
  });

  it("shows a renamed contact's new name and number on each of its attendances, under every filter, and keeps it when the contact is deleted", async () => {
    const c = await w.fresh({ queues: ["Renomes"] });
    const joana = await makeContact(c.cid, "Joana Antiga");
    const closed: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = await makeTicket(c.cid, { whatsappId: c.wa, queueId: c.queues[0], status: "open", userId: c.admin.id, contact: joana });
      await close(t.id, c.admin.token);
      closed.push(t.id);
    }
    const open = await makeTicket(c.cid, { whatsappId: c.wa, queueId: c.queues[0], status: "open", userId: c.admin.id, contact: joana });
    const renamed = await api("PUT", `/api/contacts/${joana.id}`, { token: c.admin.token, body: { name: "Joana Nova", number: "5511977776666" } });
    expect(renamed.status).toBe(200);
    const shown = async (query: string) => {
      const res = await report(c.admin.token, `limit=200${query ? `&${query}` : ""}`);
      return (res.body.tickets as (Row & { contact: { number: string } })[]).map((r) => [r.ticketId, r.contact.name, r.contact.number]);
    };
    const expected = [open.id, ...closed.reverse()].map((id) => [id, "Joana Nova", "5511977776666"]);
    for (const q of ["", `queueId=${c.queues[0]}`, `userId=${c.admin.id}`, `contactId=${joana.id}`, `whatsappId=${c.wa}`]) {
      expect(await shown(q)).toEqual(expected);
    }
    expect((await api("GET", `/api/ticket/history/${open.id}`, { token: c.admin.token })).body.attendances.map((r: Row) => r.contact.name)).toEqual(["Joana Nova", "Joana Nova", "Joana Nova"]);
    // the attendances keep the name their contact had, as its tickets do
    expect((await api("DELETE", `/api/contacts/${joana.id}`, { token: c.admin.token })).status).toBe(200);
    expect((await shown("status=closed")).map((r) => r[1])).toEqual(["Joana Nova", "Joana Nova", "Joana Nova"]);
  });

  it("stores the contact's current name on a ticket closed while its summary still names the old one", async () => {
    const c = await w.fresh({ queues: ["Fecho"] });
    const carlos = await makeContact(c.cid, "Carlos Velho");
    const t = await makeTicket(c.cid, { whatsappId: c.wa, queueId: c.queues[0], status: "open", userId: c.admin.id, contact: carlos });
    // renamed, and the listeners not run yet: the ticket's contact summary still says "Carlos Velho"
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.contact(c.cid, carlos.id), UpdateExpression: "SET #n = :n", ExpressionAttributeNames: { "#n": "name" }, ExpressionAttributeValues: { ":n": "Carlos Novo" } }));
    await close(t.id, c.admin.token);
    for (const q of ["status=closed", `queueId=${c.queues[0]}`, `contactId=${carlos.id}`]) {
      expect((await report(c.admin.token, q)).body.tickets.map((r: Row) => r.contact.name)).toEqual(["Carlos Novo"]);
    }
  });

  it("drops a deleted ticket's attendances from the report under every filter", async () => {
    const c = await w.fresh({ queues: ["Apagar"] });
    const tag = await api("POST", "/api/tags", { token: c.admin.token, body: { name: "Some", color: "#00ff00" } });
    const kept = await makeTicket(c.cid, { whatsappId: c.wa, queueId: c.queues[0], status: "open", userId: c.admin.id });
    await close(kept.id, c.admin.token);
    const gone = await makeTicket(c.cid, { whatsappId: c.wa, queueId: c.queues[0], status: "open", userId: c.admin.id });
    expect((await api("POST", "/api/tags/sync", { token: c.admin.token, body: { ticketId: gone.id, tags: [{ id: tag.body.id }] } })).status).toBe(200);
    await close(gone.id, c.admin.token);
    const queries = ["", `queueId=${c.queues[0]}`, `tagId=${tag.body.id}`, `contactId=${gone.contactId}`, `whatsappId=${c.wa}`, `userId=${c.admin.id}`];
    const listed = async () => Promise.all(queries.map(async (q) => ids(await rows(q, c.admin.token)).includes(gone.id)));
    expect(await listed()).toEqual(queries.map(() => true));
    expect((await api("DELETE", `/api/tickets/${gone.id}`, { token: c.admin.token })).status).toBe(200);
    expect(await listed()).toEqual(queries.map(() => false));
    expect(ids(await rows("", c.admin.token))).toEqual([kept.id]);
  });

  it("never schedules the report backfill for a company created through the product: its cycles write their entries", async () => {
    const { planId } = await w.fresh();
    const { company } = await createCompany("system", { name: "Empresa Relatórios", email: "nova-relatorios@empresa.test", phone: "", password: "segredo1", planId, recurrence: "MENSAL", status: true });
    expect((await getBackfill(company.id))?.done).toBe(true);
    expect(await startReportBackfill()).not.toContain(company.id);
    expect(await getTimer(company.id, REPORT_BACKFILL_KIND, "entries")).toBeNull();
  });
});
