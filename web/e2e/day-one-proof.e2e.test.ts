/**
 * Browser proof of the day-one items the other browser tests do not cover (playwright-core + Debian chromium,
 * whole local stack in-process):
 * - search: Tickets › Busca finds by a surname, a run of digits of the number and a word of a message; Contacts
 *   finds by a surname, a number fragment and part of an email;
 * - access: an agent typing /users, /queues or /connections is sent away with the no-permission toast;
 * - the login page: even with registration visible and allowed by a super user, no link leads to a page that does
 *   not exist yet (it would land back on /login);
 * - in en and es the transfer dialog's queue placeholder and the search tab are translated;
 * - 375 px: the Connections table keeps a connection's name and number to two lines; the sandbox phone's composer
 *   keeps its placeholder on one line, nothing clipped;
 * - one icon set: no emoji or text glyph used as an icon on the screens swept below (the customer's
 *   reactions and message text are content, not icons).
 * With `SCREENS_DIR=<dir>` the icon sweep also saves each screen in light and dark at 1440 and 375 px.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeCompany, makeUser, type TestUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("day-one-proof");
const { newPage, http, until, connectedWhatsapp, customerSays, toast } = e2e;
const login = (page: Page, user: TestUser) => e2e.login(page, user.email, user.password);
const ticketRows = (page: Page) => page.getByTestId("ticket-row");

/** Emoji and the text glyphs once used as icons (☰ ☀ ☾ ↗ ✔ ⚠ ✕ ➤ 📎 …). */
const ICON_GLYPH = /[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}\u{2190}-\u{21FF}\u{2B00}-\u{2BFF}]/u;

/** The texts of the page's controls and decorations, leaving out message content and the customer's reactions. */
function chromeTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const content = ".msg-body, .bubble .reactions, [data-testid=phone-reactions], .emoji-picker, [data-testid=ticket-preview], .phone-msg-actions";
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(`script,style,[hidden],${content}`)) continue;
      const v = n.textContent?.trim();
      if (v) out.push(v);
    }
    return out;
  });
}

/** With `SCREENS_DIR`: the current page in light and dark (the app's own theme choice, then a reload), at 1440 and 375 px. */
async function screens(page: Page, name: string, ready: () => Promise<unknown>) {
  const dir = process.env.SCREENS_DIR;
  if (!dir) return;
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await ready();
    for (const [width, height] of [
      [1440, 900],
      [375, 812],
    ]) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${dir}/${name}-${theme}-${width}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }
  await page.evaluate(() => localStorage.setItem("theme", "light"));
  await page.reload();
  await ready();
}

describe("day one: the rest of the proof", () => {
  it("finds tickets and contacts by surname, number fragment, message word and email", async () => {
    const { admin } = await makeCompany();
    const wid = await connectedWhatsapp(admin, "Conexão Busca");
    await customerSays(wid, "5511977770001", "Helena Souza", "Quero o reembolso do pedido 4521");
    await customerSays(wid, "5511988881234", "Bruno Alves", "Bom dia");
    await http(admin, "POST", "/api/contacts", { name: "Lia Prado", number: "5511922221111", email: "lia@exemplo.com.br" });
    await until(async () => (await http<{ tickets: unknown[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets.length === 2, "two tickets");

    const page = await newPage();
    await login(page, admin);
    await page.goto(`${e2e.stack.url}/tickets`);
    await page.getByTestId("tab-search").click();
    const search = page.getByTestId("ticket-search");
    for (const [term, who] of [
      ["Souza", "Helena Souza"], // a surname
      ["98888", "Bruno Alves"], // digits inside the number
      ["reembolso", "Helena Souza"], // a word of a message
      ["pedido 4521", "Helena Souza"],
    ]) {
      await search.fill(term);
      await ticketRows(page).filter({ hasText: who }).waitFor();
      await until(async () => (await ticketRows(page).count()) === 1, `only ${who} for "${term}"`);
    }

    await page.goto(`${e2e.stack.url}/contacts`);
    const contacts = page.getByPlaceholder("Pesquisar contatos");
    const contactRows = page.getByTestId("contact-row");
    await contactRows.first().waitFor();
    for (const [term, who] of [
      ["Prado", "Lia Prado"],
      ["7777", "Helena Souza"],
      ["exemplo", "Lia Prado"],
    ]) {
      await contacts.fill(term);
      await until(async () => {
        const names = await contactRows.allInnerTexts();
        return names.length === 1 && names[0].includes(who);
      }, `only ${who} for "${term}"`);
    }
  }, TEST_MS);

  it("sends an agent who types /users, /queues or /connections away with the no-permission toast", async () => {
    const { companyId } = await makeCompany();
    const agent = await makeUser(companyId, { name: "Agente Curiosa" });
    const page = await newPage();
    await login(page, agent);
    for (const path of ["/users", "/queues", "/connections"]) {
      await page.goto(`${e2e.stack.url}${path}`);
      await toast(page, "Você não tem permissão para acessar este recurso.").waitFor();
      await page.waitForURL((u) => u.pathname === "/tickets");
      expect(await page.getByRole("heading", { name: /^(Usuários|Filas & Chatbot|Conexões)$/ }).count(), path).toBe(0);
      await toast(page, "Você não tem permissão para acessar este recurso.").waitFor({ state: "detached" });
    }
  }, TEST_MS);

  it("shows the sign-up link only while registration is visible and allowed, and the reset link always", async () => {
    const root = await makeCompany({ adminSuper: true });
    await http(root.admin, "PUT", "/api/settings/viewregister", { value: "enabled" });
    await http(root.admin, "PUT", "/api/settings/allowregister", { value: "enabled" });
    const anon = await fetch(`${e2e.stack.url}/api/settings/viewregister`);
    expect(await anon.json()).toEqual({ key: "viewregister", value: "enabled" });

    const page = await newPage();
    await page.goto(`${e2e.stack.url}/login`);
    await page.getByRole("button", { name: "Entrar", exact: true }).waitFor();
    await page.getByRole("link", { name: /Cadastre-se/ }).waitFor();
    expect(await page.getByRole("link", { name: "Esqueceu sua senha?" }).getAttribute("href")).toBe("/forgetpsw");
    expect(await page.getByRole("link", { name: /Cadastre-se/ }).getAttribute("href")).toBe("/signup");
    await screens(page, "login", () => page.getByRole("button", { name: "Entrar", exact: true }).waitFor());

    // Registration hidden: no sign-up link; the reset link stays.
    await http(root.admin, "PUT", "/api/settings/viewregister", { value: "disabled" });
    const again = await newPage();
    await again.goto(`${e2e.stack.url}/login`);
    await again.getByRole("link", { name: "Esqueceu sua senha?" }).waitFor();
    await again.waitForTimeout(500);
    expect(await again.getByRole("link", { name: /Cadastre-se/ }).count()).toBe(0);
  }, TEST_MS);

  it("translates the transfer dialog's queue placeholder and the search tab in English and Spanish", async () => {
    const { admin } = await makeCompany();
    await http(admin, "POST", "/api/queue", { name: "Fila Suporte", color: "#1e88e5", greetingMessage: "" });
    const wid = await connectedWhatsapp(admin, "Conexão Idiomas");
    await customerSays(wid, "5511955554444", "Rui Idioma", "Hello");
    const ticket = await until(async () => (await http<{ tickets: { id: number; uuid: string }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "the ticket");
    await http(admin, "PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: admin.id });
    const page = await newPage();
    await login(page, admin);
    const expected = {
      pt: { search: "Busca", transfer: "Transferir", queue: "Selecione uma fila" },
      en: { search: "Search", transfer: "Transfer", queue: "Select a queue" },
      es: { search: "Búsqueda", transfer: "Transferir", queue: "Seleccione una cola" },
    } as const;
    for (const lang of ["en", "es", "pt"] as const) {
      await page.evaluate((l) => localStorage.setItem("language", l), lang);
      await page.goto(`${e2e.stack.url}/tickets/${ticket.uuid}`);
      const conv = page.getByTestId("conversation");
      await conv.getByTestId("message").first().waitFor();
      // The search tab: its accessible name in the page's language.
      await page.getByRole("tab", { name: expected[lang].search, exact: true }).waitFor();
      await conv.getByRole("button", { name: expected[lang].transfer, exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      const placeholders = await dialog.locator("input[placeholder]").evaluateAll((els) => els.map((el) => (el as HTMLInputElement).placeholder.trim()));
      expect(placeholders, lang).toContain(expected[lang].queue);
      if (lang !== "pt") expect(placeholders.join(" "), lang).not.toMatch(/Selecione|fila/);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }
  }, TEST_MS);

  it("keeps a connection's name and number to two lines and the sandbox composer to one line at 375 px", async () => {
    const { admin } = await makeCompany();
    const wid = await connectedWhatsapp(admin, "Loja Centro Paulista");
    const page = await newPage();
    await login(page, admin);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${e2e.stack.url}/connections`);
    const cell = page.getByTestId("connection-row").first().locator(".col-name");
    await cell.waitFor();
    // The name on one line, the number on one line under it (then the status); the row's actions stay on screen.
    const lines = await cell.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el.firstChild!);
      const number = el.querySelector(".sub-line") as HTMLElement;
      const lh = Number.parseFloat(getComputedStyle(number).lineHeight) || 20;
      return { name: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size, number: number.getBoundingClientRect().height / lh };
    });
    expect(lines.name).toBe(1);
    expect(lines.number).toBeLessThan(1.5);
    for (const id of ["connection-edit", "connection-delete"]) {
      const b = await page.getByTestId("connection-row").first().getByTestId(id).boundingBox();
      expect(b!.x + b!.width, id).toBeLessThanOrEqual(375);
    }
    if (process.env.SCREENS_DIR) await page.screenshot({ path: `${process.env.SCREENS_DIR}/connections-table-light-375.png` });
    // No sideways scrolling of the page itself.
    await expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);

    const phone = await newPage(page.context());
    await phone.setViewportSize({ width: 375, height: 812 });
    await phone.goto(`${e2e.stack.url}/sandbox?whatsappId=${wid}&number=5511987650000&name=Joana%20Cliente`);
    await phone.locator("[data-testid=sandbox-state][data-open=true]").waitFor();
    const input = phone.getByTestId("phone-input");
    await input.waitFor();
    const fit = await input.evaluate((el) => {
      const ta = el as HTMLTextAreaElement;
      const cs = getComputedStyle(ta);
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = ta.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight);
      return { text: ctx.measureText(ta.placeholder).width, room, height: ta.getBoundingClientRect().height };
    });
    expect(fit.text).toBeLessThanOrEqual(fit.room); // the placeholder fits on one line: nothing wraps or is cut
    expect(fit.height).toBeLessThan(48);
    // The input and the send button share one row, inside the phone.
    const send = await phone.getByTestId("phone-send").boundingBox();
    const box = await input.boundingBox();
    const frame = await phone.locator(".phone").boundingBox();
    expect(send!.y).toBeLessThan(box!.y + box!.height);
    expect(box!.y).toBeLessThan(send!.y + send!.height);
    expect(send!.x + send!.width).toBeLessThanOrEqual(frame!.x + frame!.width);
    if (process.env.SCREENS_DIR) await phone.locator(".phone").screenshot({ path: `${process.env.SCREENS_DIR}/sandbox-phone-light-375.png` });
    // A typed message still goes out.
    await input.fill("Teste em 375");
    await input.press("Enter");
    await phone.getByTestId("phone-mine").filter({ hasText: "Teste em 375" }).waitFor();
  }, TEST_MS);

  it("uses one icon set on every screen of the sweep", async () => {
    const { admin } = await makeCompany();
    const api = await makeUser(admin.companyId, { profile: "admin", name: "Api Admin" }); // the browser login revokes admin's token
    const wid = await connectedWhatsapp(admin, "Loja Ícones");
    await http(admin, "POST", "/api/contacts", { name: "Lia Prado", number: "5511922221111", email: "lia@exemplo.com.br" });
    await customerSays(wid, "5511933332222", "Caio Ícone", "Bom dia! Quero saber do meu pedido");
    const ticket = await until(async () => (await http<{ tickets: { id: number; uuid: string }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "the ticket");
    const page = await newPage();
    await login(page, admin);
    await http(api, "PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: admin.id });
    await http(api, "POST", `/api/messages/${ticket.id}`, { body: "Olá! Já verifico." });

    const visits: [string, string, (p: Page) => Promise<unknown>][] = [
      ["tickets", "/tickets", (p) => p.getByTestId("ticket-row").first().waitFor()],
      ["conversation", `/tickets/${ticket.uuid}`, (p) => p.getByTestId("message").filter({ hasText: "Olá! Já verifico." }).waitFor()],
      ["contacts", "/contacts", (p) => p.getByTestId("contact-row").first().waitFor()],
      ["users", "/users", (p) => p.getByTestId("user-row").first().waitFor()],
      ["connections", "/connections", (p) => p.getByTestId("connection-row").first().waitFor()],
      ["settings", "/settings", (p) => p.locator("#main").waitFor()],
      ["sandbox", `/sandbox?whatsappId=${wid}&number=5511933332222&name=Caio%20%C3%8Dcone`, (p) => p.getByTestId("phone-agent").first().waitFor()],
    ];
    for (const [name, path, ready] of visits) {
      await page.goto(`${e2e.stack.url}${path}`);
      await ready(page);
      await page.waitForTimeout(300);
      const glyphs = (await chromeTexts(page)).filter((t) => ICON_GLYPH.test(t));
      expect(glyphs, name).toEqual([]);
      await screens(page, name, () => ready(page));
    }
  }, process.env.SCREENS_DIR ? TEST_MS * 3 : TEST_MS);
});
