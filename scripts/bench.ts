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
 * Usage: `npm run bench [-- --sizes=1000,10000,100000] [-- --searchSizes=1000,10000,100000] [-- --only=ingest,tickets,search,web] [-- --renderTickets=5000]`.
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
const only = new Set((args.only ?? "ingest,tickets,search,web").split(","));
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
    // Throughput: 2000 messages from 200 customers, 16 in flight.
    const total = 2000;
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
    results.ingest = { messagesPerSecond: rate.rps, perMessageMs: { p50: rate.p50, p99: rate.p99 }, eventToFrameAt50ps: l };
    table("Ingest (DynamoDB Local)", [
      { measure: "inbound messages/s (16 in flight)", value: rate.rps },
      { measure: "event → realtime frame p50 ms @50/s", value: l.p50 },
      { measure: "event → realtime frame p99 ms @50/s", value: l.p99 },
      { measure: "frames received / sent", value: `${l.n}/500` },
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
