/**
 * Browser proof of the day-one screens outside the conversation (playwright-core + Debian chromium, whole local stack):
 * - Users page: a user with an open tab is Online, Offline once their last tab closes, live on the admin's page;
 * - Contacts: "Última interação" shows when the contact last wrote;
 * - the sandbox phone: after a reload the customer's own messages (from the phone and through `/sim`), their
 *   reaction and a vCard sent through the dialog come back; the menu opens it in a new tab as "Telefone de teste";
 * - the login page links to the password reset page;
 * - API failing → "Serviço indisponível…" banner, then it goes away; socket lost → "Reconectando…", then away;
 * - every screen in English and Spanish shows no Portuguese-only text outside the product specs' fixed Portuguese texts.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page, WebSocketRoute } from "playwright-core";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../infra/local/src/stack.ts";
import { userSockets } from "../../shared/src/realtime/connections.ts";
import { makeCompany, makeUser, type TestUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("day-one");
const { newPage, newContext, http, until, connectedWhatsapp, customerSays } = e2e;
const login = (page: Page, user: TestUser) => e2e.login(page, user.email, user.password);
const menu = (page: Page) => page.getByRole("navigation", { name: "Menu principal" });

describe("day one, outside the conversation", () => {
  it("shows a user Online while a tab of theirs is open and Offline when the last one closes, live", async () => {
    const { companyId, admin } = await makeCompany();
    const agent = await makeUser(companyId, { name: "Bruna Agente" });
    const page = await newPage();
    await login(page, admin);
    await menu(page).getByRole("link", { name: "Usuários" }).click();
    const row = (name: string) => page.getByTestId("user-row").filter({ hasText: name });
    await row("Admin").getByText("Online", { exact: true }).waitFor();
    await row("Bruna Agente").getByText("Offline", { exact: true }).waitFor();

    const agentCtx = await newContext();
    const first = await newPage(agentCtx);
    await login(first, agent);
    await row("Bruna Agente").getByText("Online", { exact: true }).waitFor();
    const second = await newPage(agentCtx); // a second tab of the same browser: same session, its own socket
    await second.goto(`${e2e.stack.url}/tickets`);
    await second.getByTestId("greeting").waitFor();
    // The second tab's socket is registered (the stack runs in this process) before the first tab goes.
    await until(async () => ((await userSockets(companyId, agent.id)).length >= 2 ? true : null), "the agent's two sockets");

    await first.close();
    await page.waitForTimeout(1500);
    await row("Bruna Agente").getByText("Online", { exact: true }).waitFor();
    await second.close();
    await row("Bruna Agente").getByText("Offline", { exact: true }).waitFor();
  }, TEST_MS);

  it("shows when a contact last wrote under Última interação", async () => {
    const { admin } = await makeCompany();
    await http(admin, "POST", "/api/contacts", { name: "Sem Conversa", number: "5511933332222", email: "" });
    const wid = await connectedWhatsapp(admin, "Loja");
    await customerSays(wid, "5511955551234", "Rita Prado", "bom dia, tudo bem?");
    const page = await newPage();
    await login(page, admin);
    await menu(page).getByRole("link", { name: "Contatos", exact: true }).click();
    await page.getByRole("heading", { name: "Contatos" }).waitFor();
    const cell = (name: string) => page.getByTestId("contact-row").filter({ hasText: name }).getByTestId("contact-last-interaction");
    const now = new Date();
    const today = `${String(now.getUTCDate()).padStart(2, "0")}/${String(now.getUTCMonth() + 1).padStart(2, "0")}/${now.getUTCFullYear()}`;
    await until(async () => (await cell("Rita Prado").innerText()).startsWith(today), "Rita's last interaction today");
    expect(await cell("Rita Prado").innerText()).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
    expect(await cell("Sem Conversa").innerText()).toBe("—");
  }, TEST_MS);

  it("brings the whole sandbox thread back after a reload: own messages, /sim messages, a reaction and a vCard", async () => {
    const { companyId, admin } = await makeCompany();
    const api = await makeUser(companyId, { profile: "admin", name: "Api Admin" }); // the browser login revokes admin's token
    const wid = await connectedWhatsapp(admin, "Loja do Teste");
    const shell = await newPage();
    await login(shell, admin);
    // The menu opens the test phone in a new tab, under its one name.
    const item = menu(shell).getByRole("link", { name: /^Telefone de teste/ });
    expect(await item.getAttribute("target")).toBe("_blank");
    const [phone] = await Promise.all([shell.context().waitForEvent("page"), item.click()]);
    await phone.waitForURL((u) => u.pathname === "/sandbox");
    expect(new URL(shell.url()).pathname).not.toBe("/sandbox");

    await phone.goto(`${e2e.stack.url}/sandbox?whatsappId=${wid}&number=5511987650000&name=Joana%20Cliente`);
    await phone.locator("[data-testid=sandbox-state][data-open=true]").waitFor();
    await phone.getByTestId("phone-input").fill("Quero um orçamento");
    await phone.getByTestId("phone-send").click();
    await phone.getByTestId("phone-mine").filter({ hasText: "Quero um orçamento" }).waitFor();
    await customerSays(wid, "5511987650000", "Joana Cliente", "Mandei pelo /sim também");
    await phone.getByTestId("phone-mine").filter({ hasText: "Mandei pelo /sim também" }).waitFor();

    // The vCard comes from a dialog, not from prompt() boxes.
    await phone.getByTestId("phone-vcard").click();
    const dialog = phone.getByRole("dialog", { name: "Enviar contato" });
    await dialog.getByRole("textbox", { name: /^Nome do contato/ }).fill("Paulo Indicado");
    await dialog.getByRole("textbox", { name: /^Número do contato/ }).fill("5511944443333");
    await dialog.getByTestId("phone-vcard-send").click();
    await dialog.waitFor({ state: "hidden" });
    await phone.getByTestId("phone-mine").filter({ hasText: "Paulo Indicado" }).waitFor();

    // The agent answers; the customer reacts to the answer.
    const ticket = await until(async () => (await http<{ tickets: { id: number }[] }>(api, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "the ticket");
    await http(api, "PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: api.id });
    await http(api, "POST", `/api/messages/${ticket.id}`, { body: "Claro! Já preparo." });
    const answer = phone.getByTestId("phone-agent").filter({ hasText: "Claro! Já preparo." });
    await answer.getByRole("button", { name: "Reagir com 👍" }).click();
    await answer.getByTestId("phone-reactions").getByText("👍").waitFor();

    await phone.evaluate(() => localStorage.clear()); // nothing of the thread lives in the page
    await phone.reload();
    await phone.locator("[data-testid=sandbox-state][data-open=true]").waitFor();
    for (const text of ["Quero um orçamento", "Mandei pelo /sim também", "Paulo Indicado"]) await phone.getByTestId("phone-mine").filter({ hasText: text }).waitFor();
    await answer.getByTestId("phone-reactions").getByText("👍").waitFor();
    const order = await phone.locator("[data-testid=phone-mine], [data-testid=phone-agent]").allInnerTexts();
    expect(order.findIndex((t) => t.includes("Quero um orçamento"))).toBeLessThan(order.findIndex((t) => t.includes("Claro! Já preparo.")));
  }, TEST_MS);

  it("offers the password reset link on the login page, each link landing on its own page", async () => {
    const page = await newPage();
    await page.goto(`${e2e.stack.url}/login`);
    await page.getByRole("button", { name: "Entrar", exact: true }).waitFor();
    await page.getByRole("link", { name: "Esqueceu sua senha?" }).click();
    await page.waitForURL((u) => u.pathname === "/forgetpsw");
  }, TEST_MS);

  it("says so when the service stops answering or the socket is lost, and clears once it is back", async () => {
    const { admin } = await makeCompany();
    const page = await newPage();
    let refuseSocket = false;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/ws\b/, (ws) => {
      if (refuseSocket) return void ws.close();
      ws.connectToServer();
      sockets.push(ws);
    });
    await login(page, admin);
    await menu(page).getByRole("link", { name: "Usuários" }).click();
    await page.getByTestId("user-row").first().waitFor();
    const banner = page.getByTestId("service-banner");
    expect(await banner.getAttribute("data-state")).toBe("ok");

    // The API answers 503: the next request (the refresh button) shows the banner; it goes once the API answers.
    const down = (r: { fulfill: (o: object) => Promise<void> }) => r.fulfill({ status: 503, contentType: "application/json", body: '{"error":"ERR_SERVICE_UNAVAILABLE"}' });
    await page.route("**/api/**", down);
    await page.getByTestId("refresh-button").click();
    await banner.getByText("Serviço indisponível no momento. Tentando novamente…").waitFor();
    await page.unroute("**/api/**", down);
    await page.locator("[data-testid=service-banner][data-state=ok]").waitFor();

    // The socket drops and cannot come back: "Reconectando…"; once it can, the banner goes.
    refuseSocket = true;
    for (const ws of sockets.splice(0)) await ws.close();
    await banner.getByText("Sem conexão em tempo real. Reconectando…").waitFor();
    refuseSocket = false;
    await page.locator("[data-testid=service-banner][data-state=ok]").waitFor({ timeout: 45_000 });
  }, TEST_MS);

  it("shows every screen in English and Spanish without Portuguese-only text", async () => {
    const { admin } = await makeCompany({ name: "Acme" });
    await http(admin, "POST", "/api/contacts", { name: "Lia Prado", number: "5511922221111", email: "" });
    const wid = await connectedWhatsapp(admin, "Loja");
    const quoted = specQuotes();
    const page = await newPage();
    await login(page, admin);
    for (const lang of ["en", "es"]) {
      await page.evaluate((l) => localStorage.setItem("language", l), lang);
      for (const path of ["/", "/tickets", "/contacts", "/users", "/connections", "/queues", "/tags", `/sandbox?whatsappId=${wid}`]) {
        await page.goto(`${e2e.stack.url}${path}`);
        await page.locator("#main, .sandbox").first().waitFor();
        await page.waitForTimeout(1000);
        const found = portugueseOnly(await screenTexts(page), quoted);
        expect(found, `${lang} ${path}`).toEqual([]);
      }
      // A form dialog too.
      await page.goto(`${e2e.stack.url}/users`);
      await page.locator(".page-tools button.amplify-button--primary").click();
      await page.getByRole("dialog").waitFor();
      expect(portugueseOnly(await screenTexts(page), quoted), `${lang} user dialog`).toEqual([]);
    }
    const out = await newPage();
    await out.addInitScript(() => localStorage.setItem("language", "es"));
    await out.goto(`${e2e.stack.url}/login`);
    await out.getByRole("heading").first().waitFor();
    expect(portugueseOnly(await screenTexts(out), quoted), "es /login").toEqual([]);
  }, 3 * TEST_MS);
});

/** Every text a user sees or hears on the page: text nodes, accessible names, placeholders, titles, the tab title. */
function screenTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest("script,style,[hidden]")) continue;
      const v = n.textContent?.trim();
      if (v) out.push(v);
    }
    for (const el of document.querySelectorAll("[aria-label],[placeholder],[title],[alt],[aria-description]"))
      for (const a of ["aria-label", "placeholder", "title", "alt", "aria-description"]) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    return out;
  });
}

/** Words and letters Portuguese has and English and Spanish do not. */
const PT_ONLY = /[ãõç]|(?<!\p{L})(não|você|sua|seu|seus|suas|uma|nenhum|nenhuma|selecione|mensagem|mensagens|atendimento|atendimentos|usuário|usuários|conexão|conexões|contato|contatos|salvar|excluir|pesquisar|aguardando|adicionar|sair|olá|até|são|também|ações|nome|senha|fila|filas|telefone|fechar|conversa|conversas|arquivo|arquivos|apagar|carregando)(?!\p{L})/iu;

/** The spec's quoted texts ('…'), which stay in Portuguese wherever the spec says so. */
function specQuotes(): string[] {
  const text = ["attendance.md", "administration.md"].map((f) => readFileSync(join(REPO_ROOT, "../shared/spec", f), "utf8")).join("\n");
  return [...text.matchAll(/'([^'\n]{3,200})'/g)].map((m) => m[1]);
}

/** The texts that read as Portuguese once the spec's quoted texts and test data are taken out. */
function portugueseOnly(texts: string[], quoted: string[]): string[] {
  const data = ["Lia Prado", "Loja", "Acme", "Admin", "Av. Paulista", "São Paulo - SP", "Cliente Teste"];
  return texts.filter((t) => {
    let rest = t;
    for (const q of [...quoted, ...data]) if (q && rest.includes(q)) rest = rest.split(q).join(" ");
    return PT_ONLY.test(rest);
  });
}
