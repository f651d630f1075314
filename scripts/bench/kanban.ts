/**
 * Bench "kanban: board load" (docs/product/kanban.md): a company with N open tickets on the board, seeded with the
 * product's item builders (`bench/seed.ts` tickets, each with its "Em aberto" lane entry), three
 * kanban tags, and a few tickets moved into each tag's lane through the API (the listener writing their entries).
 * Measures, in headless chromium (playwright-core) against the running local stack:
 * - `firstCardsMs`: from navigation start to the first frame painted after cards exist in the DOM (every lane's first
 *   page comes in one `GET /api/ticket/kanban`), for `runs` fresh navigations (median, min, max);
 * - `scrollMs`: time to load `scrollPages` more pages of "Em aberto" by scrolling its virtualized column, with the cards
 *   loaded and the most cards present in the DOM meanwhile (virtualization);
 * and, outside the browser, `apiMs`: `GET /api/ticket/kanban` latency (median of 20, after 3 warm-ups).
 */
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
  apiMs: { median: number; p90: number };
  scrollMs: number;
  cardsLoaded: number;
  maxDomCards: number;
}

/** Logs in as `email`/`password` on `baseUrl` and measures /kanban as described above. */
export async function measureKanbanRender(opts: { baseUrl: string; email: string; password: string; token: string; tickets: number; runs?: number; scrollPages?: number }): Promise<KanbanRender> {
  const api: number[] = [];
  for (let i = 0; i < 23; i++) {
    const t0 = performance.now();
    const r = await fetch(`${opts.baseUrl}/api/ticket/kanban`, { headers: { authorization: `Bearer ${opts.token}` } });
    if (!r.ok) throw new Error(`GET /api/ticket/kanban → ${r.status}`);
    await r.arrayBuffer();
    if (i >= 3) api.push(performance.now() - t0);
  }
  api.sort((a, b) => a - b);
  const { browser, page } = await openLoggedIn(opts, "kanban-card", "__firstCards");
  try {
    const runs: number[] = [];
    for (let i = 0; i < (opts.runs ?? 3); i++) {
      await page.goto(`${opts.baseUrl}/kanban`);
      await page.waitForFunction(() => typeof (window as unknown as { __firstCards?: number }).__firstCards === "number");
      runs.push(round(await page.evaluate(() => (window as unknown as { __firstCards: number }).__firstCards)));
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
      apiMs: { median: round(median(api)), p90: round(api[Math.floor(api.length * 0.9)]) },
      scrollMs: round(scroll.ms),
      cardsLoaded: scroll.loaded,
      maxDomCards: scroll.maxCards,
    };
  } finally {
    await browser.close();
  }
}
