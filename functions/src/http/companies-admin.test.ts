/**
 * The super user's companies (docs/product/companies.md): the paged and searchable list, the full list, every field
 * of the company form (billing, recurrence, status, campaignsEnabled, schedules), and deleting a company in the
 * background: its connections logged out first, every item of it gone afterwards, and another company untouched.
 * Admins and agents get 403 on each and nothing changes.
 */
import { ScanCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { ddb, tableName } from "@atende/shared/db/client";
import { counterFacts, outboxPut } from "@atende/shared/events/outbox";
import { getMedia, putMedia } from "@atende/shared/storage/media";
import { handler as tick } from "../jobs/tick.ts";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, runQueuedJobs, useLocalAws } from "../../../test/world.ts";

useLocalAws({ sqs: true, bucket: "atende-media-companies-test" });
const w = companyWorld({ ticket: true, agents: [{ name: "Ana" }], other: true, root: true });
let root: TestUser;
beforeAll(() => {
  root = w.root;
});

const week = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekdayEn, i) => ({
  weekday: ["Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado", "Domingo"][i],
  weekdayEn,
  startTime: "09:00",
  endTime: i < 5 ? "18:00" : "12:00",
}));

/** Every stored item that belongs to company `cid`: its partitions and index partitions, by a Scan (tests only). */
async function itemsOf(cid: number): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  const own = (v: unknown) => typeof v === "string" && (v === `C#${cid}` || v.startsWith(`C#${cid}#`));
  do {
    const page = await ddb().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    for (const it of page.Items ?? []) if (["PK", "GSI1PK", "GSI2PK", "GSI3PK", "GSI4PK"].some((a) => own(it[a])) || it.companyId === cid) out.push(it);
    start = page.LastEvaluatedKey;
  } while (start);
  // Left aside: the job items (of the super user's company), and the platform's due work naming the company (counter
  // facts and listener runs in the shared due partitions, drained by the minute tick).
  return out.filter((it) => !String(it.PK).includes("#JOB#") && it._type !== "outbox" && !String(it.PK).startsWith("LRUN#"));
}

describe("company form fields", () => {
  it("creates and changes every field of the company form; the list pages and searches", async () => {
    const res = await api("POST", "/api/companies", {
      token: root.token,
      body: {
        name: "Oficina Ágil",
        email: "oficina@agil.test",
        phone: "11988887777",
        password: "segredo1",
        planId: w.planId,
        recurrence: "TRIMESTRAL",
        status: true,
        campaignsEnabled: true,
        billingName: "Oficina Ágil LTDA",
        addressZipCode: "01001-000",
        addressStreet: "Praça da Sé, 1",
        addressState: "SP",
        addressCity: "São Paulo",
        addressDistrict: "Sé",
        schedules: [...week].reverse(),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recurrence: "TRIMESTRAL", campaignsEnabled: true, billingName: "Oficina Ágil LTDA", addressCity: "São Paulo", addressDistrict: "Sé" });
    expect(res.body.schedules.map((s: { weekdayEn: string }) => s.weekdayEn)).toEqual(week.map((s) => s.weekdayEn));
    const id = res.body.id;

    const upd = await api("PUT", `/api/companies/${id}`, { token: root.token, body: { campaignsEnabled: false, addressCity: "Campinas", recurrence: "ANUAL" } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ campaignsEnabled: false, addressCity: "Campinas", recurrence: "ANUAL", billingName: "Oficina Ágil LTDA" });
    expect((await api("GET", `/api/companies/${id}`, { token: root.token })).body).toMatchObject({ campaignsEnabled: false, addressCity: "Campinas" });

    const found = await api("GET", `/api/companies?searchParam=${encodeURIComponent("oficina agil")}`, { token: root.token });
    expect(found.status).toBe(200);
    expect(found.body.companies.map((c: { id: number }) => c.id)).toEqual([id]);
    expect(found.body).toMatchObject({ count: 1, hasMore: false });
    const none = await api("GET", `/api/companies?searchParam=${encodeURIComponent("não existe nada assim")}`, { token: root.token });
    expect(none.body).toMatchObject({ companies: [], count: 0 });
    const all = await api("GET", "/api/companies/list", { token: root.token });
    expect(all.body.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([id, w.cid, w.other.companyId]));
  });

  it("refuses admins and agents on every super route, writing nothing", async () => {
    for (const token of [w.admin.token, w.agents[0].token]) {
      expect((await api("GET", "/api/companies", { token })).status).toBe(403);
      expect((await api("GET", "/api/companies/list", { token })).status).toBe(403);
      expect((await api("GET", `/api/companies/${w.cid}`, { token })).status).toBe(403);
      expect((await api("PUT", `/api/companies/${w.cid}`, { token, body: { addressCity: "Outra" } })).status).toBe(403);
      expect((await api("PUT", `/api/companies/${w.other.companyId}`, { token, body: { status: false } })).status).toBe(403);
      expect((await api("DELETE", `/api/companies/${w.other.companyId}`, { token })).status).toBe(403);
    }
    const other = await api("GET", `/api/companies/${w.other.companyId}`, { token: root.token });
    expect(other.body.status).toBe(true);
    expect(other.body.addressCity).toBe("");
  });

  it("answers 400 to bad bodies and queries", async () => {
    expect((await api("PUT", `/api/companies/${w.cid}`, { token: root.token, body: { schedules: week.slice(0, 3) } })).status).toBe(400);
    expect((await api("PUT", `/api/companies/${w.cid}`, { token: root.token, body: { campaignsEnabled: "sim" } })).status).toBe(400);
    expect((await api("GET", "/api/companies?pageNumber=0", { token: root.token })).status).toBe(400);
  });
});

describe("DELETE /api/companies/{id}", () => {
  it("logs the connections out, refuses the company's users at once and removes all its data, leaving others untouched", async () => {
    const victim = await w.fresh({ ticket: true, agents: [{ name: "Bia" }] });
    // Some of everything: messages, a note, a tag on the ticket, a quick message, a media object.
    for (const body of ["primeira mensagem", "segunda resposta"]) expect((await api("POST", `/api/messages/${victim.ticket.id}`, { token: victim.admin.token, body: { body } })).status).toBe(200);
    expect((await api("POST", "/api/ticket-notes", { token: victim.admin.token, body: { note: "ligar amanhã", ticketId: victim.ticket.id, contactId: victim.contact.id } })).status).toBe(200);
    expect((await api("POST", "/api/quick-messages", { token: victim.admin.token, body: { shortcode: "oi", message: "Olá!" } })).status).toBe(200);
    await putMedia(`media/${victim.cid}/1/x.txt`, new TextEncoder().encode("x"), "text/plain");
    await putMedia(`media/${w.other.companyId}/1/keep.txt`, new TextEncoder().encode("k"), "text/plain");
    await drainCommands(victim.wa);
    const othersBefore = (await itemsOf(w.other.companyId)).length;
    expect((await itemsOf(victim.cid)).length).toBeGreaterThan(10);

    const res = await api("DELETE", `/api/companies/${victim.cid}`, { token: root.token });
    expect(res.status).toBe(202);
    expect(res.body.job).toMatchObject({ kind: "deleteCompany", status: "running" });
    expect((await drainCommands(victim.wa)).map((c) => c.type)).toContain("disconnect");
    // Its users are refused from now on, before the job ran.
    await new Promise((r) => setTimeout(r, 5_100)); // the company gate's cache
    expect((await api("GET", "/api/auth/me", { token: victim.admin.token })).status).toBeGreaterThanOrEqual(401);

    await runQueuedJobs();
    const job = await api("GET", `/api/jobs/${res.body.jobId}`, { token: root.token });
    expect(job.body).toMatchObject({ status: "done" });
    expect(await itemsOf(victim.cid)).toEqual([]);
    for (const email of [victim.admin.email, victim.agents[0].email]) {
      const login = await api("POST", "/api/auth/login", { body: { email, password: victim.admin.password }, ip: "10.9.9.9" });
      expect(login.status).toBe(401);
    }
    await expect(getMedia(`media/${victim.cid}/1/x.txt`)).rejects.toThrow();
    expect((await api("GET", `/api/companies/${victim.cid}`, { token: root.token })).status).toBe(404);
    // The other company keeps everything.
    expect((await itemsOf(w.other.companyId)).length).toBe(othersBefore);
    expect((await getMedia(`media/${w.other.companyId}/1/keep.txt`)).toString()).toBe("k");
  }, 60_000);

  it("counts none of the company's facts still queued when it was deleted: its counters stay gone", async () => {
    const victim = await w.fresh({ ticket: true, root: false });
    // Facts a dead process left in the outbox (messages sent by the admin, the ticket opened), due for the tick.
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    const facts = [
      counterFacts.message({ companyId: victim.cid, ticketId: victim.ticket.id, id: "3EB0GONE1", fromMe: true, userId: victim.admin.id, createdAt: at }),
      counterFacts.message({ companyId: victim.cid, ticketId: victim.ticket.id, id: "3EB0GONE2", fromMe: true, userId: victim.admin.id, createdAt: at }),
      counterFacts.contact({ companyId: victim.cid, id: victim.contact.id, createdAt: at }),
      counterFacts.ticketDeleted({ companyId: victim.cid, id: victim.ticket.id, status: "open", updatedAt: at }),
    ];
    await ddb().send(new TransactWriteCommand({ TransactItems: facts.flatMap((f) => outboxPut(f)) }));
    const queued = async () => (await ddb().send(new ScanCommand({ TableName: tableName(), FilterExpression: "#t = :o AND companyId = :c", ExpressionAttributeNames: { "#t": "_type" }, ExpressionAttributeValues: { ":o": "outbox", ":c": victim.cid } }))).Items ?? [];
    expect((await queued()).length).toBeGreaterThanOrEqual(4);

    const res = await api("DELETE", `/api/companies/${victim.cid}`, { token: root.token });
    expect(res.status).toBe(202);
    await drainCommands(victim.wa);
    await runQueuedJobs();
    expect((await api("GET", `/api/jobs/${res.body.jobId}`, { token: root.token })).body).toMatchObject({ status: "done" });
    expect(await itemsOf(victim.cid)).toEqual([]);

    await tick({ time: new Date(Date.now() + 5 * 60_000).toISOString() }); // every queued fact due
    expect((await queued()).map((it) => [it.SK, it.at, it.deltas])).toEqual([]); // dropped, uncounted
    expect(await itemsOf(victim.cid)).toEqual([]); // no STATS day, user-day or current-count item came back
  }, 60_000);

  it("refuses the super user's own company and an unknown one", async () => {
    expect((await api("DELETE", `/api/companies/${root.companyId}`, { token: root.token })).body).toEqual({ error: "ERR_CANNOT_DELETE_OWN_COMPANY" });
    expect((await api("DELETE", "/api/companies/999999", { token: root.token })).status).toBe(404);
  });
});
