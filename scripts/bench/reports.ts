/**
 * The reports benchmark (docs/product/reports.md): `GET /api/ticket/reports` first page (50 rows) through the local
 * gateway in a company holding N finished attendances spread over the last 30 days (the cycle items with their GSI1
 * month entries and their report entries with the contact's name and number, as the closing transaction writes them,
 * and the contacts they name), by 8 attendants over 3 queues, a third of them rated. Cases: no filter, one queue,
 * rate 3 (a rated partition), one contact. A page reads its source partitions by key: the target is flat from 1k to
 * 100k (p99 ≤ 50 ms locally).
 * Then the export of the whole unfiltered report to .xlsx through the jobs queue, timed from the request to the job
 * done.
 */
import { loadavg } from "node:os";
import { batchWriteAll } from "../../shared/src/db/batch.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { reportEntryItems } from "../../shared/src/reports/entries.ts";
import type { TicketCycle } from "../../shared/src/tickets/cycles.ts";
import { caseRow } from "./http-load.ts";
import { seedFileTarget, writeSeedFile } from "./seed.ts";

const ATTENDANTS = 8;

/**
 * Writes `n` finished attendances (and their contacts) of company `companyId` over the last 30 days; returns the items
 * written. Into DynamoDB Local's file when the seeds write there (`seed.ts` `seedIntoFile`), else with BatchWriteItem.
 */
export async function seedReportCycles(t: { companyId: number; whatsappId: number; queueIds: number[]; admin: { id: number } }, n: number): Promise<number> {
  if (seedFileTarget()) return (await writeSeedFile(reportCycleItems(t, n, Date.now()), n * 7)).rows;
  let written = 0;
  let items: Record<string, unknown>[] = [];
  for (const item of reportCycleItems(t, n, Date.now())) {
    items.push(item);
    if (items.length >= 500) {
      written += items.length;
      await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })));
      items = [];
    }
  }
  written += items.length;
  await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })));
  return written;
}

/** The items of {@link seedReportCycles}: each attendance's cycle item, report entries and contact. */
export function* reportCycleItems(t: { companyId: number; whatsappId: number; queueIds: number[]; admin: { id: number } }, n: number, now: number): Generator<Record<string, unknown>> {
  for (let i = 0; i < n; i++) {
    const finished = now - 60_000 - Math.floor((((i * 7919) % n) / n) * 29 * 86_400_000);
    const accepted = finished - (5 + (i % 56)) * 60_000;
    const queued = accepted - (1 + (i % 15)) * 60_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const contactId = 1_000_000 + i;
    const c: TicketCycle = {
      companyId: t.companyId,
      ticketId: 1_000_000 + i,
      contactId,
      queueId: t.queueIds[i % t.queueIds.length],
      whatsappId: t.whatsappId,
      queuedAt: iso(queued),
      acceptedAt: iso(accepted),
      acceptedBy: t.admin.id + 1 + (i % ATTENDANTS),
      userId: t.admin.id + 1 + (i % ATTENDANTS),
      finishedAt: iso(finished),
      waitSeconds: Math.round((accepted - queued) / 1000),
      handlingSeconds: Math.round((finished - accepted) / 1000),
      ratedAt: i % 3 === 0 ? iso(finished) : null,
      rate: i % 3 === 0 ? 1 + (i % 3 === 0 ? (i / 3) % 3 : 0) : null,
      contact: { name: `Cliente ${i + 1}`, number: `5511${String(900000000 + i)}` },
    };
    yield { ...keys.ticketCycle(c.companyId, c.ticketId, c.finishedAt), ...keys.ticketCycleIndex(c.companyId, c.ticketId, c.finishedAt, c.userId), _type: "ticketCycle", ...c };
    yield* reportEntryItems(c, []);
    yield { ...keys.contact(t.companyId, contactId), _type: "contact", id: contactId, companyId: t.companyId, ...c.contact };
  }
}

/** The report cases: [label, query string after `limit=50`]. */
export function reportCases(t: { queueIds: number[] }): [string, string][] {
  return [
    ["no filter", ""],
    ["one queue", `&queueId=${t.queueIds[1]}`],
    ["rate 3, closed", "&rate=3&status=closed"],
    ["one contact", "&contactId=1000007"],
  ];
}

/** The first page of the report for each case, then the whole report exported to .xlsx. */
export async function runReportCases(url: string, t: { admin: { token: string }; queueIds: number[] }, n: number, seedSeconds: number, ddbPids: number[], reps: { c1: number; c10: number }) {
  const rows: Record<string, unknown>[] = [];
  for (const [label, q] of reportCases(t)) {
    const target = `${url}/api/ticket/reports?limit=50${q}`;
    const r = await fetch(target, { headers: { authorization: `Bearer ${t.admin.token}` } });
    if (r.status !== 200) throw new Error(`reports ${label}: HTTP ${r.status} ${await r.text()}`);
    const body = (await r.json()) as { tickets: unknown[] };
    const figures = await caseRow(target, t.admin.token, ddbPids, reps).catch((err: Error) => ({ error: err.message.slice(0, 200) }));
    const row = { tickets: n, seedS: seedSeconds, case: label, rows: body.tickets.length, ...figures };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  const t0 = performance.now();
  const started = await fetch(`${url}/api/ticket/reports/export`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.admin.token}`, "content-type": "application/json" },
    body: JSON.stringify({ format: "xlsx", filters: {} }),
  });
  if (started.status !== 202) throw new Error(`export: HTTP ${started.status} ${await started.text()}`);
  const { jobId } = (await started.json()) as { jobId: string };
  let job: { status: string; done: number } = { status: "running", done: 0 };
  // The job runs in this process (the local stack's jobs queue): its memory is this process' growth meanwhile.
  const mb = (b: number) => Math.round(b / 2 ** 20);
  const base = process.memoryUsage();
  let peak = { rss: base.rss, heap: base.heapUsed };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak = { rss: Math.max(peak.rss, m.rss), heap: Math.max(peak.heap, m.heapUsed) };
  }, 50);
  const load0 = loadavg()[0];
  while (job.status !== "done" && performance.now() - t0 < 30 * 60_000) {
    await new Promise((r) => setTimeout(r, 250));
    // A poll reset by the saturated machine is polled again (the job goes on meanwhile).
    const polled = await fetch(`${url}/api/jobs/${jobId}`, { headers: { authorization: `Bearer ${t.admin.token}` } }).then((r) => r.json() as Promise<typeof job>).catch(() => null);
    if (polled) job = polled;
  }
  clearInterval(sampler);
  const exportRow = {
    tickets: n,
    case: "export .xlsx (whole report)",
    rows: job.done,
    status: job.status,
    "export s": Math.round((performance.now() - t0) / 100) / 10,
    "rss MB before / peak": `${mb(base.rss)} / ${mb(peak.rss)}`,
    "heap MB before / peak": `${mb(base.heapUsed)} / ${mb(peak.heap)}`,
    load: `${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
  };
  rows.push(exportRow);
  console.log(JSON.stringify(exportRow));
  return rows;
}
