/**
 * Browser proof of the app shell and sessions (playwright-core + Debian chromium against the whole local stack in-process):
 * wrong password → error toast; the admin sees the shell in Portuguese and switches to English; creates a queue and
 * a user in that queue; the user logs in in a second browser context; the same user logging in in a third context
 * makes the second show 'Sua conta foi acessada em outro computador.' and return to /login; a company whose due date
 * is past is refused with the product's message. The agent's tools: a super user adds a help video in the Ajuda tab of
 * the settings and an agent of another company plays it from /helps (the player closes with Escape); the to-do list
 * adds with Enter, edits in place, deletes with undo, ignores blank text and survives a reload. Billing: an admin pays
 * the invoice the minute tick made through the checkout's Pix (announced by its success toast), paid from the
 * sandbox's test bank, and sees the renewal toast with the new due date, then /. An admin registers a company webhook (its secret shown once), sends a test
 * event and sees it delivered, signed, in the webhook's log. Accounts: a company signs up from the login page's link
 * and logs in; a forgotten password is reset with the code from the local mail inbox; a super user extends a company
 * due in 3 days with +Vencimento and its row loses the yellow colouring.
 *
 * Needs `web/dist` (the root `npm test` runs `npm run build:web` first) and `/usr/bin/chromium`.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { addMonths } from "date-fns";
import { describe, expect, it } from "vitest";
import { putGlobalSetting } from "@atende/shared/settings/repository";
import { readInbox } from "../../infra/local/src/ses.ts";
import { makeCompany, makeUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("shell");
const { newPage, toast, until } = e2e;
/** Fills the login form and submits it. */
const login = e2e.submitLogin;

const queueName = "Suporte Técnico";
const agent = { name: "Maria Atendente", email: `maria-${Date.now()}@example.com`, password: "maria123" };

/** Resolves once the page's realtime socket is open and has joined its notification room. */
function socketJoined(page: Page): Promise<unknown> {
  return page.waitForEvent("websocket").then((ws) => ws.waitForEvent("framesent", { predicate: (f) => String(f.payload).includes("joinNotification") }));
}

describe("web shell in the browser", () => {
  let admin: Page;

  it("shows the translated error toast when the password is wrong", async () => {
    admin = await newPage();
    await login(admin, "admin@admin.com", "wrong-password");
    await toast(admin, "Erro de autenticação. Por favor, tente novamente.").waitFor();
    expect(new URL(admin.url()).pathname).toBe("/login");
  }, TEST_MS);

  it("shows the shell in Portuguese when the admin logs in, and in English after the switch", async () => {
    await login(admin, "admin@admin.com", "123456");
    const greeting = admin.getByTestId("greeting");
    await greeting.getByText("Olá Admin, seja bem-vindo(a) a Empresa 1!").waitFor();
    await expect(greeting.getByTestId("active-until").textContent()).resolves.toMatch(/^Ativo até \d{2}\/\d{2}\/\d{4}$/);
    const menu = admin.getByRole("navigation", { name: "Menu principal" });
    await menu.getByRole("link", { name: "Usuários" }).waitFor();
    await menu.getByRole("link", { name: "Filas & Chatbot" }).waitFor();
    await menu.getByRole("button", { name: "Sair" }).waitFor();
    await admin.getByTestId("app-version").getByText("Versão 5.3.5").waitFor();

    const themeRoot = admin.locator("[data-amplify-theme]").first();
    const before = await themeRoot.getAttribute("data-amplify-color-mode");
    await admin.getByRole("button", { name: /^Usar tema (escuro|claro)$/ }).click();
    const after = before === "dark" ? "light" : "dark";
    await admin.locator(`[data-amplify-theme][data-amplify-color-mode="${after}"]`).first().waitFor();
    expect(await admin.evaluate(() => localStorage.getItem("theme"))).toBe(after);

    await admin.getByRole("combobox", { name: "Idioma" }).selectOption("en");
    const menuEn = admin.getByRole("navigation", { name: "Main menu" });
    await menuEn.getByRole("link", { name: "Users" }).waitFor();
    await menuEn.getByRole("link", { name: "Queues & Chatbot" }).waitFor();
    await admin.getByText("Hello Admin, welcome to Empresa 1!").waitFor();
    expect(await admin.evaluate(() => localStorage.getItem("language"))).toBe("en");
  }, TEST_MS);

  it("creates a queue and then a user in that queue from the admin pages", async () => {
    await admin.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Queues & Chatbot" }).click();
    await admin.getByRole("button", { name: "Add queue" }).click();
    const qDialog = admin.getByRole("dialog", { name: "Add queue" });
    await qDialog.getByRole("button", { name: "Save" }).click();
    await qDialog.getByText("Required").waitFor(); // the product's validation message, nothing sent
    await qDialog.getByRole("textbox", { name: /^Name/ }).fill(queueName);
    await qDialog.getByRole("button", { name: "Save" }).click();
    await toast(admin, "Queue saved successfully").waitFor();
    await admin.getByTestId("queue-row").filter({ hasText: queueName }).waitFor();
    // The new queue stays open on its chatbot options; this test has none to add.
    const edit = admin.getByRole("dialog", { name: "Edit queue" });
    await edit.getByRole("tab", { name: "Chatbot options", selected: true }).waitFor();
    await edit.getByRole("button", { name: "Cancel" }).click();
    await edit.waitFor({ state: "hidden" });

    await admin.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Users" }).click();
    await admin.getByRole("button", { name: "Add user" }).click();
    const uDialog = admin.getByRole("dialog", { name: "Add user" });
    await uDialog.getByRole("textbox", { name: /^Name/ }).fill(agent.name);
    await uDialog.getByRole("textbox", { name: /^Email/ }).fill("not-an-email");
    await uDialog.getByLabel(/^Password/).fill(agent.password);
    await uDialog.getByRole("button", { name: "Save" }).click();
    await uDialog.getByText("Invalid email").waitFor();
    await uDialog.getByRole("textbox", { name: /^Email/ }).fill(agent.email);
    await uDialog.getByText(queueName).click();
    expect(await uDialog.getByRole("checkbox", { name: queueName }).isChecked()).toBe(true);
    await uDialog.getByRole("button", { name: "Save" }).click();
    await toast(admin, "User saved successfully!").waitFor();
    const row = admin.getByTestId("user-row").filter({ hasText: agent.email });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(agent.name);
    expect(await uDialog.isVisible()).toBe(false);
  }, TEST_MS);

  it("shows a user created elsewhere in the open users table without a reload", async () => {
    const token = await admin.evaluate(() => JSON.parse(localStorage.getItem("token") ?? "null") as string);
    const res = await fetch(`${e2e.stack.url}/api/users`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: "Live Update", email: `live-${Date.now()}@example.com`, password: "secret1", profile: "user" }),
    });
    expect(res.status).toBeLessThan(300);
    await admin.getByTestId("user-row").filter({ hasText: "Live Update" }).waitFor();
  }, TEST_MS);

  it("wraps a long email on a 375 px screen only before '@' and '.', never inside a name", async () => {
    const companyId = await admin.evaluate(() => (JSON.parse(localStorage.getItem("user") ?? "{}") as { companyId: number }).companyId);
    const email = `fernanda.albuquerque.silva${companyId}@empresaexemplo.com.br`;
    // Another admin of the company on a phone (its own browser), so the admin page of the other tests is left alone.
    const fernanda = await makeUser(companyId, { profile: "admin", name: "Fernanda Albuquerque", email });
    const phone = await newPage();
    await phone.setViewportSize({ width: 375, height: 812 });
    await e2e.login(phone, fernanda.email, fernanda.password);
    await phone.goto(`${e2e.stack.url}/users`);
    {
      const cell = phone.getByTestId("user-row").filter({ hasText: "Fernanda Albuquerque" }).getByTestId("user-email-narrow");
      await cell.waitFor();
      const layout = await cell.evaluate((el) => ({
        text: el.textContent,
        lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
        // Each piece between break points ("fernanda", ".albuquerque", "@empresa-exemplo", ".com"...) on one line.
        pieces: [...el.querySelectorAll(".email-text > span")].map((s) => s.getClientRects().length),
      }));
      expect(layout.text).toBe(email);
      expect(layout.lines).toBeGreaterThan(1); // it does wrap at 375 px...
      expect(layout.pieces.every((n) => n === 1)).toBe(true); // ...between pieces only
    }
  }, TEST_MS);

  it("refetches the open table when the tab becomes visible again, showing a change that sent no event", async () => {
    const companyId = await admin.evaluate(() => (JSON.parse(localStorage.getItem("user") ?? "{}") as { companyId: number }).companyId);
    await admin.getByTestId("user-row").first().waitFor();
    await makeUser(companyId, { name: "Silent Change" }); // written straight to the table: no realtime event
    await admin.waitForTimeout(500);
    expect(await admin.getByTestId("user-row").filter({ hasText: "Silent Change" }).count()).toBe(0);
    // The tab goes to the background and comes back.
    await admin.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      document.dispatchEvent(new Event("visibilitychange", { bubbles: true })); // as browsers fire it
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
      document.dispatchEvent(new Event("visibilitychange", { bubbles: true })); // as browsers fire it
    });
    await admin.getByTestId("user-row").filter({ hasText: "Silent Change" }).waitFor();
  }, TEST_MS);

  it("refetches what is on screen from the top bar's refresh button", async () => {
    const companyId = await admin.evaluate(() => (JSON.parse(localStorage.getItem("user") ?? "{}") as { companyId: number }).companyId);
    await makeUser(companyId, { name: "Quiet Change" }); // written straight to the table: no realtime event
    await admin.waitForTimeout(500);
    expect(await admin.getByTestId("user-row").filter({ hasText: "Quiet Change" }).count()).toBe(0);
    await admin.getByTestId("refresh-button").click();
    await admin.getByTestId("user-row").filter({ hasText: "Quiet Change" }).waitFor();
  }, TEST_MS);

  it("loads the next page of users when the table is scrolled to the bottom", async () => {
    const companyId = await admin.evaluate(() => (JSON.parse(localStorage.getItem("user") ?? "{}") as { companyId: number }).companyId);
    for (let i = 0; i < 25; i++) await makeUser(companyId, { name: `Paged ${String(i).padStart(2, "0")}` });
    await admin.reload();
    const rows = admin.getByTestId("user-row");
    await rows.nth(19).waitFor();
    expect(await rows.count()).toBe(20);
    await admin.getByTestId("users-scroll").evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await rows.nth(20).waitFor();
    expect(await rows.count()).toBeGreaterThan(20);
  }, TEST_MS);

  it("ends the older session with the product's message when the same user logs in on another computer", async () => {
    const second = await newPage();
    const joined = socketJoined(second);
    await login(second, agent.email, agent.password);
    await second.getByText(`Olá ${agent.name}, seja bem-vindo(a) a Empresa 1!`).waitFor();
    // An agent sees no admin items and no version.
    expect(await second.getByRole("link", { name: "Usuários" }).count()).toBe(0);
    expect(await second.getByTestId("app-version").count()).toBe(0);
    await joined;

    const third = await newPage();
    await login(third, agent.email, agent.password);
    await third.getByText(`Olá ${agent.name}, seja bem-vindo(a) a Empresa 1!`).waitFor();

    await toast(second, "Sua conta foi acessada em outro computador.").waitFor();
    await second.waitForURL((u) => u.pathname === "/login");
    expect(await second.evaluate(() => localStorage.getItem("token"))).toBeNull();
    // The newest session is untouched.
    expect(new URL(third.url()).pathname).not.toBe("/login");
    expect(await third.evaluate(() => localStorage.getItem("token"))).not.toBeNull();
  }, TEST_MS);

  it("refreshes once and replays on 403 ERR_SESSION_EXPIRED, never refreshes on 403 ERR_NO_PERMISSION, and logs out on 401", async () => {
    const page = await newPage();
    const refreshes: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/auth/refresh_token") refreshes.push(r.method());
    });
    let expiredOnce = false;
    await page.route((u) => u.pathname === "/api/queue", async (route) => {
      if (!expiredOnce) {
        expiredOnce = true;
        await route.fulfill({ status: 403, contentType: "application/json", body: JSON.stringify({ error: "ERR_SESSION_EXPIRED" }) });
      } else await route.continue();
    });
    await login(page, "admin@admin.com", "123456");
    const firstToken = await page.evaluate(() => localStorage.getItem("token"));
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Filas & Chatbot" }).click();
    await page.getByTestId("queue-row").filter({ hasText: queueName }).waitFor();
    expect(expiredOnce).toBe(true);
    expect(refreshes).toEqual(["POST"]);
    expect(await page.evaluate(() => localStorage.getItem("token"))).not.toBe(firstToken);

    await page.route((u) => u.pathname === "/api/users", (route) =>
      route.fulfill({ status: 403, contentType: "application/json", body: JSON.stringify({ error: "ERR_NO_PERMISSION" }) }),
    );
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Usuários" }).click();
    await page.getByText("Você não tem permissão para acessar este recurso.").waitFor();
    expect(refreshes).toEqual(["POST"]);
    expect(new URL(page.url()).pathname).toBe("/users");

    await page.unroute((u) => u.pathname === "/api/users");
    await page.route((u) => u.pathname === "/api/users", (route) =>
      route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ error: "ERR_SESSION_EXPIRED" }) }),
    );
    await page.reload();
    await page.waitForURL((u) => u.pathname === "/login");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  }, TEST_MS);

  it("lets an agent change their own name and password from the profile in the top bar", async () => {
    const { companyId } = await makeCompany();
    const user = await makeUser(companyId, { name: "Agente Antigo" });
    const page = await newPage();
    await login(page, user.email, user.password);
    await page.getByTestId("greeting").getByText("Olá Agente Antigo", { exact: false }).waitFor();

    await page.getByTestId("profile-button").click();
    const dlg = page.getByRole("dialog", { name: "Perfil" });
    await dlg.getByRole("textbox", { name: "Nome" }).fill("A");
    const newPassword = dlg.getByLabel("Senha", { exact: true });
    await newPassword.fill("123");
    await dlg.getByRole("button", { name: "Salvar" }).click();
    await expect(dlg.getByText("Too Short!").count()).resolves.toBe(2);
    await dlg.getByRole("textbox", { name: "Nome" }).fill("Agente Novo");
    await newPassword.fill("nova-senha");
    // The current password is asked for, and checked by the server.
    await dlg.getByLabel("Senha atual").fill("not-my-password");
    await newPassword.press("Enter");
    await dlg.getByText("Senha atual incorreta").waitFor();
    await dlg.getByLabel("Senha atual").fill(user.password);
    // A slow answer: the server has already revoked the old token and closed the tab's socket, which reconnects
    // (within 1 s) with the old token before the new one arrives. The tab waits for it instead of logging out.
    let answered = 0;
    await page.route(/\/api\/users\/\d+$/, async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      const res = await route.fetch();
      await new Promise((r) => setTimeout(r, 2_500));
      await route.fulfill({ response: res });
      answered++;
    });
    // And the refusal of that reconnect's old token reaches the tab only after the new token did.
    let refusedLate = 0;
    await page.route(/\/api\/auth\/ws-ticket$/, async (route) => {
      const res = await route.fetch();
      const refused = res.status() === 401;
      if (refused) await new Promise((r) => setTimeout(r, 4_000));
      await route.fulfill({ response: res });
      if (refused) refusedLate++;
    });
    await newPassword.press("Enter");
    await toast(page, "Usuário salvo com sucesso!").waitFor();
    await until(async () => refusedLate > 0, "the late refusal of the old token");
    await page.unrouteAll({ behavior: "wait" });
    expect(answered).toBe(1);
    await page.getByTestId("greeting").getByText("Olá Agente Novo", { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/tickets");

    // The new password is the one that works now.
    const other = await newPage();
    await login(other, user.email, user.password);
    await toast(other, "Erro de autenticação. Por favor, tente novamente.").waitFor();
    await login(other, user.email, "nova-senha");
    await other.getByTestId("greeting").getByText("Olá Agente Novo", { exact: false }).waitFor();
  }, TEST_MS);

  it("sends an agent who types /users, /queues or /connections to their first page, without the admin page", async () => {
    const { companyId } = await makeCompany();
    const user = await makeUser(companyId, { name: "Agente Curioso" });
    const page = await newPage();
    await login(page, user.email, user.password);
    await page.getByTestId("greeting").waitFor();
    for (const path of ["/users", "/queues", "/connections"]) {
      await page.goto(`${e2e.stack.url}${path}`);
      await page.waitForURL((u) => u.pathname === "/tickets");
      expect(await page.getByRole("heading", { name: /^(Usuários|Filas & Chatbot|Conexões)$/ }).count(), path).toBe(0);
    }
    // Tags is an attendance page: an agent opens it.
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Tags" }).click();
    await page.getByRole("heading", { name: "Tags" }).waitFor();
  }, TEST_MS);

  it("refuses the admin of a company whose due date is past with the product's message", async () => {
    const yesterday = new Date(Date.now() - 86_400_000);
    const { admin: pastDue } = await makeCompany({ dueDate: yesterday.toISOString() });
    const page = await newPage();
    await login(page, pastDue.email, "secret1");
    const date = `${String(yesterday.getUTCDate()).padStart(2, "0")}/${String(yesterday.getUTCMonth() + 1).padStart(2, "0")}/${yesterday.getUTCFullYear()}`;
    await toast(page, `Opss! Sua assinatura venceu ${date}. Entre em contato com o Suporte para mais informações!`).waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  }, TEST_MS);

  it("warns at login when the subscription ends in fewer than 5 days", async () => {
    const { admin: soon } = await makeCompany({ dueDate: new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString() });
    const page = await newPage();
    await login(page, soon.email, "secret1");
    await toast(page, "Sua assinatura vence em 3 dia(s)").waitFor();
    await page.getByTestId("greeting").waitFor();
  }, TEST_MS);

  it("signs a company up from the login page's link and logs in with it", async () => {
    const platform = await makeCompany({ name: "Plataforma" });
    await putGlobalSetting("allowregister", "enabled", { companyId: platform.companyId });
    await putGlobalSetting("viewregister", "enabled", { companyId: platform.companyId });
    const page = await newPage();
    await page.goto(`${e2e.stack.url}/login`);
    await page.getByRole("link", { name: "Cadastre-se!" }).click();
    await page.waitForURL(/\/signup$/);
    const email = `loja-${Date.now()}@example.com`;
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await page.getByText("Required").first().waitFor(); // nothing sent with empty fields
    await page.getByRole("textbox", { name: /^Nome da empresa/ }).fill("Loja da Esquina");
    await page.getByRole("textbox", { name: /^Email/ }).fill(email);
    await page.getByRole("textbox", { name: /^Telefone/ }).fill("11987654321");
    expect(await page.getByRole("textbox", { name: /^Telefone/ }).inputValue()).toBe("(11) 98765-4321");
    await page.getByLabel(/^Senha/).fill("segredo1");
    const plan = page.getByRole("combobox", { name: /^Plano/ });
    await expect(plan.locator("option[disabled]").textContent()).resolves.toBe("Selecione seu plano de assinatura");
    await plan.selectOption({ index: 1 });
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await page.waitForURL(/\/login$/);
    await login(page, email, "segredo1");
    await page.getByTestId("greeting").getByText("Olá Loja da Esquina, seja bem-vindo(a) a Loja da Esquina!").waitFor();
  }, TEST_MS);

  it("resets a forgotten password with the code from the local mail inbox, then logs in with the new one", async () => {
    const c = await makeCompany();
    const page = await newPage();
    await page.goto(`${e2e.stack.url}/login`);
    await page.getByRole("link", { name: "Esqueceu sua senha?" }).click();
    await page.waitForURL(/\/forgetpsw$/);
    await page.getByRole("textbox", { name: /^Email/ }).fill(c.admin.email);
    await page.getByRole("button", { name: "Enviar Email" }).click();
    await toast(page, "Email enviado com sucesso!").waitFor();
    // The local SES emulator's inbox page shows the email; its code is read there.
    const inbox = await newPage();
    await inbox.goto(e2e.stack.mailInbox);
    await inbox.getByText(c.admin.email).first().waitFor();
    const code = await until(async () => {
      const mails = (await readInbox(new URL(e2e.stack.mailInbox).origin)).filter((m) => m.destination.to.includes(c.admin.email));
      return /\b(\d{6})\b/.exec(mails.at(-1)?.body.text ?? "")?.[1];
    }, "the reset code in the inbox");
    await page.getByRole("textbox", { name: /^Código de verificação/ }).fill(code);
    await page.getByLabel(/^Nova senha/).fill("fraca");
    await page.getByLabel(/^Confirme a senha/).fill("outra");
    await page.getByRole("button", { name: "Redefinir Senha" }).click();
    await page.getByText("Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.").waitFor();
    await page.getByText("As senhas não correspondem").waitFor();
    await page.getByLabel(/^Nova senha/).fill("NovaSenha1");
    await page.getByLabel(/^Confirme a senha/).fill("NovaSenha1");
    await page.getByRole("button", { name: "Redefinir Senha" }).click();
    await page.waitForURL(/\/login$/);
    await login(page, c.admin.email, "NovaSenha1");
    await page.getByTestId("greeting").waitFor();
  }, TEST_MS);

  it("lets a super user extend a company due in 3 days with +Vencimento, and the row turns from yellow to uncoloured", async () => {
    const platform = await makeCompany({ adminSuper: true });
    const name = `Vence Logo ${Date.now()}`;
    await makeCompany({ name, dueDate: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    const root = await newPage();
    await e2e.login(root, platform.admin.email, platform.admin.password);
    await root.goto(`${e2e.stack.url}/settings`);
    await root.getByRole("tab", { name: "Empresas" }).click();
    await root.getByPlaceholder("Pesquisar por nome, email ou telefone").fill(name);
    const row = root.getByTestId("company-row").filter({ hasText: name });
    await row.and(root.locator('[data-due="yellow"]')).waitFor();
    const yellow = await row.evaluate((el) => getComputedStyle(el.querySelector("td")!).backgroundColor);
    await row.getByTestId("company-extend").click();
    await row.and(root.locator('[data-due="ok"]')).waitFor();
    expect(await row.evaluate((el) => getComputedStyle(el.querySelector("td")!).backgroundColor)).not.toBe(yellow);
  }, TEST_MS);

  it("lets a super user add a help in the Ajuda tab, and an agent of another company play it from /helps and close it with Escape", async () => {
    const platform = await makeCompany({ adminSuper: true });
    const title = `Como transferir um atendimento ${Date.now()}`;
    const description = "Passo a passo da transferência entre filas.";
    const root = await newPage();
    await e2e.login(root, platform.admin.email, platform.admin.password);
    await root.goto(`${e2e.stack.url}/settings`);
    await root.getByRole("tab", { name: "Ajuda" }).click();
    const tab = root.getByTestId("helps-tab");
    await tab.getByRole("button", { name: "Adicionar" }).click();
    await expect(tab.getByText("Obrigatório").count()).resolves.toBe(2); // title and video, nothing sent
    await tab.getByRole("textbox", { name: /^Título/ }).fill(title);
    await tab.getByRole("textbox", { name: /^Código do vídeo/ }).fill("https://vimeo.com/123");
    await tab.getByRole("button", { name: "Adicionar" }).click();
    await tab.getByText("Código de vídeo inválido").waitFor();
    await tab.getByRole("textbox", { name: /^Código do vídeo/ }).fill("https://youtu.be/dQw4w9WgXcQ");
    await tab.getByRole("textbox", { name: /^Descrição/ }).fill(description);
    await tab.getByRole("textbox", { name: /^Título/ }).press("Enter");
    await toast(root, "Operação realizada com sucesso!").waitFor();
    const row = root.getByTestId("help-row").filter({ hasText: title });
    await row.getByText("dQw4w9WgXcQ").waitFor(); // the address was stored as its code
    expect(await tab.getByRole("textbox", { name: /^Título/ }).inputValue()).toBe(""); // the form is ready for the next one

    // An admin who is not super has no Ajuda tab.
    const other = await makeCompany();
    const plainAdmin = await newPage();
    await e2e.login(plainAdmin, other.admin.email, other.admin.password);
    await plainAdmin.goto(`${e2e.stack.url}/settings`);
    await plainAdmin.getByRole("tab", { name: "Opções" }).waitFor();
    expect(await plainAdmin.getByRole("tab", { name: "Ajuda" }).count()).toBe(0);

    // An agent of that other company: the help is platform-wide. Without YouTube (no network) the card keeps its texts.
    const agentOfOther = await makeUser(other.companyId, { name: "Agente Outra Empresa" });
    const page = await newPage();
    await page.route(/^https:\/\/(img|www)\.youtube\.com\//, (route) => route.abort());
    await e2e.login(page, agentOfOther.email, agentOfOther.password);
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Ajuda" }).click();
    const card = page.getByTestId("help-card").filter({ hasText: title });
    await card.getByText(description).waitFor();
    await card.getByTestId("help-thumb-fallback").waitFor();
    await card.click();
    const player = page.getByRole("dialog", { name: title });
    await player.waitFor();
    expect(await player.getByTestId("help-player").getAttribute("src")).toMatch(/^https:\/\/www\.youtube\.com\/embed\/dQw4w9WgXcQ\b/);
    await page.keyboard.press("Escape");
    await player.waitFor({ state: "hidden" });
    // Focus goes back to the card, so the keyboard opens it again.
    await page.keyboard.press("Enter");
    await player.waitFor();
    await page.keyboard.press("Escape");
    await player.waitFor({ state: "hidden" });
  }, TEST_MS);

  it("keeps an agent's to-do list in the browser: Enter adds, blank text is ignored, edits in place, deletes with undo, survives a reload", async () => {
    const { companyId } = await makeCompany();
    const user = await makeUser(companyId, { name: "Agente Organizada" });
    const page = await newPage();
    await e2e.login(page, user.email, user.password);
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Tarefas" }).click();
    await page.getByTestId("todo-empty").waitFor();
    const box = page.getByRole("textbox", { name: "Nova tarefa" });
    const items = page.getByTestId("todo-item");
    const texts = () => page.getByTestId("todo-text").allTextContents();

    await box.fill("Ligar para o cliente");
    await box.press("Enter");
    await items.first().waitFor();
    expect(await box.inputValue()).toBe("");
    await box.fill("   ");
    await box.press("Enter");
    await box.fill("Enviar proposta");
    await page.getByRole("button", { name: "Adicionar" }).click();
    await items.nth(1).waitFor();
    expect(await texts()).toEqual(["Ligar para o cliente", "Enviar proposta"]); // the blank one was ignored

    // Edit in place: Enter keeps the change; Escape and blank text leave the task as it was.
    await items.first().getByTestId("todo-edit").click();
    const edit = page.getByTestId("todo-edit-input");
    await edit.fill("Ligar para o cliente às 15h");
    await edit.press("Enter");
    await edit.waitFor({ state: "hidden" });
    await items.nth(1).getByTestId("todo-edit").click();
    await edit.fill("Não era isso");
    await edit.press("Escape");
    await edit.waitFor({ state: "hidden" });
    await items.nth(1).getByTestId("todo-edit").click();
    await edit.fill("  ");
    await edit.press("Enter");
    expect(await edit.isVisible()).toBe(true); // blank text is not saved
    await edit.press("Escape");
    expect(await texts()).toEqual(["Ligar para o cliente às 15h", "Enviar proposta"]);

    // Delete, undo puts it back in its place; delete again.
    await box.fill("Revisar contrato");
    await box.press("Enter");
    await items.nth(2).waitFor();
    await items.nth(1).getByTestId("todo-delete").click();
    await page.getByTestId("todo-undo").getByText("Tarefa excluída: Enviar proposta").waitFor();
    expect(await texts()).toEqual(["Ligar para o cliente às 15h", "Revisar contrato"]);
    await page.getByRole("button", { name: "Desfazer" }).click();
    expect(await texts()).toEqual(["Ligar para o cliente às 15h", "Enviar proposta", "Revisar contrato"]);
    await items.nth(2).getByTestId("todo-delete").click();
    expect(await texts()).toEqual(["Ligar para o cliente às 15h", "Enviar proposta"]);

    await page.reload();
    await items.nth(1).waitFor();
    expect(await texts()).toEqual(["Ligar para o cliente às 15h", "Enviar proposta"]);
    // Kept only in this browser, under this user.
    const stored = await page.evaluate((key) => localStorage.getItem(key), `todolist:${companyId}:${user.id}`);
    expect(JSON.parse(stored ?? "[]").map((x: { text: string }) => x.text)).toEqual(["Ligar para o cliente às 15h", "Enviar proposta"]);
  }, TEST_MS);
  it("lets an admin pay the invoice the tick made with the sandbox's Pix, and shows the renewal toast, the new due date and then /", async () => {
    const root = (await makeCompany({ adminSuper: true })).admin;
    const { companyId, admin: owner } = await makeCompany({ dueDate: null });
    // A super user sets the due date 10 days ahead (which puts the company's invoice timer); the minute tick makes the invoice.
    const due = new Date(Date.now() + 10 * 86_400_000);
    await e2e.http(root, "PUT", `/api/companies/${companyId}`, { dueDate: due.toISOString() });
    const { handler: tick } = await import("../../functions/src/jobs/tick.ts");
    await tick({ "detail-type": "Scheduled Event", time: new Date().toISOString() });

    const page = await newPage();
    await e2e.login(page, owner.email, owner.password);
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Financeiro" }).click();
    const row = page.getByTestId("invoice-row").first();
    await row.getByTestId("invoice-status").getByText("Em Aberto", { exact: true }).waitFor();
    const fmt = (d: Date) => `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
    expect(await row.getByTestId("invoice-due").textContent()).toBe(fmt(due));
    await row.getByRole("button", { name: "PAGAR" }).click();

    const checkout = page.getByRole("dialog", { name: "Checkout" });
    await checkout.getByRole("button", { name: "Próximo" }).click();
    await checkout.getByText("O nome completo é obrigatório").waitFor(); // step 1 needs its fields
    await checkout.getByRole("textbox", { name: /^Nome completo/ }).fill("Ana Souza");
    await checkout.getByRole("textbox", { name: /^Endereço/ }).fill("Rua das Flores, 10");
    await checkout.getByRole("textbox", { name: /^Cidade/ }).fill("Recife");
    await checkout.getByRole("textbox", { name: /^CEP/ }).fill("50000-000");
    await checkout.getByRole("button", { name: "Próximo" }).click();
    await checkout.getByTestId("checkout-plan").waitFor();
    await checkout.getByRole("button", { name: "Próximo" }).click();
    await checkout.getByTestId("checkout-review").getByText("Ana Souza").waitFor();
    await checkout.getByRole("button", { name: "PAGAR" }).click();

    await toast(page, "Assinatura realizada com sucesso!, aguardando a realização do pagamento").waitFor();
    const pix = page.getByRole("dialog", { name: "Pague com Pix" });
    await pix.getByTestId("pix-qr").locator("svg").waitFor();
    const code = await pix.getByRole("textbox", { name: "Pix copia e cola" }).inputValue();
    expect(code).toMatch(/^000201.*6304[0-9A-F]{4}$/);

    // The sandbox's test bank pays it: the confirmation comes through the Pix webhook.
    const bank = await newPage();
    await bank.goto(`${e2e.stack.url}/sandbox`);
    await bank.getByTestId("sandbox-pix-code").fill(code);
    await bank.getByRole("button", { name: "Pagar este Pix" }).click();
    await toast(bank, "Pix pago: a confirmação foi enviada.").waitFor();

    const renewed = addMonths(due, 1);
    await toast(page, `Sua licença foi renovada até ${fmt(renewed)}!`).waitFor();
    await page.waitForURL((u) => u.pathname === "/", { timeout: 10_000 });
    await page.goto(`${e2e.stack.url}/subscription`);
    await page.getByTestId("subscription-due").getByText(fmt(renewed)).waitFor();
    await page.goto(`${e2e.stack.url}/financeiro`);
    await page.getByTestId("invoice-row").first().getByTestId("invoice-status").getByText("Pago", { exact: true }).waitFor();
  }, TEST_MS);

  it("lets an admin register a webhook, copy its secret shown once, send a test event and see it delivered in the log", async () => {
    const got: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        got.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    try {
      const { admin: owner } = await makeCompany();
      const page = await newPage();
      await e2e.login(page, owner.email, owner.password);
      await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Webhooks" }).click();
      await page.getByRole("button", { name: "Adicionar" }).click();
      const dialog = page.getByRole("dialog", { name: "Adicionar webhook" });
      await dialog.getByRole("button", { name: "Salvar" }).click();
      await dialog.getByText("Escolha ao menos um evento").waitFor(); // nothing sent
      await dialog.getByRole("textbox", { name: /^Nome/ }).fill("CRM");
      await dialog.getByRole("textbox", { name: /^URL/ }).fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/atende`);
      await dialog.getByText("Ticket fechado").click();
      expect(await dialog.getByRole("checkbox", { name: "Ticket fechado" }).isChecked()).toBe(true);
      await dialog.getByRole("button", { name: "Salvar" }).click();
      await toast(page, "Webhook salvo com sucesso!").waitFor();
      const secretDialog = page.getByRole("dialog", { name: "Segredo do webhook" });
      const secret = await secretDialog.getByTestId("webhook-secret").inputValue();
      expect(secret).toMatch(/^whsec_/);
      await secretDialog.getByRole("button", { name: "Fechar" }).click();
      await secretDialog.waitFor({ state: "hidden" });
      const row = page.getByTestId("webhook-row").filter({ hasText: "CRM" });
      await row.getByText("1 evento(s)").waitFor();
      await row.getByText(`Segredo: …${secret.slice(-4)}`).waitFor(); // never the whole secret again

      await row.getByRole("button", { name: "Histórico de envios CRM" }).click();
      const log = page.getByRole("dialog", { name: "Histórico de envios: CRM" });
      await log.getByText("Nenhum envio ainda.").waitFor();
      await log.getByRole("button", { name: "Enviar evento de teste" }).click();
      const delivery = log.getByTestId("webhook-delivery").filter({ hasText: "Evento de teste" });
      await delivery.getByText("Entregue").waitFor({ timeout: 30_000 });
      await expect(delivery.getByTestId("webhook-delivery-attempts").textContent()).resolves.toBe("1");
      expect(got).toHaveLength(1);
      const ts = got[0].headers["x-atende-timestamp"];
      expect(got[0].headers["x-atende-signature"]).toBe(`v1=${createHmac("sha256", secret).update(`${ts}.${got[0].body}`).digest("hex")}`);
      expect(JSON.parse(got[0].body)).toMatchObject({ type: "webhook.test" });
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, TEST_MS);
});
