/**
 * Bench "kanban: board load" (docs/product/kanban.md): a company with N open tickets on the board, seeded with the
 * product's item builders (`bench/seed.ts` tickets, each with its "Em aberto" lane entry), three
 * kanban tags, and a few tickets moved into each tag's lane through the API (the listener writing their entries).
 * Measures, in headless chromium (playwright-core) against the running local stack:
 * - `firstCardsMs`: from navigation start to the first frame painted after cards exist in the DOM, for `runs` fresh
 *   navigations (median, min, max);
 * - `phasesMs` (medians over the runs, from navigation start): the app's first API request sent (the shell booted),
 *   the kanban page's chunk received, the first kanban request sent, the first and the last kanban answer received;
 * - `scrollMs`: time to load `scrollPages` more pages of "Em aberto" by scrolling its virtualized column, with the cards
 *   loaded and the most cards present in the DOM meanwhile (virtualization);
 * and, outside the browser (a client process, `http-load.ts`), for the board's request (`GET /api/ticket/kanban`) and
 * "Em aberto"'s first page as the page asks it first (`GET /api/ticket/kanban/0?limit=12`): latency p50/p99 at concurrency 1 and
 * the product's CPU per request (Node + DynamoDB Local, from the OS accounting), with the load average beside them.
 */
import { KANBAN_FIRST_PAGE } from "../../shared/src/kanban/schema.ts";
import { measureGet, type RunFigures } from "./http-load.ts";
import { batchPut, seedCounters, seedTicketItems, type SeedTenant } from "./seed.ts";
import { median, openLoggedIn, round } from "./web-render.ts";

/** Seeds `n` open tickets of the tenant's user, each with its "Em aberto" lane entry, in chunks. */
export async function seedKanbanTickets(o: SeedTenant, n: number): Promise<void> {
  const base = Date.parse("2026-01-01T00:00:00Z");
  const chunk = 2000;
  for (let from = 1; from <= n; from += chunk) {
    const items: Record<string, unknown>[] = [];
    for (let i = from; i < Math.min(from + chunk, n + 1); i++) {
      // The product's items of an open ticket, its "Em aberto" lane entry among them.
      items.push(...seedTicketItems(o, { id: i, name: `Cliente Kanban ${i}`, number: `55119${String(i).padStart(8, "0")}`, status: "open", at: new Date(base + i * 60000), bodies: [`Mensagem ${i}`], index: false }));
    }
    await batchPut(items);
  }
  await seedCounters(o.companyId, n);
}

export interface KanbanRender {
  tickets: number;
  runs: number[];
  firstCardsMs: { median: number; min: number; max: number };
  phasesMs: { shellFirstApi: number; chunk: number; kanbanSent: number; firstAnswer: number; lastAnswer: number };
  board: RunFigures;
  firstLanePage: RunFigures;
  scrollMs: number;
  cardsLoaded: number;
  maxDomCards: number;
}

/** Logs in as `email`/`password` on `baseUrl` and measures /kanban as described above (`ddbPids`: DynamoDB Local's). */
export async function measureKanbanRender(opts: {
  baseUrl: string;
  email: string;
  password: string;
  token: string;
  tickets: number;
  ddbPids: number[];
  runs?: number;
  scrollPages?: number;
  apiRequests?: number;
}): Promise<KanbanRender> {
  const total = opts.apiRequests ?? 100;
  const [board] = await measureGet(`${opts.baseUrl}/api/ticket/kanban`, opts.token, opts.ddbPids, [{ total, concurrency: 1 }], 30);
  const [firstLanePage] = await measureGet(`${opts.baseUrl}/api/ticket/kanban/0?limit=${KANBAN_FIRST_PAGE}`, opts.token, opts.ddbPids, [{ total, concurrency: 1 }], 30);
  const { browser, page } = await openLoggedIn(opts, "kanban-card", "__firstCards");
  try {
    const runs: number[] = [];
    const phases: KanbanRender["phasesMs"][] = [];
    for (let i = 0; i < (opts.runs ?? 5); i++) {
      await page.goto(`${opts.baseUrl}/kanban`);
      await page.waitForFunction(() => typeof (window as unknown as { __firstCards?: number }).__firstCards === "number");
      runs.push(round(await page.evaluate(() => (window as unknown as { __firstCards: number }).__firstCards)));
      phases.push(
        (await page.evaluate(`(() => {
          const rs = performance.getEntriesByType("resource");
          const api = rs.filter((r) => new URL(r.name).pathname.startsWith("/api/"));
          const kb = api.filter((r) => new URL(r.name).pathname.startsWith("/api/ticket/kanban"));
          const chunk = rs.find((r) => new URL(r.name).pathname.startsWith("/assets/KanbanPage-") && r.name.endsWith(".js"));
          return {
            shellFirstApi: Math.min(...api.map((r) => r.startTime)),
            chunk: chunk ? chunk.responseEnd : 0,
            kanbanSent: Math.min(...kb.map((r) => r.startTime)),
            firstAnswer: Math.min(...kb.map((r) => r.responseEnd)),
            lastAnswer: Math.max(...kb.map((r) => r.responseEnd)),
          };
        })()`)) as KanbanRender["phasesMs"],
      );
    }
    // A string, not a function: tsx's name helpers (`__name`) do not exist inside the page.
    const scroll = (await page.evaluate(`(async (pages) => {
      const lane = document.querySelector('[data-testid=kanban-lane][data-lane-id="0"]');
      const box = lane.querySelector(".kb-scroll");
      const count = () => lane.querySelector("[data-testid=kanban-lane-count]").textContent;
      const cards = () => lane.querySelectorAll("[data-testid=kanban-card]").length;
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      const t0 = performance.now();
      let maxCards = cards();
      for (let p = 0; p < pages; p++) {
        const before = count();
        box.scrollTop = box.scrollHeight;
        const w0 = performance.now();
        for (;;) {
          await frame();
          maxCards = Math.max(maxCards, cards());
          if (count() !== before || performance.now() - w0 > 10000) break;
        }
      }
      await frame();
      return { ms: performance.now() - t0, loaded: parseInt(count(), 10), maxCards };
    })(${opts.scrollPages ?? 10})`)) as { ms: number; loaded: number; maxCards: number };
    return {
      tickets: opts.tickets,
      runs,
      firstCardsMs: { median: round(median(runs)), min: Math.min(...runs), max: Math.max(...runs) },
      phasesMs: {
        shellFirstApi: round(median(phases.map((p) => p.shellFirstApi))),
        chunk: round(median(phases.map((p) => p.chunk))),
        kanbanSent: round(median(phases.map((p) => p.kanbanSent))),
        firstAnswer: round(median(phases.map((p) => p.firstAnswer))),
        lastAnswer: round(median(phases.map((p) => p.lastAnswer))),
      },
      board,
      firstLanePage,
      scrollMs: round(scroll.ms),
      cardsLoaded: scroll.loaded,
      maxDomCards: scroll.maxCards,
    };
  } finally {
    await browser.close();
  }
}
