/**
 * Browser proof of the attendance loop (playwright-core + Debian chromium against the whole local stack in-process, with the
 * session runner on the simulated WhatsApp network):
 * - the whole loop: the admin creates a connection, watches the QR dialog, scans it from the sandbox phone page in a
 *   second tab (focus is not left on the 'Desconectar' that replaced the QR button; the disconnect confirmation says a
 *   new QR reconnects); the customer sends 'Olá' and an image, shown as a picture on the phone; the pending ticket
 *   appears without a reload; the admin accepts, answers, sees the answer's ticks; the sandbox phone shows the answer
 *   with its ticks; the admin reacts to the customer's message, replies to it (the phone shows the quote), the phone
 *   sends a contact card ('Enviar'), and the admin resolves the ticket;
 * - a non-admin who opens another queue's ticket sees 'Acesso não permitido' and lands on /tickets;
 * - the search tab finds a ticket by the contact's name;
 * - the waiting sub-tab's count is exact past the first page (42, no "+") and follows a new ticket and an accept live;
 * - earlier message pages load on scroll-up;
 * - a message edited and one deleted by the customer are shown as such;
 * - after a short day (two customers, one ticket accepted and closed) the admin lands on the dashboard at `/`:
 *   'Parametrize o filtro', then the cards, the attendants table with its stars and the two charts (per hour for one day);
 * - /reports: the attendances filtered by status, exported to .xlsx (the downloaded file read back with exceljs), a
 *   row's history opened read-only; the ticket area's Atendimentos tab lists the contact's earlier attendance and opens it.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { makeCompany, makeUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

const e2e = useBrowserStack("attendance");
const { newContext, newPage, login, http, until, connectedWhatsapp, customerSays, toast } = e2e;

/**
 * A fresh company whose new connection `connection` received one message from each of `customers` (`[number, name,
 * text]`): its admin and the pending tickets, once all of them are listed.
 */
async function companyWithPending(connection: string, customers: [string, string, string][]) {
  const { admin } = await makeCompany();
  const wid = await connectedWhatsapp(admin, connection);
  for (const [number, name, text] of customers) await customerSays(wid, number, name, text);
  const tickets = await until(async () => {
    const r = await http<{ tickets: { id: number; uuid: string }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true");
    return r.tickets.length === customers.length ? r.tickets : null;
  }, `${customers.length} pending tickets`);
  return { admin, tickets };
}

describe("attendance screens in the browser", () => {
  it("plays the whole loop: connection, QR, sandbox phone, pending ticket, accept, answer with ticks, reaction, resolve", async () => {
    const ctx = await newContext();
    const admin = await newPage(ctx);
    await login(admin, "admin@admin.com", "123456");

    // Create a connection and watch its QR dialog.
    await admin.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Conexões" }).click();
    await admin.getByTestId("add-connection").click();
    const dlg = admin.getByRole("dialog", { name: "Adicionar WhatsApp" });
    await dlg.getByTestId("save-connection").click();
    await dlg.getByText("Required").waitFor();
    await dlg.getByRole("textbox", { name: /^Nome/ }).fill("WhatsApp Vendas");
    await dlg.getByTestId("save-connection").click();
    await toast(admin, "Conexão salva com sucesso!").waitFor();
    const row = admin.getByTestId("connection-row").filter({ hasText: "WhatsApp Vendas" });
    const whatsappId = Number(await row.getAttribute("data-connection-id"));
    // The stack's first session: the runner picks up its start command and boots Baileys on the busy CI machine.
    await row.getByTestId("qr-button").click({ timeout: 90_000 });
    const qrDialog = admin.getByRole("dialog", { name: "Leia o QR Code para iniciar a sessão" });
    await qrDialog.locator("[data-testid=qr-box] svg").waitFor();
    const qr = await qrDialog.getByTestId("qr-box").getAttribute("data-qr");
    expect(qr).toMatch(/2@[^,]+,/); // the pairing data Baileys renders as the QR

    // Scan it from the sandbox phone in a second tab.
    const phone = await newPage(ctx);
    await phone.goto(`${e2e.stack.url}/sandbox?whatsappId=${whatsappId}&number=5511987654321&name=Joana%20Cliente`);
    await phone.getByTestId("sandbox-scan").click();
    await phone.locator("[data-testid=sandbox-state][data-open=true]").waitFor();
    await qrDialog.waitFor({ state: "hidden" }); // the QR emptied: the dialog closed itself
    await row.locator("[data-testid=connection-status][data-status=CONNECTED]").waitFor();
    // The button that opened the QR gave way to "Desconectar": focus is back on the page, not on it (Enter would disconnect).
    await until(() => admin.evaluate(() => document.activeElement?.id === "main"), "focus back on the page, not on Desconectar");
    // The disconnect confirmation says what happens and how to reconnect; "Não" leaves the session and the focus.
    const disconnect = row.getByRole("button", { name: "Desconectar" });
    await disconnect.click();
    const confirm = admin.getByRole("dialog", { name: "Desconectar" });
    await confirm.getByText("A sessão do WhatsApp desta conexão será encerrada e as mensagens deixarão de chegar. Para reconectar, use “Novo QR CODE” e leia o código com o celular.").waitFor();
    await confirm.getByRole("button", { name: "Não" }).click();
    await confirm.waitFor({ state: "hidden" });
    await until(() => disconnect.evaluate((el) => el === document.activeElement), "focus back on Desconectar, which opened the confirmation");

    // The admin watches the pending tab while the customer writes.
    await admin.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Atendimentos" }).click();
    await admin.getByTestId("subtab-pending").click();
    await admin.getByText("Nenhum atendimento encontrado.").waitFor();
    await phone.getByTestId("phone-input").fill("Olá");
    await phone.getByTestId("phone-send").click();
    await phone.getByTestId("phone-mine").filter({ hasText: "Olá" }).waitFor();
    await phone.getByTestId("phone-file").setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: PNG });
    await phone.locator("[data-testid=phone-mine][data-kind=image]").waitFor();
    // The phone shows the picture itself (decoded), not the word "Imagem".
    const picture = phone.locator("[data-testid=phone-mine][data-kind=image] img[data-testid=phone-picture]");
    await until(() => picture.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 1), "the phone's picture decoded");

    const ticketRow = admin.getByTestId("ticket-row").filter({ hasText: "Joana Cliente" });
    await ticketRow.waitFor(); // no reload: the realtime event put it there
    expect(await ticketRow.getAttribute("data-status")).toBe("pending");
    await ticketRow.getByTestId("accept").click();

    const conv = admin.getByTestId("conversation");
    await conv.getByTestId("message").filter({ hasText: "Olá" }).waitFor();
    await conv.locator("[data-testid=message] img").first().waitFor();
    await admin.getByTestId("subtab-open").click();
    await admin.getByTestId("ticket-row").filter({ hasText: "Joana Cliente" }).waitFor();

    // Answer; the answer reaches the phone, which confirms delivery and reading: both sides show the ticks.
    const box = conv.getByRole("textbox", { name: "Digite uma mensagem" });
    await box.fill("Bom dia! Como posso ajudar?");
    await box.press("Enter");
    const answer = conv.getByTestId("message").filter({ hasText: "Bom dia! Como posso ajudar?" });
    await answer.waitFor();
    const agentOnPhone = phone.getByTestId("phone-agent").filter({ hasText: "Bom dia! Como posso ajudar?" });
    await agentOnPhone.waitFor();
    await agentOnPhone.locator("[data-testid=phone-ticks][data-status='4']").waitFor();
    await answer.locator("[data-testid=ticks][data-ack='4']").waitFor();
    // The signature goes out as WhatsApp bold (`*Name:*`), and both sides show it bold, not with asterisks.
    await expect(answer.locator("strong").first().innerText()).resolves.toMatch(/^[^*]+:$/);
    await expect(agentOnPhone.locator("strong").first().innerText()).resolves.toMatch(/^[^*]+:$/);

    // React to the customer's message.
    const hello = conv.getByTestId("message").filter({ hasText: "Olá" }).first();
    await hello.hover();
    await hello.getByRole("button", { name: "Opções da mensagem" }).click();
    await admin.getByRole("menuitem", { name: "Reagir 👍" }).click(); // the menu opens in a portal
    await hello.getByTestId("reactions").getByText("👍").waitFor();
    await phone.getByTestId("phone-mine").filter({ hasText: "Olá" }).getByTestId("phone-reactions").getByText("👍").waitFor();

    // Reply to it: the phone shows the answer under the quote of the customer's own message.
    await hello.hover();
    await hello.getByRole("button", { name: "Opções da mensagem" }).click();
    await admin.getByRole("menuitem", { name: "Responder" }).click();
    await box.fill("Respondendo ao seu olá");
    await box.press("Enter");
    const reply = phone.getByTestId("phone-agent").filter({ hasText: "Respondendo ao seu olá" });
    await reply.waitFor();
    await expect(reply.getByTestId("phone-quoted").innerText()).resolves.toMatch(/^Você\s+Olá$/);

    // The phone's contact card goes out with "Enviar".
    await phone.getByTestId("phone-vcard").click();
    const card = phone.getByRole("dialog", { name: "Enviar contato" });
    await card.getByRole("button", { name: "Enviar", exact: true }).click();
    await toast(phone, "Contato enviado.").waitFor();
    await conv.getByTestId("message").filter({ hasText: "Maria Souza" }).waitFor();

    // Resolve.
    await conv.getByRole("button", { name: "Resolver" }).click();
    await admin.waitForURL(`${e2e.stack.url}/tickets`);
    await admin.getByTestId("tab-closed").click();
    await admin.getByTestId("ticket-row").filter({ hasText: "Joana Cliente" }).waitFor();
    expect(await admin.getByTestId("ticket-row").filter({ hasText: "Joana Cliente" }).getAttribute("data-status")).toBe("closed");
  }, TEST_MS);

  it("sends a non-admin who opens another queue's ticket back to /tickets with 'Acesso não permitido'", async () => {
    const { companyId, admin } = await makeCompany();
    const qa = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Fila A", color: "#1e88e5", greetingMessage: "" });
    const qb = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Fila B", color: "#e53935", greetingMessage: "" });
    const wid = await connectedWhatsapp(admin, "Conexão B", [qb.id]);
    await customerSays(wid, "5511911112222", "Cliente Fila B", "Preciso de ajuda");
    const list = await until(async () => {
      const r = await http<{ tickets: { id: number; uuid: string; queueId: number | null }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true");
      return r.tickets.length ? r.tickets : null;
    }, "the pending ticket");
    if (list[0].queueId !== qb.id) await http(admin, "PUT", `/api/tickets/${list[0].id}`, { queueId: qb.id, userId: null, status: "pending" });
    const agent = await makeUser(companyId, { queueIds: [qa.id], name: "Agente A" });

    const page = await newPage();
    await login(page, agent.email, agent.password);
    await page.goto(`${e2e.stack.url}/tickets/${list[0].uuid}`);
    await toast(page, "Acesso não permitido").waitFor();
    await page.waitForURL(`${e2e.stack.url}/tickets`);
    await expect(page.getByTestId("conversation").count()).resolves.toBe(0);
  }, TEST_MS);

  it("finds a ticket by the contact's name in the search tab", async () => {
    const { admin } = await companyWithPending("Conexão Busca", [
      ["5511933334444", "Rosa Pesquisada", "Oi, tudo bem?"],
      ["5511955556666", "Outro Cliente", "Bom dia"],
    ]);

    const page = await newPage();
    await login(page, admin.email, admin.password);
    await page.goto(`${e2e.stack.url}/tickets`);
    await page.getByTestId("tab-search").click();
    const search = page.getByTestId("ticket-search");
    await search.fill("Ro");
    await page.getByText("Digite pelo menos 3 caracteres.").waitFor();
    await search.fill("Rosa");
    await page.getByTestId("ticket-row").filter({ hasText: "Rosa Pesquisada" }).waitFor();
    await expect(page.getByTestId("ticket-row").count()).resolves.toBe(1);
  }, TEST_MS);

  it("shows the exact waiting count past the first page of tickets, and keeps it live", async () => {
    const { companyId, admin } = await makeCompany();
    const wid = await connectedWhatsapp(admin, "Conexão Contagem");
    // Another admin acts through the API while the first one watches (one login per user: the browser's replaces the API's).
    const colleague = await makeUser(companyId, { profile: "admin", name: "Colega" });
    const counted = (n: number) => until(async () => (await http<{ pending: number }>(admin, "GET", "/api/tickets/counts?showAll=true")).pending === n, `${n} waiting`);
    for (let i = 0; i < 42; i += 6) {
      await Promise.all(Array.from({ length: Math.min(6, 42 - i) }, (_, k) => customerSays(wid, `55119444${String(i + k).padStart(5, "0")}`, `Cliente ${i + k}`, "Olá")));
    }
    await counted(42);

    const page = await newPage();
    await login(page, admin.email, admin.password);
    await page.goto(`${e2e.stack.url}/tickets`);
    await page.getByTestId("subtab-pending").click();
    // The list shows 40 rows a page; the count is the tab's whole, with no "+".
    await until(async () => (await page.getByTestId("count-pending").textContent()) === "42", "the exact count 42");
    await expect(page.getByTestId("count-open").textContent()).resolves.toBe("0");
    // A new customer and an accept elsewhere move the counts without a reload.
    await customerSays(wid, "5511944499999", "Cliente novo", "Oi");
    await until(async () => (await page.getByTestId("count-pending").textContent()) === "43", "the count 43, live");
    const first = (await http<{ tickets: { id: number }[] }>(colleague, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0];
    await http(colleague, "PUT", `/api/tickets/${first.id}`, { status: "open", userId: admin.id }); // handed to the watching admin
    await until(async () => (await page.getByTestId("count-pending").textContent()) === "42" && (await page.getByTestId("count-open").textContent()) === "1", "42 waiting and 1 in conversation, live");
  }, TEST_MS);

  it("loads earlier messages when the conversation is scrolled to the top, keeping the reader's place", async () => {
    const { admin } = await makeCompany();
    const wid = await connectedWhatsapp(admin, "Conexão Histórico");
    for (let i = 1; i <= 45; i++) await customerSays(wid, "5511977778888", "Cliente Antigo", `Mensagem ${String(i).padStart(2, "0")}`);
    const ticket = await until(async () => (await http<{ tickets: { uuid: string }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "the ticket");

    const page = await newPage();
    await login(page, admin.email, admin.password);
    await page.goto(`${e2e.stack.url}/tickets/${ticket.uuid}`);
    const list = page.getByTestId("message-list");
    await list.getByTestId("message").filter({ hasText: "Mensagem 45" }).waitFor();
    const before = await list.getByTestId("message").count();
    expect(before).toBeLessThan(45);
    await expect(list.getByTestId("message").filter({ hasText: "Mensagem 01" }).count()).resolves.toBe(0);

    const firstVisible = await list.getByTestId("message").first().getAttribute("data-message-id");
    await list.evaluate((el) => (el.scrollTop = 0));
    await until(async () => (await list.getByTestId("message").count()) > before, "an earlier page");
    // The message that was at the top is still in view: the list did not jump to the new top.
    const pos = await page.evaluate((id) => {
      const el = document.getElementById(`msg-${id}`)!;
      const box = document.querySelector("[data-testid=message-list]")!.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return { top: r.top - box.top, height: box.height };
    }, firstVisible);
    expect(pos.top).toBeGreaterThanOrEqual(-5);
    expect(pos.top).toBeLessThan(pos.height);
    for (let i = 0; i < 5 && (await list.getByTestId("message").filter({ hasText: "Mensagem 01" }).count()) === 0; i++) {
      await list.evaluate((el) => (el.scrollTop = 0));
      await page.waitForTimeout(300);
    }
    await list.getByTestId("message").filter({ hasText: "Mensagem 01" }).waitFor();
  }, TEST_MS);

  it("shows a message the customer edited as edited and one the customer deleted as deleted", async () => {
    const { admin } = await makeCompany();
    const wid = await connectedWhatsapp(admin, "Conexão Edição");
    const ctx = await newContext();
    const agent = await newPage(ctx);
    await login(agent, admin.email, admin.password);
    const phone = await newPage(ctx);
    await phone.goto(`${e2e.stack.url}/sandbox?whatsappId=${wid}&number=5511966665555&name=Paulo%20Cliente`);
    await phone.locator("[data-testid=sandbox-state][data-open=true]").waitFor();
    await phone.getByTestId("phone-input").fill("Quero 2 pizzas");
    await phone.getByTestId("phone-send").click();
    await phone.getByTestId("phone-mine").filter({ hasText: "Quero 2 pizzas" }).waitFor();
    await phone.getByTestId("phone-input").fill("Mensagem errada");
    await phone.getByTestId("phone-send").click();
    await phone.getByTestId("phone-mine").filter({ hasText: "Mensagem errada" }).waitFor();

    // The browser login revoked the API token (single login), so the agent finds the ticket on screen.
    await agent.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Atendimentos" }).click();
    await agent.getByTestId("subtab-pending").click();
    await agent.getByTestId("ticket-row").filter({ hasText: "Paulo Cliente" }).click();
    const conv = agent.getByTestId("conversation");
    await conv.getByTestId("message").filter({ hasText: "Mensagem errada" }).waitFor();

    await phone.getByTestId("phone-mine").filter({ hasText: "Quero 2 pizzas" }).getByTestId("phone-edit").click();
    const editDialog = phone.getByRole("dialog", { name: "Editar mensagem" });
    await editDialog.getByRole("textbox", { name: /Novo texto da mensagem/ }).fill("Quero 3 pizzas");
    await editDialog.getByTestId("phone-edit-save").click();
    await editDialog.waitFor({ state: "hidden" });
    await phone.getByTestId("phone-mine").filter({ hasText: "Mensagem errada" }).getByTestId("phone-delete").click();

    const edited = conv.getByTestId("message").filter({ hasText: "Quero 3 pizzas" });
    await edited.getByTestId("message-edited").waitFor();
    await conv.getByTestId("message-deleted").getByText("Esta mensagem foi apagada").waitFor();
    await expect(conv.getByTestId("message").filter({ hasText: "Mensagem errada" }).count()).resolves.toBe(0);
  }, TEST_MS);
  it("shows the admin the day on the dashboard at / after the filter: cards, attendants table and charts", async () => {
    const { admin, tickets: pending } = await companyWithPending("Conexão Painel", [
      ["5511944441111", "Cliente Um", "Olá"],
      ["5511944442222", "Cliente Dois", "Bom dia"],
    ]);
    await http(admin, "PUT", `/api/tickets/${pending[0].id}`, { status: "open", userId: admin.id });
    await http(admin, "PUT", `/api/tickets/${pending[0].id}`, { status: "closed", justClose: true });
    await until(async () => (await http<{ counters: { supportFinished: number } }>(admin, "GET", "/api/dashboard?days=7")).counters.supportFinished === 1, "the close counted");

    const page = await newPage();
    await login(page, admin.email, admin.password);
    await page.getByText("Parametrize o filtro").waitFor(); // an admin lands on the dashboard
    await page.getByLabel("Período", { exact: true }).selectOption({ label: "Últimos 7 dias" });
    await page.getByRole("button", { name: "Filtrar" }).click();
    const card = (key: string) => page.getByTestId(`card-${key}`);
    await expect(card("supportPending").textContent()).resolves.toContain("1");
    await expect(card("supportFinished").textContent()).resolves.toContain("1");
    await expect(card("newContacts").textContent()).resolves.toContain("2");
    await expect(card("avgWaitTime").textContent()).resolves.toMatch(/\dh \d+m/);
    await expect(card("totalCompanies").count()).resolves.toBe(0); // super users only
    const row = page.getByTestId("attendants").getByRole("row").filter({ hasText: "Admin" });
    await expect(row.getByRole("img", { name: "Nota 0 de 3" }).getAttribute("title")).resolves.toBe("1 - Insatisfeito, 2 - Satisfeito, 3 - Muito Satisfeito");
    const users = page.getByRole("region", { name: "Conversas por usuário" });
    await users.getByText("Total: 1").waitFor();
    await users.locator(".recharts-bar-rectangle").first().waitFor();
    const days = page.getByRole("region", { name: "Tickets por dia" });
    await days.getByText("Total: 2").waitFor();

    // One day: the chart is per hour.
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    await page.getByText("Filtro por data").click();
    await page.getByLabel("Data inicial").fill(today);
    await page.getByLabel("Data final").fill(today);
    await page.getByRole("button", { name: "Filtrar" }).click();
    const hours = page.getByRole("region", { name: "Tickets por hora" });
    await hours.getByText("Total: 2").waitFor();
    await hours.locator(".recharts-bar-rectangle").first().waitFor();

    // Screenshots (only with SCREENSHOTS_DIR): light and dark at 1440 and 375 px, the last 7 days filtered.
    const shots = process.env.SCREENSHOTS_DIR;
    if (shots) {
      for (const scheme of ["light", "dark"] as const) {
        for (const [w, h] of [[1440, 900], [375, 812]] as const) {
          await page.evaluate(() => localStorage.removeItem("theme"));
          await page.emulateMedia({ colorScheme: scheme });
          await page.setViewportSize({ width: w, height: h });
          await page.goto(`${e2e.stack.url}/`);
          await page.getByLabel("Período", { exact: true }).selectOption({ label: "Últimos 7 dias" });
          await page.getByRole("button", { name: "Filtrar" }).click();
          await page.getByRole("region", { name: "Tickets por dia" }).locator(".recharts-bar-rectangle").first().waitFor();
          await page.waitForTimeout(400);
          await page.screenshot({ path: `${shots}/dashboard-${scheme}-${w}.png`, fullPage: true });
        }
      }
    }
  }, TEST_MS);

  it("lists attendances on /reports, filters them, exports them to .xlsx and opens a history; the Atendimentos tab lists the contact's earlier one", async () => {
    const { admin } = await makeCompany();
    const wid = await connectedWhatsapp(admin, "Conexão Relatório");
    await customerSays(wid, "5511955551111", "Cliente Relatório", "Quero o boleto");
    await customerSays(wid, "5511955552222", "Cliente Dois", "Bom dia");
    const pending = await until(async () => {
      const r = await http<{ tickets: { id: number; contact: { name: string } }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true");
      return r.tickets.length === 2 ? r.tickets : null;
    }, "two pending tickets");
    for (const t of pending) {
      await http(admin, "PUT", `/api/tickets/${t.id}`, { status: "open", userId: admin.id });
      await http(admin, "PUT", `/api/tickets/${t.id}`, { status: "closed", justClose: true });
    }
    const first = pending.find((t) => t.contact.name === "Cliente Relatório")!;
    // The customer comes back: a new ticket, accepted.
    await customerSays(wid, "5511955551111", "Cliente Relatório", "Voltei");
    const again = await until(async () => (await http<{ tickets: { id: number; uuid: string }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "the new ticket");
    await http(admin, "PUT", `/api/tickets/${again.id}`, { status: "open", userId: admin.id });

    const page = await newPage();
    await login(page, admin.email, admin.password);
    await page.getByRole("link", { name: "Relatórios" }).click();
    await page.waitForURL(/\/reports$/);
    const rows = page.getByTestId("report-row");
    await until(async () => (await rows.count()) === 3, "three attendances listed");
    await page.getByLabel("Status").selectOption({ label: "Finalizado" });
    await page.getByTestId("report-filter").click();
    await until(async () => (await rows.count()) === 2, "the two finished attendances");

    // Export the filtered report: the downloaded .xlsx holds exactly its rows.
    const download = page.waitForEvent("download");
    await page.getByTestId("report-export-xlsx").click();
    const file = await (await download).path();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const sheet = wb.getWorksheet("Atendimentos")!;
    const exported: string[][] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) exported.push([String(row.getCell(2).value), String(row.getCell(3).value)]);
    });
    expect(exported.sort()).toEqual([["Finalizado", "Cliente Dois"], ["Finalizado", "Cliente Relatório"]]);
    await page.getByTestId("job-progress").and(page.locator("[data-status=done]")).waitFor();

    // A row opens the ticket's history, read-only.
    await rows.filter({ hasText: "Cliente Relatório" }).click();
    const dialog = page.getByRole("dialog", { name: `Histórico do ticket ${first.id}` });
    await dialog.getByText("Quero o boleto").waitFor();
    await expect(dialog.getByRole("textbox").count()).resolves.toBe(0);
    await expect(dialog.getByTestId("message-options").count()).resolves.toBe(0);
    await dialog.getByRole("button", { name: "Fechar" }).click();

    // The Atendimentos tab of the new ticket lists the earlier one, openable.
    await page.goto(`${e2e.stack.url}/tickets/${again.uuid}`);
    await page.getByTestId("ticket-tab-attendances").click();
    const attendance = page.getByTestId("attendance").and(page.locator(`[data-ticket-id="${first.id}"]`));
    await attendance.waitFor();
    await attendance.getByRole("button").click();
    await page.getByRole("dialog", { name: `Histórico do ticket ${first.id}` }).getByText("Quero o boleto").waitFor();

    // Screenshots (only with SCREENSHOTS_DIR): /reports and the Atendimentos tab, light and dark at 1440 and 375 px.
    const shots = process.env.SCREENSHOTS_DIR;
    if (shots) {
      for (const scheme of ["light", "dark"] as const) {
        for (const [w, h] of [[1440, 900], [375, 812]] as const) {
          await page.evaluate(() => localStorage.removeItem("theme"));
          await page.emulateMedia({ colorScheme: scheme });
          await page.setViewportSize({ width: w, height: h });
          await page.goto(`${e2e.stack.url}/reports`);
          await until(async () => (await rows.count()) === 3, "rows");
          await page.waitForTimeout(400);
          await page.screenshot({ path: `${shots}/reports-${scheme}-${w}.png`, fullPage: true });
          await page.locator(`[data-testid="report-row"][data-ticket-id="${first.id}"]`).first().click();
          await page.getByRole("dialog").getByText("Quero o boleto").waitFor();
          await page.screenshot({ path: `${shots}/reports-history-${scheme}-${w}.png` });
          await page.goto(`${e2e.stack.url}/tickets/${again.uuid}`);
          await page.getByTestId("ticket-tab-attendances").click();
          await attendance.waitFor();
          await page.waitForTimeout(300);
          await page.screenshot({ path: `${shots}/attendances-${scheme}-${w}.png` });
        }
      }
    }
  }, process.env.SCREENSHOTS_DIR ? 3 * TEST_MS : TEST_MS);
});
