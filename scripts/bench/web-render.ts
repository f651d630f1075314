/**
 * Bench "web: ticket-list render time": opens `/tickets` of a company seeded with many open tickets
 * assigned to the logged-in admin, in headless chromium (playwright-core), against a running local stack that serves
 * the built SPA. Measures, in ms:
 * - `firstRowsMs`: from navigation start (`performance.timeOrigin`) to the first frame painted after ticket rows
 *   exist in the DOM (MutationObserver + requestAnimationFrame), for `runs` fresh navigations (median, min, max);
 * - `scrollAllMs`: time to load every ticket by repeatedly scrolling the virtualized list to its bottom, with the
 *   number of `GET /api/tickets?status=open` requests (pages of 40) and scroll steps it took;
 * - `maxDomRows` / `domRowsAtEnd`: ticket rows present in the DOM during and after the scroll (virtualization);
 * - `jsHeapMB`: the page's used JS heap after all tickets are loaded (chromium only).
 */
import { chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface TicketListRender {
  tickets: number;
  runs: number[];
  firstRowsMs: { median: number; min: number; max: number };
  scrollAllMs: number;
  ticketsLoaded: number;
  requests: number;
  scrollSteps: number;
  maxDomRows: number;
  domRowsAtEnd: number;
  jsHeapMB: number | null;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Headless chromium at 1440×900 (pt-BR, UTC) logged in on `baseUrl` as `email`/`password`. Each page of its context
 * sets `window[marker]` to `performance.now()` at the first frame painted after an element with data-testid `testId`
 * exists (MutationObserver + requestAnimationFrame). Close `browser` when done.
 */
export async function openLoggedIn(opts: { baseUrl: string; email: string; password: string }, testId: string, marker: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "pt-BR", timezoneId: "UTC" });
  ctx.setDefaultTimeout(60_000);
  await ctx.addInitScript(
    ([id, key]) => {
      const w = window as unknown as Record<string, number>;
      let scheduled = false;
      const obs = new MutationObserver(() => {
        if (scheduled || !document.querySelector(`[data-testid=${id}]`)) return;
        scheduled = true;
        obs.disconnect();
        requestAnimationFrame(() => setTimeout(() => (w[key] = performance.now()), 0));
      });
      obs.observe(document, { childList: true, subtree: true });
    },
    [testId, marker] as const,
  );
  const page = await ctx.newPage();
  await page.goto(`${opts.baseUrl}/login`);
  await page.getByRole("textbox", { name: "Email" }).fill(opts.email);
  await page.getByLabel(/^Senha/).fill(opts.password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.getByTestId("greeting").waitFor();
  return { browser, page };
}

/**
 * Logs in as `email`/`password` on `baseUrl`, then measures the tickets list as described above. `expected` is the
 * number of tickets the assigned tab should end with. Throws when the list never reaches it (5 minutes).
 */
export async function measureTicketListRender(opts: { baseUrl: string; email: string; password: string; expected: number; runs?: number }): Promise<TicketListRender> {
  const { browser, page } = await openLoggedIn(opts, "ticket-row", "__firstRows");
  try {
    let requests = 0;
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.pathname === "/api/tickets" && u.searchParams.get("status") === "open" && !u.searchParams.has("withUnreadMessages")) requests++;
    });

    const runs: number[] = [];
    const n = opts.runs ?? 3;
    for (let i = 0; i < n; i++) {
      if (i === n - 1) requests = 0; // count the pages of the last load only
      await page.goto(`${opts.baseUrl}/tickets`);
      await page.waitForFunction(() => typeof (window as unknown as { __firstRows?: number }).__firstRows === "number");
      runs.push(round(await page.evaluate(() => (window as unknown as { __firstRows: number }).__firstRows)));
    }

    // A string, not a function: tsx's name helpers (`__name`) do not exist inside the page.
    const scroll = (await page.evaluate(`(async (expected) => {
      const list = document.querySelector("[data-testid=ticket-list]");
      const count = () => document.querySelector("[data-testid=count-open]")?.textContent ?? "";
      const rows = () => document.querySelectorAll("[data-testid=ticket-row]").length;
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      const t0 = performance.now();
      let steps = 0;
      let maxRows = rows();
      for (;;) {
        if (performance.now() - t0 > 300_000) throw new Error(\`the list stopped at \${count()} of \${expected}\`);
        const before = count();
        list.scrollTop = list.scrollHeight;
        steps++;
        // Wait for the next page (the badge changes) or, when everything is loaded, for one painted frame.
        const waitStart = performance.now();
        for (;;) {
          await frame();
          maxRows = Math.max(maxRows, rows());
          if (count() !== before || !before.endsWith("+") || performance.now() - waitStart > 10_000) break;
        }
        if (!count().endsWith("+")) break;
      }
      list.scrollTop = list.scrollHeight;
      await frame();
      await frame();
      const ms = performance.now() - t0;
      const heap = performance.memory?.usedJSHeapSize;
      return { ms, steps, maxRows: Math.max(maxRows, rows()), endRows: rows(), loaded: Number(count()), heap: heap ?? null };
    })(${opts.expected})`)) as { ms: number; steps: number; maxRows: number; endRows: number; loaded: number; heap: number | null };
    if (scroll.loaded !== opts.expected) throw new Error(`the list ended with ${scroll.loaded} tickets, expected ${opts.expected}`);

    return {
      tickets: opts.expected,
      runs,
      firstRowsMs: { median: round(median(runs)), min: Math.min(...runs), max: Math.max(...runs) },
      scrollAllMs: round(scroll.ms),
      ticketsLoaded: scroll.loaded,
      requests,
      scrollSteps: scroll.steps,
      maxDomRows: scroll.maxRows,
      domRowsAtEnd: scroll.endRows,
      jsHeapMB: scroll.heap === null ? null : round(scroll.heap / 1048576),
    };
  } finally {
    await browser.close();
  }
}
