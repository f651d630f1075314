/**
 * Browser proof of the top bar's notifications (attendance.md §2 Dialogs, §6, §9; issue 4 "Notifications"), with
 * playwright-core + Debian chromium against the whole local stack in-process and customers writing through the
 * simulated WhatsApp network (`/sim`):
 * - a customer message on a pending ticket raises the bell's count without a reload and the popover lists the ticket,
 *   newest first; Escape and a click outside close it; choosing a ticket opens its conversation and, once read, it
 *   leaves the list;
 * - an agent of another queue sees no count and the empty text;
 * - the volume slider's value (0..1, step 0.1, localStorage `volume`) survives a reload.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, startLocalStack, type LocalStack } from "../../infra/local/src/stack.ts";
import { makeCompany, makeUser, type TestUser } from "../../test/helpers.ts";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"];
const STEP_MS = 30_000;
const TEST_MS = 180_000;

let stack: LocalStack;
let browser: Browser;
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
  for (const c of contexts) for (const p of c.pages()) await p.screenshot({ path: `/tmp/e2e-notify-fail-${i++}.png` }).catch(() => undefined);
});

async function newPage(): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: "UTC", locale: "pt-BR" });
  ctx.setDefaultTimeout(STEP_MS);
  contexts.push(ctx);
  const page = await ctx.newPage();
  if (process.env.E2E_DEBUG) {
    page.on("console", (m) => console.log(`[page] ${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => console.log(`[page] pageerror: ${e.message}`));
  }
  return page;
}

async function login(page: Page, email: string, password: string) {
  await page.goto(`${stack.url}/login`);
  await page.getByRole("textbox", { name: "Email" }).fill(email);
  await page.getByLabel(/^Senha/).fill(password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.getByTestId("greeting").waitFor();
}

async function http<T = any>(user: TestUser, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${user.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function until<T>(fn: () => Promise<T | undefined | null | false>, what: string, ms = STEP_MS): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Creates a connection through the API and pairs it with the simulated phone; returns its id. */
async function connectedWhatsapp(admin: TestUser, name: string, queueIds: number[] = []): Promise<number> {
  const w = await http<{ id: number }>(admin, "POST", "/api/whatsapp", { name, queueIds, greetingMessage: "" });
  await until(async () => (await (await fetch(`${stack.url}/sim/whatsapp/${w.id}`)).json()).qrcode, "the QR");
  const scan = await fetch(`${stack.url}/sim/whatsapp/${w.id}/scan`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  if (!scan.ok) throw new Error(`scan → ${scan.status} ${await scan.text()}`);
  return w.id;
}

/** A customer message through the simulated network (waits until the backend handled it). */
async function customerSays(whatsappId: number, from: string, pushName: string, text: string): Promise<void> {
  const res = await fetch(`${stack.url}/sim/whatsapp/${whatsappId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ from, pushName, text }),
  });
  if (!res.ok) throw new Error(`sim message → ${res.status} ${await res.text()}`);
}

const bellCount = (page: Page) => page.getByTestId("notifications-count");
const panel = (page: Page) => page.getByTestId("notifications-panel");

describe("top bar notifications in the browser", () => {
  it(
    "counts a new pending message without a reload, lists it in the popover and opens its conversation",
    async () => {
      const { companyId, admin } = await makeCompany();
      const queue = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Suporte", color: "#1565c0", greetingMessage: "" });
      const wid = await connectedWhatsapp(admin, "Conexão Avisos", [queue.id]);
      await customerSays(wid, "5511911110001", "Cliente Um", "Primeira mensagem");
      await until(async () => (await http<{ tickets: unknown[] }>(admin, "GET", "/api/tickets?status=pending&withUnreadMessages=true")).tickets.length === 1, "the first ticket");
      const outsider = await makeUser(companyId, { queueIds: [], name: "Agente Sem Fila" });

      const page = await newPage();
      await login(page, admin.email, admin.password);
      await expect.poll(() => bellCount(page).textContent()).toBe("1");

      // A second customer writes: the count rises live.
      await customerSays(wid, "5511911110002", "Cliente Dois", "Segunda mensagem");
      await expect.poll(() => bellCount(page).textContent()).toBe("2");

      // The popover lists both, newest first; Escape and a click outside close it.
      await page.getByTestId("notifications-button").click();
      const items = panel(page).getByTestId("notification-item");
      await expect.poll(() => items.allTextContents()).toEqual([expect.stringContaining("Cliente Dois"), expect.stringContaining("Cliente Um")]);
      await expect.poll(() => items.first().textContent()).toContain("Segunda mensagem");
      await page.keyboard.press("Escape");
      await panel(page).waitFor({ state: "detached" });
      await page.getByTestId("notifications-button").click();
      await panel(page).waitFor();
      await page.locator("main").click({ position: { x: 5, y: 5 } });
      await panel(page).waitFor({ state: "detached" });

      // Choosing a ticket opens its conversation; once read it leaves the list.
      await page.getByTestId("notifications-button").click();
      const uuid = await items.first().getAttribute("data-ticket-uuid");
      await items.first().click();
      await page.waitForURL(`**/tickets/${uuid}`);
      await panel(page).waitFor({ state: "detached" });
      await page.getByText("Segunda mensagem").last().waitFor();
      await expect.poll(() => bellCount(page).textContent()).toBe("1");
      await page.getByTestId("notifications-button").click();
      await expect.poll(() => items.allTextContents()).toEqual([expect.stringContaining("Cliente Um")]);
      await page.keyboard.press("Escape");

      // A message that arrives while its conversation is on screen is read at once: it never stays unread.
      await customerSays(wid, "5511911110002", "Cliente Dois", "Mais uma coisa");
      await page.getByTestId("conversation").getByText("Mais uma coisa").waitFor();
      await expect.poll(() => bellCount(page).textContent()).toBe("1");
      await page.getByTestId("notifications-button").click();
      await expect.poll(() => items.allTextContents()).toEqual([expect.stringContaining("Cliente Um")]);

      // An agent outside the ticket's queue has nothing to read.
      const other = await newPage();
      await login(other, outsider.email, outsider.password);
      await other.getByTestId("notifications-button").click();
      await panel(other).getByText("Nenhuma mensagem não lida.").waitFor();
      expect(await bellCount(other).count()).toBe(0);
    },
    TEST_MS,
  );

  it(
    "keeps the volume chosen on the slider after a reload",
    async () => {
      const { admin } = await makeCompany();
      const page = await newPage();
      await login(page, admin.email, admin.password);
      await page.getByTestId("volume-button").click();
      const slider = page.getByRole("slider", { name: "Volume das notificações" });
      expect(await slider.inputValue()).toBe("1");
      await slider.fill("0.3");
      await expect.poll(() => page.getByTestId("volume-value").textContent()).toBe("30%");
      await slider.press("ArrowLeft");
      await expect.poll(() => page.getByTestId("volume-value").textContent()).toBe("20%");
      expect(await page.evaluate(() => localStorage.getItem("volume"))).toBe("0.2");

      await page.reload();
      await page.getByTestId("greeting").waitFor();
      expect(await page.getByTestId("volume-button").getAttribute("aria-label")).toBe("Volume das notificações: 20%");
      await page.getByTestId("volume-button").click();
      expect(await page.getByRole("slider", { name: "Volume das notificações" }).inputValue()).toBe("0.2");
    },
    TEST_MS,
  );
});
