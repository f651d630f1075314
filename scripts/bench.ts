/**
 * `npm run bench`: the product's speed figures, printed as tables and saved to
 * `.bench/results.json`. Targets live here, never in tests:
 * - ingest: inbound messages/s through the ingest service, and p99 from Baileys event to the realtime frame in an
 *   agent's browser socket at 50 messages/s;
 * - `GET /api/tickets` through the local gateway, page of 40 with nested data: p50/p99, requests/s and
 *   the product's CPU time per request (this process, which hosts the local stack, plus DynamoDB Local's Java, from
 *   `/proc/<pid>/stat`; the requests come from a separate client process, `bench/http-load.ts`) at concurrency 1 and
 *   10, for the tabs (open mine / showAll, pending, closed) at 1k, 10k and 100k tickets (search: the search section) (target on a quiet machine: CPU ≤ 8 ms per request and p50 ≤ 10 ms at
 *   concurrency 1, flat across sizes);
 * - the web's initial JavaScript, gzipped, and the ticket-list render in headless chromium for 5k tickets (navigation
 *   to first rows painted, scrolling the virtualized list through every page of 40, DOM rows; `scripts/bench/web-render.ts`).
 * - search (`scripts/bench/search.ts`): ticket and contact search for a surname, a number fragment and
 *   a message word, matching and not, at `--searchSizes` tickets of 5 messages each (target p99 ≤ 50 ms, flat), with
 *   the same latency, requests/s and CPU-per-request columns as the tabs, and the items the index adds per message write;
 * - faults: inbound messages/s while 5% of DynamoDB calls fail (throttling, 5xx, conflicts), with the
 *   parked ones re-driven and every message counted as stored.
 * - ratio (`scripts/bench/ingest-ratio.ts`): ingest rate over DynamoDB Local's rate for the
 *   ingest's bare 4-item transaction, alternated in one run (target ≥ 0.9), and DynamoDB calls per message by purpose;
 *   measured on an in-memory DynamoDB Local only (with `--keepDb` it prints a warning: a database on files is not comparable);
 * - kanban (`scripts/bench/kanban.ts`): the board at `--kanbanSizes` open tickets (default 1k, 5k): navigation to the
 *   first cards painted in headless chromium (target ≤ 1 s, flat across sizes), `GET /api/ticket/kanban` latency,
 *   and scrolling the "Em aberto" lane through 10 more pages with the cards kept in the DOM;
 * - storm (`scripts/bench/storm.ts`): a 1.5 GB document announcement and 50 images of 1 MiB at once through
 *   the simulator, the session runner in its own process: its peak RSS from the OS against the stated bound, what was
 *   stored, and round trips of another session of the same runner meanwhile.
 * - platform (`scripts/bench/platform.ts`): one announcement frame to every socket of every company through the
 *   platform channel, one dispatch job per shard (`--platformSockets=2000 --platformCompanies=500`): ms of the request
 *   (queueing the jobs) and until every socket is reached through the local stack's dispatch poller, posts/s (posts to
 *   a local capture server; not part of the default run).
 * - dashboard (`scripts/bench/dashboard.ts`): `GET /api/dashboard` for 30 and 90 days at `--dashboardSizes` tickets
 *   (default 1k and 10k; kept with `--keepDb`) of 8 attendants over 90 days, with the counter items they leave:
 *   p50/p99 (target: flat across sizes, p99 ≤ 50 ms locally).
 * - reports (`scripts/bench/reports.ts`): `GET /api/ticket/reports` first page at `--reportSizes` finished attendances
 *   (default 1k, 10k, 100k; not in the default run: `--only=reports`), no filter, one queue, rate 3, one contact; and
 *   the time to export the whole report to .xlsx through the jobs queue.
 * - schedules (`scripts/bench/schedules.ts`): 10,000 scheduled messages of 1,000 companies due in the same minute:
 *   each sent exactly once, lateness p50/p99/max (target: the last within 60 s of its time), DynamoDB calls per schedule;
 *   and the floor: the same count sent by the fewest writes a send makes (the "bare" line), its CPU per schedule and
 *   the time 10,000 would take on 2 cores at it.
 * - campaigns (`scripts/bench/campaigns.ts`): campaign sends/s with zero intervals (the ceiling) through the planner, the
 *   dispatch consumer and the session runner onto the simulated network (connections with real simulated sessions),
 *   for one connection and for 50 connections at once (`--campaignNumbers=300,100`: numbers of the one campaign, and
 *   of each of the 50; `--campaignConnections=50`), CPU per send; each number sent once (not part of the default run).
 * - contact-import (`scripts/bench/contact-import.ts`): rows/s of a 10,000-row .xlsx imported into a contact list
 *   (`--importRows=10000`), read alone, the upload request's ms (it keeps the file and starts a background job that
 *   reads it), and end to end to the
 *   job done, first import and again (updates); not part of the default run.
 * Usage: `npm run bench [-- --sizes=1000,10000,100000] [-- --reps=200,400[,150]] [-- --searchSizes=1000,10000,100000] [-- --searchCases=tab,Carla] [-- --only=ingest,ratio,tickets,search,dashboard,web,kanban,faults,storm,schedules] [-- --dashboardSizes=1000,10000] [-- --dashboardWarmup=2000] [-- --reportSizes=1000,10000,100000] [-- --reportWarmup=2000] [-- --kanbanSizes=1000,5000,10000] [-- --scheduleCompanies=1000] [-- --renderTickets=5000] [-- --ratioRounds=5] [-- --ratioProfile=ingest.cpuprofile] [-- --searchProfile=search.cpuprofile] [-- --searchReplay=2] [-- --searchVsTab=3] [-- --reportReplay=2]`.
 *   `[-- --ingestMessages=2000] [-- --botCustomers=200]` (the bot conversation is 8 messages per customer).
 *   `[-- --keepDb=.bench/db]` or `[-- --dynamoEndpoint=http://127.0.0.1:8766]`: the tab, search, dashboard and reports seeds are
 *   written once and measured again by later runs while their item builders are unchanged (`bench/kept.ts`); with
 *   `--keepDb` the seeds write straight into DynamoDB Local's database file (`bench/file-writer.ts`, about 0.07 ms of
 *   CPU per item against 0.6 through BatchWriteItem: the search seed at 100k tickets is 8.4M items).
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { loadavg } from "node:os";
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import WebSocket from "ws";
import { startBenchDynamo } from "./bench/dynamo.ts";
import { load, summarize } from "./bench/stats.ts";
import { seedIntoFile, seedTickets, type SeedNames } from "./bench/seed.ts";
import { fileWritersCpuMs } from "./bench/file-writer.ts";
import { caseRow, cpuMs, dynamoPids, jitCpuMs } from "./bench/http-load.ts";
import { measureTicketListRender } from "./bench/web-render.ts";
import { measureKanbanRender, seedKanbanTickets } from "./bench/kanban.ts";
import { keepSeed, keptSeed } from "./bench/kept.ts";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")) as [string, string][]);
const sizes = (args.sizes ?? "1000,10000,100000").split(",").map(Number);
const only = new Set((args.only ?? "ingest,ratio,tickets,search,dashboard,web,kanban,faults,storm,schedules").split(","));
/** Requests per case at concurrency 1 and 10, and optionally the warm-up requests before them (`--reps=200,400[,150]`). */
const [c1Reps, c10Reps, warmupReps] = (args.reps ?? "200,400").split(",").map(Number);
const reps = { c1: c1Reps, c10: c10Reps, ...(warmupReps ? { warmup: warmupReps } : {}) };
const root = resolve(import.meta.dirname, "..");
const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };

process.env.LOG_LEVEL = "silent";
// A run outlasts the 15-minute access token on a loaded machine (seeding 10k+ tickets): the bench's tokens live a day.
process.env.ACCESS_TOKEN_TTL_SECONDS ??= "86400";
/**
 * Seeds kept between runs (`bench/kept.ts`), in one table `bench`: `--keepDb=<dir>`, DynamoDB Local persisted in that
 * folder; `--dynamoEndpoint=http://127.0.0.1:<port>`, a DynamoDB Local left running (in memory: seeds about twice as
 * fast as on files) by `node scripts/bench/dynamo-keep.mjs`.
 */
const keepDb = args.keepDb ? resolve(args.keepDb) : undefined;
const keeping = !!(keepDb || args.dynamoEndpoint);
process.env.TABLE_NAME = keeping ? "bench" : `bench-${Date.now()}`;
let dynamo = args.dynamoEndpoint
  ? { endpoint: args.dynamoEndpoint, port: Number(new URL(args.dynamoEndpoint).port), pid: undefined, stop: async () => {} }
  : await startBenchDynamo(180_000, keepDb);
// A kept database on files is seeded straight into its file (`bench/file-writer.ts`): the 100k search seed in minutes.
// DynamoDB Local is stopped meanwhile (a write of its own meeting the file's lock can leave its table lock held
// forever, seen once) and started again on the same port, where the local stack finds it.
if (keepDb) {
  seedIntoFile(join(keepDb, "shared-local-instance.db"), async (write) => {
    const port = dynamo.port;
    retiredDdbCpuMs += ddbPids.reduce((a, p) => a + cpuMs(p), 0);
    await dynamo.stop();
    try {
      return await write();
    } finally {
      dynamo = await startBenchDynamo(180_000, keepDb, port);
      ddbPids.splice(0, ddbPids.length, ...(dynamoPids(port).length ? dynamoPids(port) : dynamo.pid ? [dynamo.pid] : []));
    }
  });
}
const { startLocalStack } = await import("../infra/local/src/stack.ts");
const stack = await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint: dynamo.endpoint, ttl: false });
const { makeCompany } = await import("../test/helpers.ts");
const { authenticate } = await import("../shared/src/auth/tokens.ts");
const { createQueue } = await import("../shared/src/queues/service.ts");
const { createWhatsapp } = await import("../shared/src/whatsapp/service.ts");

/**
 * Marks a bench company's search index complete (`bornIndexedPut`, what the product's company creation writes): its
 * ingest indexes itself and the seeds write every index item, so the local stack's start must not schedule a backfill
 * whose 10-s runs every minute would land in the measurements (kept seeds included).
 */
/**
 * Marks a bench company's backfills done, as the product's own company creation does (the test kit's `makeCompany`
 * does not): else every start of the stack schedules them, and their walks over the seeded tickets (lane entries,
 * tab counts, report entries) write in the background of the measurements.
 */
async function markBornDone(companyId: number) {
  const { transactWrite } = await import("../shared/src/db/client.ts");
  const { bornIndexedPut } = await import("../shared/src/search/backfill.ts");
  const { bornCountedPut } = await import("../shared/src/tickets/repository.ts");
  const { bornLanedPut } = await import("../shared/src/kanban/repository.ts");
  const { bornReportedPut } = await import("../shared/src/reports/repository.ts");
  await transactWrite([bornIndexedPut(companyId), bornCountedPut(companyId), bornLanedPut(companyId), bornReportedPut(companyId)]);
}

async function tenant() {
  const c = await makeCompany();
  await markBornDone(c.companyId);
  const auth = await authenticate(c.admin.token);
  const queueIds: number[] = [];
  for (const [name, color] of [["Vendas", "#2e7d32"], ["Suporte", "#1565c0"], ["Financeiro", "#ef6c00"]]) {
    queueIds.push((await createQueue(auth, { name, color, greetingMessage: "", outOfHoursMessage: "" })).id);
  }
  const wa = await createWhatsapp({ companyId: c.companyId, admin: true }, { name: "Principal", isDefault: true } as never);
  const colors = ["#2e7d32", "#1565c0", "#ef6c00"];
  const names: SeedNames = {
    queues: new Map(queueIds.map((id, i) => [id, { id, name: ["Vendas", "Suporte", "Financeiro"][i], color: colors[i] }])),
    whatsapp: { id: wa.id, name: String(wa.name), status: String(wa.status ?? "DISCONNECTED") },
    user: { id: c.admin.id, name: String((c.admin as { name?: string }).name ?? auth.name) },
  };
  return { ...c, queueIds, whatsappId: wa.id, names };
}

/** Runs `fn` with this process's CPU profiled (V8's sampling profiler) into `file` (a `.cpuprofile`) when one is given. */
async function profiled<T>(file: string | undefined, fn: () => Promise<T>): Promise<T> {
  if (!file) return fn();
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(resolve(file), JSON.stringify(profile));
    session.disconnect();
  }
}

/** DynamoDB Local's processes (CPU accounting of the product's processes). */
const ddbPids = dynamoPids(dynamo.port).length ? dynamoPids(dynamo.port) : dynamo.pid ? [dynamo.pid] : [];
if (!ddbPids.length) console.log("DynamoDB Local's process was not found in /proc: its CPU is not counted");
/** CPU time (ms) of the DynamoDB Local processes stopped so far (restarted around a write into its file). */
let retiredDdbCpuMs = 0;
const ddbCpuMs = () => retiredDdbCpuMs + ddbPids.reduce((a, p) => a + cpuMs(p), 0);

/** Sends `n` GETs of `url` (two at a time, answers not measured) so DynamoDB Local's JIT is warm before a section measures. */
async function warmUp(url: string, token: string, n: number): Promise<void> {
  let k = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (k++ < n) await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    }),
  );
}

/** An agent's realtime socket through a single-use ticket, joined to the notification room. */
async function openSocket(token: string): Promise<WebSocket> {
  const r = await fetch(`${stack.url}/api/auth/ws-ticket`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  const { ticket } = (await r.json()) as { ticket: string };
  const ws = new WebSocket(`${stack.url.replace("http", "ws")}/ws?ticket=${ticket}`);
  await new Promise((res, rej) => {
    ws.once("open", res);
    ws.once("error", rej);
  });
  ws.send(JSON.stringify({ action: "joinNotification" }));
  return ws;
}

/**
 * A tenant holding the `kind` seed at `n` tickets: with `--keepDb`, the one an earlier run seeded (same item format),
 * else a new tenant seeded now with `seed` (and kept when `--keepDb`). Prints the seed's size and rate.
 */
async function seeded(kind: string, n: number, seed: (t: Awaited<ReturnType<typeof tenant>>) => Promise<number>) {
  const kept = keeping ? await keptSeed(kind, n) : null;
  if (kept) {
    await markBornDone(kept.companyId); // kept by a run before companies were marked: its backfill timers end at once
    console.log(`${kind}: ${n} tickets kept from an earlier run (${kept.items} items, seeded in ${kept.seedSeconds} s)`);
    return { t: kept, items: kept.items, seedSeconds: kept.seedSeconds };
  }
  const t = await tenant();
  const s0 = performance.now();
  const cpu0 = { node: cpuMs(process.pid), ddb: ddbCpuMs(), writer: fileWritersCpuMs() };
  const load0 = loadavg()[0];
  const items = await seed(t);
  const seedSeconds = Math.round((performance.now() - s0) / 100) / 10;
  // The per-batch figures estimate a quiet machine's time: DynamoDB Local's CPU is the seed's bottleneck.
  const batches = Math.ceil(items / 25);
  const node = (cpuMs(process.pid) - cpu0.node) / batches;
  const ddb = (ddbCpuMs() - cpu0.ddb) / batches;
  const writer = keepDb ? ` + file writer ${((fileWritersCpuMs() - cpu0.writer) / batches).toFixed(1)} ms` : "";
  console.log(
    `${kind}: seeded ${n} tickets (${items} items, ${(items / n).toFixed(1)} a ticket, ${Math.round(items / seedSeconds)} items/s, ${batches} batches of 25, ${Math.round(batches / seedSeconds)} batches/s) in ${seedSeconds} s at load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}; CPU per 25 items: Node ${node.toFixed(1)} ms + DynamoDB Local ${ddb.toFixed(1)} ms${writer}`,
  );
  if (keeping) await keepSeed(kind, n, t, items, seedSeconds);
  return { t, items, seedSeconds };
}

function table(title: string, rows: Record<string, unknown>[]) {
  console.log(`\n${title}`);
  console.table(rows);
}

try {
  if (only.has("ingest")) {
    const { handleBaileysEvent } = await import("../shared/src/ingest/index.ts");
    const t = await tenant();
    const ctx = { companyId: t.companyId, whatsappId: t.whatsappId };
    const msg = (i: number, contact: number) => ({
      key: { remoteJid: `55118${String(contact).padStart(8, "0")}@s.whatsapp.net`, fromMe: false, id: `BENCH${Date.now()}${i}` },
      messageTimestamp: Math.floor(Date.now() / 1000),
      pushName: `Cliente ${contact}`,
      message: { conversation: `Olá, mensagem ${i}` },
    });
    // Throughput: 2000 messages (`--ingestMessages`) from 200 customers, 16 in flight.
    const total = Number(args.ingestMessages ?? 2000);
    const rate = await load(total, 16, (i) => handleBaileysEvent(ctx, "messages.upsert", { type: "notify", messages: [msg(i, i % 200)] }).then(() => undefined));
    // Event → realtime frame at 50 messages/s for 10 s, measured in an admin's socket.
    const ws = await openSocket(t.admin.token);
    const sentAt = new Map<string, number>();
    const lat: number[] = [];
    ws.on("message", (raw) => {
      const f = JSON.parse(String(raw));
      const id = f?.data?.message?.id;
      if (f.event?.endsWith("-appMessage") && f.data?.action === "create" && sentAt.has(id)) {
        lat.push(performance.now() - sentAt.get(id)!);
        sentAt.delete(id);
      }
    });
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 500; i++) {
      const m = msg(100000 + i, 1000 + (i % 50));
      sentAt.set(m.key.id, performance.now());
      pending.push(handleBaileysEvent(ctx, "messages.upsert", { type: "notify", messages: [m] }));
      await new Promise((r) => setTimeout(r, 20));
    }
    await Promise.all(pending);
    await new Promise((r) => setTimeout(r, 1000));
    ws.close();
    const l = summarize(lat);
    // The same ingest with the chatbot answering menus (scripts/bench/bot.ts), on a fresh tenant.
    const { benchBotIngest } = await import("./bench/bot.ts");
    const tb = await tenant();
    const bot = await benchBotIngest({ companyId: tb.companyId, whatsappId: tb.whatsappId, queueIds: tb.queueIds, handleBaileysEvent, customers: Number(args.botCustomers ?? 200) });
    results.ingest = { messagesPerSecond: rate.rps, perMessageMs: { p50: rate.p50, p99: rate.p99 }, eventToFrameAt50ps: l, withBot: { messagesPerSecond: bot.rps, perMessageMs: { p50: bot.p50, p99: bot.p99 } } };
    table("Ingest (DynamoDB Local)", [
      { measure: "inbound messages/s (16 in flight), bot idle (no queues, no greeting)", value: rate.rps },
      { measure: "inbound messages/s (16 in flight), bot answering (menu, option tree, 7 of 8 answered)", value: bot.rps },
      { measure: "per message p50 / p99 ms, bot idle", value: `${rate.p50} / ${rate.p99}` },
      { measure: "per message p50 / p99 ms, bot answering", value: `${bot.p50} / ${bot.p99}` },
      { measure: "event → realtime frame p50 ms @50/s", value: l.p50 },
      { measure: "event → realtime frame p99 ms @50/s", value: l.p99 },
      { measure: "frames received / sent", value: `${l.n}/500` },
    ]);
  }

  if (only.has("ratio")) {
    if (keepDb) console.log("WARNING: the ratio section runs on DynamoDB Local persisted on files (--keepDb): its figures are not comparable with the in-memory runs; measure it without --keepDb");
    const { handleBaileysEvent } = await import("../shared/src/ingest/index.ts");
    const { storedState } = await import("../shared/src/ingest/testkit.ts");
    const { bareIngestTransaction, countDdbCalls, measureRatio } = await import("./bench/ingest-ratio.ts");
    const t = await tenant();
    const ctx = { companyId: t.companyId, whatsappId: t.whatsappId };
    // Two agents' sockets are open, so every message is published to someone.
    const sockets = [await openSocket(t.admin.token), await openSocket(t.admin.token)];
    let frames = 0;
    for (const ws of sockets) ws.on("message", () => frames++);
    const customers = 200;
    const tag = `R${Date.now()}`;
    const msg = (i: number) => ({
      key: { remoteJid: `55116${String(i % customers).padStart(8, "0")}@s.whatsapp.net`, fromMe: false, id: `${tag}${i}` },
      messageTimestamp: Math.floor(Date.now() / 1000),
      pushName: `Cliente ${i % customers}`,
      message: { conversation: `Olá, mensagem ${i}` },
    });
    const ingest = (i: number) => handleBaileysEvent(ctx, "messages.upsert", { type: "notify", messages: [msg(i)] }).then(() => undefined);
    // Warm-up: each customer's first two messages (contact and ticket created by the first; the second, on the open
    // ticket, leaves the runner its exact copy), then the cost of 400 steady-state messages.
    await load(customers, 16, ingest);
    await load(customers, 16, (i) => ingest(customers + i));
    const counted = 400;
    const calls = countDdbCalls();
    const frames0 = frames;
    // `--ratioProfile=<file>`: a CPU profile of this process over the counted messages (where a message's Node CPU goes).
    await profiled(args.ratioProfile, () => load(counted, 16, (i) => ingest(2 * customers + i)));
    // What the counted messages left to deferred listeners (the counters) is theirs too.
    await (await import("../shared/src/events/index.ts")).settleDeferred();
    calls.remove();
    await new Promise((r) => setTimeout(r, 500));
    const countedFrames = frames - frames0;
    await new Promise((r) => setTimeout(r, 500));
    const per = (n: number) => Math.round((n / counted) * 100) / 100;
    const tickets = (await storedState(ctx.companyId)).tickets.map((tk) => tk.id);
    let next = 2 * customers + counted;
    const r = await measureRatio({
      rounds: Number(args.ratioRounds ?? 5),
      perRound: 400,
      concurrency: 16,
      bare: (i) => bareIngestTransaction(ctx.companyId, tickets[i % tickets.length], ctx.whatsappId, i, tag),
      ingest: () => ingest(next++),
      cpu: () => ({ node: cpuMs(process.pid), ddb: ddbPids.reduce((sum, pid) => sum + cpuMs(pid), 0), jit: ddbPids.reduce((sum, pid) => sum + jitCpuMs(pid), 0) }),
    });
    // `--ratioProbe`: DynamoDB Local's CPU per item of one ingest transaction, each item replayed alone (`bench/ingest-probe.ts`).
    if (args.ratioProbe) {
      const { captureIngestTransaction, probeTransaction } = await import("./bench/ingest-probe.ts");
      const { keys } = await import("../shared/src/db/keys.ts");
      const items = await captureIngestTransaction(() => ingest(next++));
      const p = await probeTransaction({
        items,
        ticketKeys: tickets.map((id) => keys.ticket(ctx.companyId, id)),
        perVariant: 300,
        rounds: Number(args.ratioProbe) || 2,
        concurrency: 16,
        cpu: () => ({ node: cpuMs(process.pid), ddb: ddbPids.reduce((sum, pid) => sum + cpuMs(pid), 0) }),
      });
      table(`One ingest transaction replayed whole and without each item (CPU ms per transaction; an item's: the difference; load ${loadavg()[0].toFixed(1)})`, p.items);
      table(`The stored ticket item: ${p.ticket.bytes} bytes (JSON), by attribute`, p.ticket.attributes.slice(0, 15));
    }
    for (const ws of sockets) ws.close();
    const costRows = [...calls.byPurpose.entries()].sort((a, b) => b[1] - a[1]).map(([call, n]) => ({ call, perMessage: per(n) }));
    results.ingestRatio = { ...r, perMessage: { ddbCalls: per(calls.total), itemsWritten: per(calls.written.items), bytesWritten: Math.round(calls.written.bytes / counted), byCommand: Object.fromEntries([...calls.byCommand].map(([k, v]) => [k, per(v)])), byPurpose: Object.fromEntries(costRows.map((x) => [x.call, x.perMessage])), framesPerSocket: per(countedFrames / sockets.length) }, ...(keepDb ? { warning: "DynamoDB Local on files (--keepDb): not comparable" } : {}) };
    table(`Ingest vs DynamoDB Local's bare 4-item transaction (16 in flight, alternated; target ratio ≥ 0.9)${keepDb ? " — WARNING: DynamoDB Local on files (--keepDb), not comparable" : ""}`, [
      { measure: "bare transactions/s per round", value: r.bare.join(" / ") },
      { measure: "ingested messages/s per round", value: r.ingest.join(" / ") },
      { measure: "ratio (median ingest / median bare)", value: r.ratio },
      { measure: "load average (1 min) per round, 2 cores", value: r.load1.join(" / ") },
      { measure: "CPU ms per bare transaction (this process / DynamoDB Local, of which its JIT)", value: `${r.cpuMsPerOp.bare.node} / ${r.cpuMsPerOp.bare.ddb} (${r.cpuMsPerOp.bare.ddbJit})` },
      { measure: "CPU ms per ingested message (this process / DynamoDB Local, of which its JIT)", value: `${r.cpuMsPerOp.ingest.node} / ${r.cpuMsPerOp.ingest.ddb} (${r.cpuMsPerOp.ingest.ddbJit})` },
      { measure: "DynamoDB calls per message (steady state)", value: per(calls.total) },
      { measure: "items written per message / bytes sent for them (load-insensitive)", value: `${per(calls.written.items)} / ${Math.round(calls.written.bytes / counted)}` },
      { measure: "realtime frames per socket per message", value: per(countedFrames / sockets.length) },
    ]);
    table("DynamoDB calls per ingested message, by command and what it touches", [...costRows, ...[...calls.byCommand].map(([k, v]) => ({ call: `(all ${k})`, perMessage: per(v) }))]);
  }

  if (only.has("faults")) {
    const { handleBaileysEvent, redriveParked } = await import("../shared/src/ingest/index.ts");
    const { injectDdbFaults } = await import("../shared/src/ingest/faults.testkit.ts");
    const { storedState } = await import("../shared/src/ingest/testkit.ts");
    const { shardOf } = await import("../shared/src/whatsapp/commands.ts");
    const t = await tenant();
    const ctx = { companyId: t.companyId, whatsappId: t.whatsappId };
    const total = 1000;
    const base = Math.floor(Date.now() / 1000) - total;
    const msg = (i: number) => ({
      key: { remoteJid: `55117${String(i % 100).padStart(8, "0")}@s.whatsapp.net`, fromMe: false, id: `FAULT${Date.now()}${i}` },
      messageTimestamp: base + i,
      pushName: `Cliente ${i % 100}`,
      message: { conversation: `mensagem ${i}` },
    });
    // 5% of DynamoDB calls fail, spread evenly (a multiplicative hash of the call number), cycling the three kinds.
    const kinds = ["throttle", "5xx", "conflict"] as const;
    const faults = injectDdbFaults(({ n }) => ((n * 2654435761) % 1000 < 50 ? kinds[n % 3] : null));
    const rate = await load(total, 16, (i) => handleBaileysEvent(ctx, "messages.upsert", { type: "notify", messages: [msg(i)] }).then(() => undefined));
    faults.remove();
    let redriven = 0;
    for (let pass = 0; pass < 3; pass++) redriven += (await redriveParked({ shards: [shardOf(ctx.whatsappId)], now: Date.now() + 86_400_000 })).stored;
    const stored = new Set((await storedState(ctx.companyId)).messages.map((m) => m.id)).size;

    results.faults = { messagesPerSecondWith5pctFailures: rate.rps, failedCalls: faults.failed, redriven, stored, sent: total };
    table("Faults: inbound with 5% of DynamoDB calls failing", [
      { measure: "inbound messages/s (16 in flight, 5% DynamoDB failures)", value: rate.rps },
      { measure: "DynamoDB calls failed / messages parked and re-driven", value: `${faults.failed} / ${redriven}` },
      { measure: "messages stored / sent (nothing lost)", value: `${stored}/${total}` },
    ]);
  }

  if (only.has("storm")) {
    // Media storm with the session runner as its own process (scripts/bench/storm.ts).
    const { runMediaStorm, mediaStormRows } = await import("./bench/storm.ts");
    const storm = await runMediaStorm(dynamo.endpoint);
    results.mediaStorm = storm;
    table("Media storm: 1.5 GB document announcement + 50 images at once, the session runner in its own process", mediaStormRows(storm));
  }

  if (only.has("schedules")) {
    const { benchSchedules } = await import("./bench/schedules.ts");
    const r = await benchSchedules({ companies: Number(args.scheduleCompanies ?? 1000) });
    results.schedules = r;
    table(`Scheduled messages: ${r.schedules} of ${r.companies} companies due in the same minute`, [
      { measure: "sent (ENVIADA) / not sent", value: `${r.sent} / ${r.notSent}` },
      { measure: "messages stored (one per schedule) / tickets with other than one", value: `${r.messagesStored} / ${r.ticketsWithOtherThanOneMessage}` },
      { measure: "lateness p50 / p99 / max, ms", value: `${r.latenessMs.p50} / ${r.latenessMs.p99} / ${r.latenessMs.max}` },
      { measure: "last within 60 s of its time", value: r.lastWithin60s },
      { measure: "tick: claimed / lost / failed", value: `${r.tick.schedules?.claimed} / ${r.tick.schedules?.lost} / ${r.tick.schedules?.failed}` },
      { measure: "from the minute to the queue drained, s", value: r.drainedSeconds },
      { measure: "schedules sent per second (minute to drain)", value: r.schedulesPerSecond },
      { measure: "CPU ms per schedule: Node (stack, SQS, runner) / DynamoDB Local", value: `${r.cpuMsPerSchedule.node} / ${r.cpuMsPerSchedule.dynamodb ?? "not found"}` },
      { measure: "load average at the minute / at the drain (2 cores, shared)", value: `${r.loadAverage.atTheMinute} / ${r.loadAverage.atTheDrain}` },
      { measure: "DynamoDB calls per schedule", value: r.ddbCallsPerSchedule },
      { measure: "seed (companies, connections, contacts, schedules), s", value: r.seedSeconds },
      { measure: "bare send (claim + ticket id + one transaction): DynamoDB calls per schedule / schedules per second", value: `${r.bare.ddbCallsPerSchedule} / ${r.bare.schedulesPerSecond}` },
      { measure: "bare send: CPU ms per schedule, Node / DynamoDB Local", value: `${r.bare.cpuMsPerSchedule.node} / ${r.bare.cpuMsPerSchedule.dynamodb ?? "not found"}` },
      { measure: "10,000 on 2 cores at that CPU, s: bare / the product's send", value: `${r.bare.secondsFor10kOn2Cores ?? "-"} / ${r.bare.productSecondsFor10kOn2Cores ?? "-"}` },
    ]);
    table("Scheduled messages: DynamoDB calls per schedule by command", Object.entries(r.ddbCallsByCommand).map(([command, perSchedule]) => ({ command, perSchedule })));
    table("Scheduled messages: DynamoDB calls per schedule by what they touch (0.05 and up)", Object.entries(r.ddbCallsByPurpose).map(([call, perSchedule]) => ({ call, perSchedule })));
  }
  if (only.has("campaigns")) {
    const { benchCampaigns } = await import("./bench/campaigns.ts");
    // `--campaignNumbers=300,100`: numbers of the one-connection campaign, and of each of the 50 campaigns at once.
    const [perConnection, perConnectionMany] = (args.campaignNumbers ?? "300,100").split(",").map(Number);
    const load0 = loadavg()[0];
    const r = await benchCampaigns({ url: stack.url, cpu: () => ({ node: cpuMs(process.pid), ddb: ddbCpuMs() }), perConnection, perConnectionMany, connections: Number(args.campaignConnections ?? 50) });
    results.campaigns = { ...r, load: [load0, loadavg()[0]] };
    const row = (label: string, c: typeof r.one) => ({
      case: label,
      sends: c.sends,
      "handed over/s": c.handedPerSecond,
      "on the network/s": c.networkPerSecond,
      "per connection/s": c.perConnectionPerSecond,
      "ms/send p50": c.msPerSend.p50,
      "ms/send p99": c.msPerSend.p99,
      "CPU ms/send (Node + DynamoDB Local)": `${c.cpuMsPerSend.node} + ${c.cpuMsPerSend.dynamodb}`,
      "DynamoDB calls/send (items written)": `${c.ddbCallsPerSend} (${c.itemsWrittenPerSend})`,
      "delivered/failed": `${c.delivered}/${c.failed} (${c.finished} FINALIZADA${c.paused.length ? `, paused ${c.paused.join(",")}` : ""})`,
      "once each": c.eachNumberOnce,
    });
    table(`Campaign dispatch with zero intervals (the ceiling), simulated sessions; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`, [
      row(`1 connection, ${r.perConnection} numbers`, r.one),
      row(`${r.connections} connections at once, ${r.perConnectionMany} numbers each`, r.many),
    ]);
    table("Campaign dispatch: DynamoDB calls per send, by command and what it touches (1 connection / many)", [
      ...new Set([...Object.keys(r.one.ddbCallsByPurpose), ...Object.keys(r.many.ddbCallsByPurpose)]),
    ].map((call) => ({ call, one: r.one.ddbCallsByPurpose[call] ?? 0, many: r.many.ddbCallsByPurpose[call] ?? 0 })));
    console.log(`outcomes: one ${JSON.stringify(r.one.outcomes)}, many ${JSON.stringify(r.many.outcomes)}; ${r.connections} sessions connected in ${r.connectSeconds} s`);
  }
  if (only.has("contact-import")) {
    const { benchContactImport } = await import("./bench/contact-import.ts");
    const c = await makeCompany();
    const load0 = loadavg()[0];
    const r = await benchContactImport({ rows: Number(args.importRows ?? 10_000), auth: await authenticate(c.admin.token) });
    results.contactImport = r;
    table(`Contact list import: ${r.rows} rows of .xlsx (${Math.round(r.fileBytes / 1024)} KiB), one list; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`, [
      { measure: "read only (exceljs, first sheet), rows/s", value: `${r.readRowsPerSecond} (${r.readMs} ms, ${r.readRows} rows)` },
      { measure: "upload request (check, keep the file, start the job), ms", value: `${r.firstImport.requestMs} / again ${r.secondImport.requestMs}` },
      { measure: "import into an empty list, to the job done, rows/s", value: `${r.firstImport.rowsPerSecond} (${r.firstImport.ms} ms, ${r.firstImport.steps} steps; added ${r.firstImport.added}, skipped ${r.firstImport.skipped})` },
      { measure: "same file again (every row an update), rows/s", value: `${r.secondImport.rowsPerSecond} (${r.secondImport.ms} ms; updated ${r.secondImport.updated})` },
      { measure: "contactsCount after both", value: r.contactsCount },
    ]);
  }
  if (only.has("tickets")) {
    const rows: Record<string, unknown>[] = [];
    for (const n of sizes) {
      const { t, seedSeconds } = await seeded("tickets", n, (t) =>
        seedTickets({ companyId: t.companyId, whatsappId: t.whatsappId, userId: t.admin.id, queueIds: t.queueIds, n, names: t.names }),
      );
      // The tabs of the Tickets screen as an admin sees them; its search tab is the search section's.
      const cases: [string, string][] = [
        ["open: mine", "status=open"],
        ["open: showAll", "status=open&showAll=true"],
        ["pending", "status=pending"],
        ["closed: mine", "status=closed"],
      ];
      for (const [label, qs] of cases) {
        const url = `${stack.url}/api/tickets?${qs}`;
        const r = await fetch(url, { headers: { authorization: `Bearer ${t.admin.token}` } });
        if (r.status !== 200) throw new Error(`${label}: HTTP ${r.status} ${await r.text()}`);
        const body = await r.json();
        // A case that fails (a socket reset on a saturated machine) is reported as such; the other cases still run.
        const figures = await caseRow(url, t.admin.token, ddbPids, reps).catch((err: Error) => ({ error: err.message.slice(0, 200) }));
        const row = { tickets: n, seedS: seedSeconds, list: label, rows: body.tickets?.length, ...figures };
        rows.push(row);
        console.log(JSON.stringify(row)); // each row as soon as it is measured (long runs on a busy machine)
      }
    }
    results.tickets = rows;
    table("GET /api/tickets through the local gateway (page of 40, nested data; ms; CPU = this process + DynamoDB Local per request; load = 1-min load average at the end of the run)", rows);
  }

  if (only.has("search")) {
    const { seedSearch, measureWriteCost, runSearchCases } = await import("./bench/search.ts");
    const rows: Record<string, unknown>[] = [];
    let cost: Awaited<ReturnType<typeof measureWriteCost>> | undefined;
    for (const n of (args.searchSizes ?? args.sizes ?? "1000,10000,100000").split(",").map(Number)) {
      const { t, seedSeconds } = await seeded("search", n, (t) =>
        seedSearch({ companyId: t.companyId, whatsappId: t.whatsappId, userId: t.admin.id, queueIds: t.queueIds, n, names: t.names }),
      );
      // `--searchProfile=<file>`: a CPU profile of this process (the local stack) over the measured cases, per size.
      const file = args.searchProfile?.replace(/(\.cpuprofile)?$/, `-${n}$1`);
      rows.push(...(await profiled(file, () => runSearchCases(stack.url, t.admin.token, n, seedSeconds, ddbPids, reps, args.searchCases?.split(",")))));
      if (args.searchVsTab) {
        const { searchVsTab } = await import("./bench/search.ts");
        const vs = await searchVsTab(stack.url, t.admin.token, n, ddbPids, args.searchCases?.split(","), Number(args.searchVsTab) || 3);
        table(`A search page's CPU against a tab page's, alternated in blocks of 200 at concurrency 10 (${n} tickets; target ratio ≤ 2; load ${loadavg()[0].toFixed(1)})`, vs);
      }
      if (args.searchReplay) {
        const { replayCalls } = await import("./bench/replay.ts");
        const { searchCases } = await import("./bench/search.ts");
        const only = args.searchCases?.split(",");
        const cases = searchCases(n).filter(([l]) => !only || only.some((o) => l.includes(o)));
        const replay = await replayCalls(stack.url, t.admin.token, cases, ddbPids, cpuMs, Number(args.searchReplay) || 2);
        table(`Each DynamoDB call of one search request replayed alone (CPU ms per call; ${n} tickets; load ${loadavg()[0].toFixed(1)})`, replay);
      }
      cost ??= await measureWriteCost(t.companyId, 1);
    }
    results.search = { rows, writeCostPerMessage: cost };
    table("Search through the local gateway (page of 40 tickets / 20 contacts, nested data; ms)", rows);
    table("Search index write cost per message (ingestMessage as the runner writes: items added to the message's transaction)", [cost ?? {}]);
  }

  if (only.has("platform")) {
    const { measurePlatformFanout } = await import("./bench/platform.ts");
    const row = await measurePlatformFanout({
      companies: Number(args.platformCompanies ?? 500),
      sockets: Number(args.platformSockets ?? 2000),
      rounds: 5,
      firstCompanyId: 900_000,
    });
    results.platform = row;
    table("Announcements: one frame to every company's sockets, one dispatch job per platform shard (request = queueing; delivered = every socket reached; median of 5)", [row]);
  }

  if (only.has("dashboard")) {
    const { seedDashboard, runDashboardCases } = await import("./bench/dashboard.ts");
    const rows: Record<string, unknown>[] = [];
    let warm = false;
    for (const n of (args.dashboardSizes ?? "1000,10000").split(",").map(Number)) {
      const { t, seedSeconds } = await seeded("dashboard", n, (t) => seedDashboard(t, n));
      // DynamoDB Local's JIT takes about 2,000 answers to settle (until then an answer costs up to twice its steady
      // state): the first size measured would otherwise pay for it alone. `--dashboardWarmup=<requests>` (default 2000).
      if (!warm) {
        warm = true;
        await warmUp(`${stack.url}/api/dashboard?days=30`, t.admin.token, Number(args.dashboardWarmup ?? 2000));
      }
      rows.push(...(await runDashboardCases(stack.url, t, n, seedSeconds, ddbPids, { c1: Math.min(reps.c1, 200), c10: Math.min(reps.c10, 400) })));
    }
    results.dashboard = rows;
    table("GET /api/dashboard through the local gateway (last 30 / 90 days; counter items only; ms)", rows);
  }

  if (only.has("reports")) {
    const { seedReportCycles, runReportCases } = await import("./bench/reports.ts");
    const rows: Record<string, unknown>[] = [];
    let warm = false;
    for (const n of (args.reportSizes ?? "1000,10000,100000").split(",").map(Number)) {
      const { t, seedSeconds } = await seeded("reports", n, (t) => seedReportCycles(t, n));
      // As the dashboard's: DynamoDB Local's JIT warmed before the first size (`--reportWarmup=<requests>`, default 2000).
      if (!warm) {
        warm = true;
        await warmUp(`${stack.url}/api/ticket/reports?limit=50`, t.admin.token, Number(args.reportWarmup ?? 2000));
      }
      if (args.reportReplay) {
        const { replayCalls } = await import("./bench/replay.ts");
        const { reportCases } = await import("./bench/reports.ts");
        const replay = await replayCalls(stack.url, t.admin.token, reportCases(t).map(([l, q]) => [l, `/api/ticket/reports?limit=50${q}`]), ddbPids, cpuMs, Number(args.reportReplay) || 2);
        table(`Each DynamoDB call of one report page replayed alone (CPU ms per call; ${n} attendances; load ${loadavg()[0].toFixed(1)})`, replay);
      }
      rows.push(...(await runReportCases(stack.url, t, n, seedSeconds, ddbPids, { c1: Math.min(reps.c1, 200), c10: Math.min(reps.c10, 400) })));
    }
    results.reports = rows;
    table("GET /api/ticket/reports first page of 50 through the local gateway, and the whole report's .xlsx export (ms; export s)", rows);
  }

  if (only.has("web")) {
    const dist = join(root, "web/dist");
    if (!existsSync(join(dist, "index.html"))) {
      console.log("\nweb/dist is missing: run `npm run build:web` first");
    } else {
      const html = readFileSync(join(dist, "index.html"), "utf8");
      const files = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
      const sizes = files.map((f) => {
        const buf = readFileSync(join(dist, f));
        return { file: f, bytes: buf.length, gzipBytes: gzipSync(buf, { level: 9 }).length };
      });
      const gz = sizes.reduce((a, b) => a + b.gzipBytes, 0);
      results.web = { initialJs: sizes, initialJsGzipBytes: gz };
      table("Web initial JavaScript", [...sizes, { file: "TOTAL", bytes: sizes.reduce((a, b) => a + b.bytes, 0), gzipBytes: gz }]);

      // Ticket-list render: N open tickets assigned to the admin, the assigned tab of /tickets in headless chromium.
      const n = Number(args.renderTickets ?? 5000);
      const t = await tenant();
      await seedTickets({ companyId: t.companyId, whatsappId: t.whatsappId, userId: t.admin.id, queueIds: t.queueIds, n, status: "open" });
      const r = await measureTicketListRender({ baseUrl: stack.url, email: t.admin.email, password: t.admin.password, expected: n });
      results.web = { ...(results.web as object), ticketListRender: r };
      table(`Web: ticket-list render for ${n} tickets (headless chromium 1440×900, ms)`, [
        { measure: "navigation → first rows painted (median of 3)", value: r.firstRowsMs.median },
        { measure: "navigation → first rows painted (min / max)", value: `${r.firstRowsMs.min} / ${r.firstRowsMs.max}` },
        { measure: `scroll through all ${r.ticketsLoaded} tickets`, value: r.scrollAllMs },
        { measure: "GET /api/tickets pages (40 each) / scroll steps", value: `${r.requests} / ${r.scrollSteps}` },
        { measure: "ticket rows in the DOM (max during scroll / at the end)", value: `${r.maxDomRows} / ${r.domRowsAtEnd}` },
        { measure: "JS heap after loading all, MB", value: r.jsHeapMB ?? "n/a" },
      ]);
    }
  }

  if (only.has("kanban")) {
    if (!existsSync(join(root, "web/dist/index.html"))) console.log("\nweb/dist is missing: run `npm run build:web` first");
    else {
      const rows: Record<string, unknown>[] = [];
      const out: unknown[] = [];
      for (const n of (args.kanbanSizes ?? "1000,5000").split(",").map(Number)) {
        const t = await tenant();
        const t0 = Date.now();
        await seedKanbanTickets({ companyId: t.companyId, whatsappId: t.whatsappId, userId: t.admin.id, queueIds: t.queueIds, names: t.names }, n);
        // Three kanban tags with 10 of the newest tickets each, moved through the API (the listener writes their entries).
        const post = async (path: string, body: unknown) => {
          const r = await fetch(`${stack.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${t.admin.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
          if (!r.ok) throw new Error(`POST ${path} → ${r.status} ${await r.text()}`);
          return (await r.json()) as { id: number };
        };
        for (let k = 0; k < 3; k++) {
          const tag = await post("/api/tags", { name: `Etapa ${k + 1}`, kanban: 1 });
          for (let j = 0; j < 10; j++) await post("/api/tags/sync", { ticketId: n - k * 10 - j, tags: [tag.id] });
        }
        const seedSeconds = Math.round((Date.now() - t0) / 100) / 10;
        const r = await measureKanbanRender({ baseUrl: stack.url, email: t.admin.email, password: t.admin.password, token: t.admin.token, tickets: n, ddbPids });
        out.push({ ...r, seedSeconds });
        rows.push({
          tickets: n,
          "first cards painted (median)": r.firstCardsMs.median,
          "min / max": `${r.firstCardsMs.min} / ${r.firstCardsMs.max}`,
          "shell / chunk / sent / 1st / last answer": `${r.phasesMs.shellFirstApi} / ${r.phasesMs.chunk} / ${r.phasesMs.kanbanSent} / ${r.phasesMs.firstAnswer} / ${r.phasesMs.lastAnswer}`,
          "board p50 / p99": `${r.board.p50} / ${r.board.p99}`,
          "board cpu ms/req (node+ddb)": `${r.board.cpuMs} (${r.board.nodeCpuMs}+${r.board.ddbCpuMs})`,
          "lane 0 p50 / p99": `${r.firstLanePage.p50} / ${r.firstLanePage.p99}`,
          "lane 0 cpu ms/req (node+ddb)": `${r.firstLanePage.cpuMs} (${r.firstLanePage.nodeCpuMs}+${r.firstLanePage.ddbCpuMs})`,
          "scroll 10 pages": r.scrollMs,
          "cards loaded / max in DOM": `${r.cardsLoaded} / ${r.maxDomCards}`,
          load: `${r.board.load1} / ${loadavg()[0].toFixed(1)}`,
          "seed s": seedSeconds,
        });
      }
      results.kanban = out;
      table("Kanban board load (headless chromium 1440×900, ms; 4 lanes; phases from navigation start, medians of 5; requests at concurrency 1; load: 1-min average at the API runs / after the browser runs)", rows);
    }
  }
} finally {
  await stack.stop();
  await dynamo.stop();
}
mkdirSync(join(root, ".bench"), { recursive: true });
writeFileSync(join(root, ".bench/results.json"), JSON.stringify(results, null, 2));
console.log("\nSaved .bench/results.json");
process.exit(0);
