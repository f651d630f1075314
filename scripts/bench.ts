/**
 * `npm run bench`: the product's speed figures (issue 3 §5, issue 4 §8), printed as tables and saved to
 * `.bench/results.json`. Targets live here, never in tests:
 * - ingest: inbound messages/s through the ingest service, and p99 from Baileys event to the realtime frame in an
 *   agent's browser socket at 50 messages/s;
 * - `GET /api/tickets` through the local gateway, page of 40 with nested data: p50/p95/p99 and requests/s at
 *   concurrency 1 and 10 for the open and pending tabs and for a search matching ~5% of contacts and one matching none,
 *   at 1k, 10k and 100k tickets (target: p99 ≤ 25 ms at concurrency 1, flat across sizes, searches as fast as tabs);
 * - the web's initial JavaScript, gzipped, and the ticket-list render in headless chromium for 5k tickets (navigation
 *   to first rows painted, scrolling the virtualized list through every page of 40, DOM rows; `scripts/bench/web-render.ts`).
 * - search (issue 10 §1; `scripts/bench/search.ts`): ticket and contact search for a surname, a number fragment and a
 *   message word, matching and not, at `--searchSizes` tickets of 5 messages each (target p99 ≤ 50 ms, flat), and the
 *   items the search index adds per message write;
 * - faults (issue 8): inbound messages/s while 5% of DynamoDB calls fail (throttling, 5xx, conflicts), with the
 *   parked ones re-driven and every message counted as stored; and the peak RSS of this process (which hosts the
 *   ingest) under a media storm: a 1.5 GB document announcement and 50 images of 1 MiB at once.
 * Usage: `npm run bench [-- --sizes=1000,10000,100000] [-- --searchSizes=1000,10000,100000] [-- --only=ingest,tickets,search,web,faults] [-- --renderTickets=5000]`
 * `[-- --ingestMessages=2000] [-- --botCustomers=200]` (the bot conversation is 8 messages per customer).
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import WebSocket from "ws";
import { startDynamo } from "../infra/local/src/dynamo.ts";
import { load, summarize } from "./bench/stats.ts";
import { seedTickets } from "./bench/seed.ts";
import { measureTicketListRender } from "./bench/web-render.ts";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")) as [string, string][]);
const sizes = (args.sizes ?? "1000,10000,100000").split(",").map(Number);
const only = new Set((args.only ?? "ingest,tickets,search,web,faults").split(","));
const root = resolve(import.meta.dirname, "..");
const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };

process.env.LOG_LEVEL = "silent";
process.env.TABLE_NAME = `bench-${Date.now()}`;
const dynamo = await startDynamo();
const { startLocalStack } = await import("../infra/local/src/stack.ts");
const stack = await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint: dynamo.endpoint });
const { makeCompany } = await import("../test/helpers.ts");
const { authenticate } = await import("../shared/src/auth/tokens.ts");
const { createQueue } = await import("../shared/src/queues/service.ts");
const { createWhatsapp } = await import("../shared/src/whatsapp/service.ts");

async function tenant() {
  const c = await makeCompany();
  const auth = await authenticate(c.admin.token);
  const queueIds: number[] = [];
  for (const [name, color] of [["Vendas", "#2e7d32"], ["Suporte", "#1565c0"], ["Financeiro", "#ef6c00"]]) {
    queueIds.push((await createQueue(auth, { name, color, greetingMessage: "", outOfHoursMessage: "" })).id);
  }
  const wa = await createWhatsapp({ companyId: c.companyId, admin: true }, { name: "Principal", isDefault: true } as never);
  return { ...c, queueIds, whatsappId: wa.id };
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
    const ws = new WebSocket(`${stack.url.replace("http", "ws")}/ws?token=${t.admin.token}`);
    await new Promise((res, rej) => (ws.once("open", res), ws.once("error", rej)));
    ws.send(JSON.stringify({ action: "joinNotification" }));
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
    // Issue 9: the same ingest with the chatbot answering menus (scripts/bench/bot.ts), on a fresh tenant.
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

    // Media storm: peak RSS sampled every 5 ms while a 1.5 GB document is announced and 50 × 1 MiB images arrive at once.
    const image = Buffer.alloc(2 ** 20, 7);
    const mctx = { ...ctx, downloadMedia: async (_m: unknown, maxBytes?: number) => (image.length > (maxBytes ?? Infinity) ? { tooLarge: true as const, size: image.length } : { bytes: Buffer.from(image), mimetype: "image/jpeg" }) };
    const media = (id: string, message: Record<string, unknown>) => ({ key: { remoteJid: "5511766660000@s.whatsapp.net", fromMe: false, id }, messageTimestamp: base, message });
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    await Promise.all([
      handleBaileysEvent(mctx, "messages.upsert", { type: "notify", messages: [media(`HUGE${Date.now()}`, { documentMessage: { mimetype: "application/zip", fileName: "backup.zip", fileLength: 1_500_000_000, url: "https://mmg.whatsapp.net/x", mediaKey: "AAAA" } })] }),
      ...Array.from({ length: 50 }, (_, i) =>
        handleBaileysEvent(mctx, "messages.upsert", { type: "notify", messages: [media(`IMG${Date.now()}${i}`, { imageMessage: { mimetype: "image/jpeg", fileLength: image.length, url: "https://mmg.whatsapp.net/y", mediaKey: "AAAA" } })] }),
      ),
    ]);
    clearInterval(sampler);
    const MB = (b: number) => Math.round(b / 2 ** 20);
    results.faults = { messagesPerSecondWith5pctFailures: rate.rps, failedCalls: faults.failed, redriven, stored, sent: total, mediaStorm: { rssBeforeMB: MB(rss0), rssPeakMB: MB(peak), boundMB: 400 } };
    table("Faults (issue 8): inbound with 5% of DynamoDB calls failing; media storm", [
      { measure: "inbound messages/s (16 in flight, 5% DynamoDB failures)", value: rate.rps },
      { measure: "DynamoDB calls failed / messages parked and re-driven", value: `${faults.failed} / ${redriven}` },
      { measure: "messages stored / sent (nothing lost)", value: `${stored}/${total}` },
      { measure: "media storm: RSS before → peak, MB (bound 400 MB of a 512 MiB task)", value: `${MB(rss0)} → ${MB(peak)}` },
    ]);
  }

  if (only.has("tickets")) {
    const rows: Record<string, unknown>[] = [];
    for (const n of sizes) {
      const t = await tenant();
      const s0 = performance.now();
      await seedTickets({ companyId: t.companyId, whatsappId: t.whatsappId, userId: t.admin.id, queueIds: t.queueIds, n });
      const seedSeconds = Math.round((performance.now() - s0) / 100) / 10;
      const cases: [string, string][] = [
        ["open (showAll)", "status=open&showAll=true"],
        ["pending", "status=pending"],
        ["search ~5%", "searchParam=mariana"],
        ["search none", "searchParam=zzqxw"],
      ];
      for (const [label, qs] of cases) {
        const get = async () => {
          const r = await fetch(`${stack.url}/api/tickets?${qs}`, { headers: { authorization: `Bearer ${t.admin.token}` } });
          if (r.status !== 200) throw new Error(`${label}: HTTP ${r.status} ${await r.text()}`);
          await r.json();
        };
        const body = await (await fetch(`${stack.url}/api/tickets?${qs}`, { headers: { authorization: `Bearer ${t.admin.token}` } })).json();
        await load(20, 1, get);
        const c1 = await load(200, 1, get);
        const c10 = await load(400, 10, get);
        rows.push({ tickets: n, seedS: seedSeconds, list: label, rows: body.tickets?.length, "c1 p50": c1.p50, "c1 p95": c1.p95, "c1 p99": c1.p99, "c1 rps": c1.rps, "c10 p50": c10.p50, "c10 p99": c10.p99, "c10 rps": c10.rps });
      }
    }
    results.tickets = rows;
    table("GET /api/tickets through the local gateway (page of 40, nested data; ms)", rows);
  }

  if (only.has("search")) {
    const { seedSearch, measureWriteCost, runSearchCases } = await import("./bench/search.ts");
    const rows: Record<string, unknown>[] = [];
    let cost: Awaited<ReturnType<typeof measureWriteCost>> | undefined;
    for (const n of (args.searchSizes ?? args.sizes ?? "1000,10000,100000").split(",").map(Number)) {
      const t = await tenant();
      const s0 = performance.now();
      const items = await seedSearch({ companyId: t.companyId, whatsappId: t.whatsappId, userId: t.admin.id, queueIds: t.queueIds, n });
      const seedSeconds = Math.round((performance.now() - s0) / 100) / 10;
      console.log(`search: seeded ${n} tickets (${items} items) in ${seedSeconds} s`);
      rows.push(...(await runSearchCases(stack.url, t.admin.token, n, seedSeconds)));
      cost ??= await measureWriteCost(t.companyId, 1);
    }
    results.search = { rows, writeCostPerMessage: cost };
    table("Search through the local gateway (page of 40 tickets / 20 contacts, nested data; ms)", rows);
    table("Search index write cost per message (ingestMessage; items added to the message's transaction)", [cost ?? {}]);
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
} finally {
  await stack.stop();
  await dynamo.stop();
}
mkdirSync(join(root, ".bench"), { recursive: true });
writeFileSync(join(root, ".bench/results.json"), JSON.stringify(results, null, 2));
console.log("\nSaved .bench/results.json");
process.exit(0);
