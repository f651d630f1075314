/**
 * Shared harness of the browser tests: one local stack in-process (DynamoDB Local from the global setup, the built
 * SPA from `web/dist`, the session runner on the simulated WhatsApp network) and one headless Debian chromium
 * (playwright-core) per test file, plus the steps every browser test uses: fresh browser contexts, the login form,
 * JSON calls to the API, polling, pairing a connection and customer messages through `/sim`.
 *
 * `useBrowserStack(label)` registers the file's beforeAll/afterAll/afterEach hooks and returns the helpers; with
 * `E2E_DEBUG=1` page console output is printed and failing tests leave screenshots in `/tmp/e2e-<label>-*.png`.
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { REPO_ROOT, startLocalStack, type LocalStack } from "../../infra/local/src/stack.ts";
import type { TestUser } from "../../test/helpers.ts";

const CHROMIUM = "/usr/bin/chromium";
/** Debian chromium's flags for a closed network (no calls home) in a container (no sandbox, no GPU). */
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"];
/** Longest wait of one step (a locator, a poll), in ms. */
export const STEP_MS = 30_000;
/** Longest run of one browser test, in ms. */
export const TEST_MS = 180_000;

export interface BrowserStack {
  /** The running local stack (valid inside tests). */
  readonly stack: LocalStack;
  /** A fresh browser context (own storage and cookies, as another computer), 1440×900, pt-BR, UTC. */
  newContext(): Promise<BrowserContext>;
  /** A new page in `ctx`, or in a fresh context. */
  newPage(ctx?: BrowserContext): Promise<Page>;
  /** Fills the login form and submits it, without waiting for the result. */
  submitLogin(page: Page, email: string, password: string): Promise<void>;
  /** Logs in through the form and waits for the shell (this revokes that user's earlier tokens: single login). */
  login(page: Page, email: string, password: string): Promise<void>;
  /** Calls the stack's API as `user` with a JSON body; throws on a non-2xx answer. */
  http<T = any>(user: TestUser | { token: string }, method: string, path: string, body?: unknown): Promise<T>;
  /** Polls `fn` every 250 ms until it returns something truthy (errors count as not yet); throws after `ms`. */
  until<T>(fn: () => Promise<T | undefined | null | false>, what: string, ms?: number): Promise<T>;
  /** Creates a connection through the API, waits for its QR and scans it from the simulated phone; returns its id. */
  connectedWhatsapp(admin: TestUser, name: string, queueIds?: number[]): Promise<number>;
  /** A customer's text through the simulated network; resolves with its WhatsApp id once the backend handled it. */
  customerSays(whatsappId: number, from: string, pushName: string, text: string): Promise<string>;
  /** The toast showing `text`. */
  toast(page: Page, text: string): ReturnType<Page["getByTestId"]>;
}

export function useBrowserStack(label: string): BrowserStack {
  let stack: LocalStack | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, "web/dist/index.html"))) throw new Error("web/dist is missing: run `npm run build -w web` first");
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    stack = await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
  });

  afterEach(async (ctx) => {
    if (!process.env.E2E_DEBUG || ctx.task.result?.state !== "fail") return;
    let i = 0;
    for (const c of contexts) for (const p of c.pages()) await p.screenshot({ path: `/tmp/e2e-${label}-fail-${i++}.png` }).catch(() => undefined);
  });

  const url = () => {
    if (!stack) throw new Error("the local stack is not running (use the harness inside tests)");
    return stack.url;
  };

  const h: BrowserStack = {
    get stack() {
      if (!stack) throw new Error("the local stack is not running");
      return stack;
    },
    async newContext() {
      const ctx = await browser!.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: "UTC", locale: "pt-BR" });
      ctx.setDefaultTimeout(STEP_MS);
      contexts.push(ctx);
      return ctx;
    },
    async newPage(ctx) {
      const page = await (ctx ?? (await h.newContext())).newPage();
      if (process.env.E2E_DEBUG) {
        const n = contexts.length;
        page.on("console", (m) => console.log(`[page ${n}] ${m.type()}: ${m.text()}`));
        page.on("pageerror", (e) => console.log(`[page ${n}] pageerror: ${e.message}`));
      }
      return page;
    },
    async submitLogin(page, email, password) {
      await page.goto(`${url()}/login`);
      await page.getByRole("textbox", { name: "Email" }).fill(email);
      await page.getByLabel(/^Senha/).fill(password);
      await page.getByRole("button", { name: "Entrar", exact: true }).click();
    },
    async login(page, email, password) {
      await h.submitLogin(page, email, password);
      // The top bar's profile button: the greeting is left out on a phone.
      await page.getByTestId("profile-button").waitFor();
    },
    async http(user, method, path, body) {
      const res = await fetch(`${url()}${path}`, {
        method,
        headers: { authorization: `Bearer ${user.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
    async until(fn, what, ms = STEP_MS) {
      const end = Date.now() + ms;
      for (;;) {
        const v = await fn().catch((e) => {
          if (process.env.E2E_DEBUG) console.log(`until ${what}: ${String(e)}`);
          return undefined;
        });
        if (v) return v;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async connectedWhatsapp(admin, name, queueIds = []) {
      const w = await h.http<{ id: number }>(admin, "POST", "/api/whatsapp", { name, queueIds, greetingMessage: queueIds.length > 1 ? "Olá!" : "" });
      await h.until(async () => (await (await fetch(`${url()}/sim/whatsapp/${w.id}`)).json()).qrcode, "the QR");
      const scan = await fetch(`${url()}/sim/whatsapp/${w.id}/scan`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      if (!scan.ok) throw new Error(`scan → ${scan.status} ${await scan.text()}`);
      return w.id;
    },
    async customerSays(whatsappId, from, pushName, text) {
      const res = await fetch(`${url()}/sim/whatsapp/${whatsappId}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ from, pushName, text }),
      });
      if (!res.ok) throw new Error(`sim message → ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    },
    toast: (page, text) => page.getByTestId("toast").filter({ hasText: text }).first(),
  };
  return h;
}
