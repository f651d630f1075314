/**
 * Browser proof of the ticket list and the conversation (playwright-core + Debian chromium against the
 * whole local stack in-process):
 * - the browser tab's title carries the unread count ("(2) Atende");
 * - accepting from "Aguardando" shows "Atendendo" with the accepted ticket selected;
 * - the message menu works from the keyboard (arrows move between items); deleting the newest message turns the
 *   ticket row's preview into "Esta mensagem foi apagada", live and after a reload;
 * - editing a signed message keeps the signature; in the edit dialog Shift+Enter breaks the line and Enter saves;
 * - Escape closes the contact drawer;
 * - a customer's new ticket after a close shows the earlier ticket's messages above, under "Atendimento #<id>";
 * - the new-ticket contact search chooses with ArrowDown and Enter; an admin in no queue is offered the company's queues;
 * - the options chevron sits beside the bubble, never over its content;
 * - at 375 px the conversation's actions keep one row (the rest in "Mais ações") and the composer's placeholder one line;
 * - the transfer dialog needs a change before it transfers and offers the chosen queue's users only; forwarding to a
 *   contact whose open ticket is in another agent's queue keeps the dialog open and says where, who and what to do.
 * With `SCREENS_DIR=<dir>` it also saves screenshots of the list and the conversation (light, dark; 1440 and 375 px).
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeCompany, makeUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("conversation");
const { newContext, newPage, login, http, until, connectedWhatsapp, customerSays } = e2e;

const row = (page: Page, contact: string) => page.getByTestId("ticket-row").filter({ hasText: contact });
/** The accessible name of the focused element (the highlighted menu item follows focus in a Radix menu). */
const focusedText = (page: Page) => page.evaluate(() => (document.activeElement?.getAttribute("aria-label") || document.activeElement?.textContent || "").trim());
/** Waits until focus is inside the open menu (the menu moves it there a frame after it opens; later on a loaded machine). */
const focusInMenu = (page: Page) => expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="menu"]'))).toBe(true);
/** Presses `key` and waits until focus has left the item it was on. */
async function moveFocus(page: Page, key: string): Promise<string> {
  const before = await focusedText(page);
  await page.keyboard.press(key);
  await expect.poll(() => focusedText(page)).not.toBe(before);
  return focusedText(page);
}

/** With `SCREENS_DIR`: the page in light and dark (the app's own theme choice, then a reload), at 1440 and 375 px. */
async function screens(page: Page, name: string) {
  const dir = process.env.SCREENS_DIR;
  if (!dir) return;
  const settle = async () => {
    await page.locator("[data-testid=ticket-list], [data-testid=message]").first().waitFor({ state: "attached" });
    await page.waitForTimeout(600);
  };
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await settle();
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${dir}/${name}-${theme}-${width}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }
  await page.evaluate(() => localStorage.setItem("theme", "light"));
  await page.reload();
  await settle();
}

describe("the conversation and the ticket list in the browser", () => {
  it("keeps the list, the previews, the keyboard and the narrow layout right through a day's work", async () => {
    const { admin } = await makeCompany();
    await http(admin, "POST", "/api/queue", { name: "Fila Vendas", color: "#1e88e5", greetingMessage: "" }); // the admin is in no queue
    const wid = await connectedWhatsapp(admin, "Conexão Conversa");
    // Carla wrote before: her first ticket was answered and closed; now she writes again (a new ticket).
    await customerSays(wid, "5511944440001", "Carla Retorno", "Primeiro contato: meu pedido 4521 atrasou");
    const first = await until(async () => (await http<{ tickets: { id: number }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "Carla's first ticket");
    await http(admin, "PUT", `/api/tickets/${first.id}`, { status: "open", userId: admin.id });
    await http(admin, "POST", `/api/messages/${first.id}`, { body: "Já verifiquei, chega amanhã." });
    await http(admin, "PUT", `/api/tickets/${first.id}`, { status: "closed" });
    await customerSays(wid, "5511944440001", "Carla Retorno", "Voltei: chegou errado");
    await customerSays(wid, "5511944440002", "Alice Nova", "Oi, preciso de ajuda");
    await until(async () => (await http<{ tickets: unknown[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets.length === 2, "two pending tickets");

    const page = await newPage(await newContext());
    await login(page, admin.email, admin.password);

    // The tab's title counts the tickets with unread messages.
    await until(async () => (await page.title()) === "(2) Atende", "the title (2) Atende");

    // Accepting from "Aguardando" lands on "Atendendo" with the ticket selected.
    await page.goto(`${e2e.stack.url}/tickets`);
    await page.getByTestId("subtab-pending").click();
    await row(page, "Alice Nova").getByTestId("accept").click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    await page.locator("[data-testid=subtab-open][aria-selected=true]").waitFor();
    await row(page, "Alice Nova").locator("a[aria-current=page]").waitFor();
    const conv = page.getByTestId("conversation");
    await conv.getByTestId("message").filter({ hasText: "Oi, preciso de ajuda" }).waitFor();
    await until(async () => (await page.title()) === "(1) Atende", "the title (1) Atende once Alice's ticket is read");

    // The options chevron sits beside the bubble, not over it.
    const hello = conv.getByTestId("message").filter({ hasText: "Oi, preciso de ajuda" });
    const bubble = await hello.locator(".bubble").boundingBox();
    const chevron = await hello.getByTestId("message-options").boundingBox();
    expect(bubble && chevron).toBeTruthy();
    expect(chevron!.x).toBeGreaterThanOrEqual(bubble!.x + bubble!.width); // a customer's bubble: the chevron on its right

    // Send, then delete it from the keyboard: the row's preview says the message was deleted, live and after a reload.
    const box = conv.getByRole("textbox", { name: "Digite uma mensagem" });
    await box.fill("Mensagem errada");
    await box.press("Enter");
    const wrong = conv.getByTestId("message").filter({ hasText: "Mensagem errada" });
    await wrong.waitFor();
    await row(page, "Alice Nova").getByTestId("ticket-preview").getByText("Mensagem errada").waitFor();
    await wrong.getByTestId("message-options").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    await focusInMenu(page);
    const firstItem = await focusedText(page);
    await moveFocus(page, "ArrowDown"); // arrows move between the menu's items
    await expect(moveFocus(page, "ArrowUp")).resolves.toBe(firstItem);
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    await expect(page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).resolves.toBe("message-options");
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    await focusInMenu(page);
    for (let i = 0; i < 12 && (await focusedText(page)) !== "Apagar"; i++) await moveFocus(page, "ArrowDown");
    await expect(focusedText(page)).resolves.toBe("Apagar");
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").getByRole("button", { name: "Sim" }).click();
    await conv.getByTestId("message-deleted").getByText("Esta mensagem foi apagada").waitFor();
    const preview = row(page, "Alice Nova").getByTestId("ticket-preview");
    await preview.getByText("Esta mensagem foi apagada").waitFor();
    await page.reload();
    await row(page, "Alice Nova").getByTestId("ticket-preview").getByText("Esta mensagem foi apagada").waitFor();
    await expect(row(page, "Alice Nova").getByTestId("ticket-preview").innerText()).resolves.not.toContain("Mensagem errada");
    await screens(page, "deleted-preview");

    // Edit a signed message: the signature stays; Shift+Enter breaks the line, Enter saves.
    await box.fill("Olá! Tudo bem?");
    await box.press("Enter");
    const signed = conv.getByTestId("message").filter({ hasText: "Olá! Tudo bem?" });
    await signed.waitFor();
    const signature = await signed.locator("strong").first().innerText();
    expect(signature).toMatch(/^[^*]+:$/);
    await signed.hover();
    await signed.getByTestId("message-options").click();
    await page.getByRole("menuitem", { name: "Editar" }).click();
    const edit = page.getByRole("dialog", { name: "Editar mensagem" });
    const text = edit.getByRole("textbox", { name: "Editar mensagem" });
    await expect(text.inputValue()).resolves.toBe("Olá! Tudo bem?"); // the signature is not in the box
    await text.fill("Olá!");
    await text.press("Shift+Enter");
    await text.pressSequentially("Como posso ajudar?");
    await expect(text.inputValue()).resolves.toBe("Olá!\nComo posso ajudar?");
    await text.press("Enter");
    await edit.waitFor({ state: "hidden" });
    const edited = conv.getByTestId("message").filter({ hasText: "Como posso ajudar?" });
    await edited.getByTestId("message-edited").waitFor();
    await expect(edited.locator("strong").first().innerText()).resolves.toBe(signature);

    // Escape closes the contact drawer; focus returns to the contact button.
    await conv.getByRole("button", { name: "Dados do contato" }).click();
    const drawer = page.getByTestId("contact-drawer");
    await drawer.waitFor();
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    await expect(page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).resolves.toBe("Dados do contato");

    // At 375 px: one row of actions (the rest behind "Mais ações"), a one-line composer placeholder.
    await page.setViewportSize({ width: 375, height: 812 });
    const actions = conv.getByTestId("conversation-actions");
    await conv.getByRole("button", { name: "Mais ações" }).waitFor();
    await conv.getByRole("button", { name: "Resolver" }).waitFor();
    await expect(conv.getByRole("button", { name: "Transferir" }).count()).resolves.toBe(0);
    const header = await conv.locator(".conv-header").boundingBox();
    // One row: every action overlaps every other vertically.
    const rects = await actions.evaluate((el) => [...el.children].map((c) => ({ top: c.getBoundingClientRect().top, bottom: c.getBoundingClientRect().bottom })));
    expect(rects.length).toBe(2);
    expect(Math.max(...rects.map((r) => r.top))).toBeLessThan(Math.min(...rects.map((r) => r.bottom)));
    expect(header!.height).toBeLessThan(64);
    await expect(box.evaluate((el) => getComputedStyle(el, "::placeholder").whiteSpace)).resolves.toBe("nowrap");
    await expect(box.evaluate((el) => el.getBoundingClientRect().height)).resolves.toBeLessThan(48);
    await conv.getByRole("button", { name: "Mais ações" }).click();
    await expect(page.getByRole("menuitem").allInnerTexts()).resolves.toEqual(["Devolver", "Transferir", "Excluir"]);
    await page.keyboard.press("Escape");
    await page.setViewportSize({ width: 1440, height: 900 });

    // Carla's new ticket shows her earlier ticket above, marked by ticket.
    await page.goto(`${e2e.stack.url}/tickets`);
    await page.getByTestId("subtab-pending").click();
    await row(page, "Carla Retorno").getByRole("link").click();
    const list = page.getByTestId("message-list");
    await list.getByTestId("message").filter({ hasText: "Voltei: chegou errado" }).waitFor();
    await list.getByTestId("message").filter({ hasText: "Primeiro contato: meu pedido 4521 atrasou" }).waitFor();
    await list.getByTestId("message").filter({ hasText: "Já verifiquei, chega amanhã." }).waitFor();
    await list.locator(`[data-testid=ticket-divider][data-ticket-id='${first.id}']`).getByText(`Atendimento #${first.id}`).waitFor();
    const order = await list.locator("[data-testid=message], [data-testid=ticket-divider]").allInnerTexts();
    const at = (s: string) => order.findIndex((x) => x.includes(s));
    expect(at(`Atendimento #${first.id}`)).toBeLessThan(at("Primeiro contato"));
    expect(at("Já verifiquei")).toBeLessThan(at("Voltei: chegou errado"));
    await screens(page, "earlier-conversation");

    // The new-ticket contact search: ArrowDown and Enter choose.
    await page.goto(`${e2e.stack.url}/tickets`);
    await screens(page, "ticket-list");
    await page.getByTestId("new-ticket").click();
    const dlg = page.getByRole("dialog", { name: "Novo atendimento" });
    const search = dlg.getByRole("combobox", { name: "Contato" });
    await search.fill("Carla");
    await dlg.getByRole("option", { name: /Carla Retorno/ }).waitFor();
    await search.press("ArrowDown");
    await search.press("Enter");
    await dlg.locator(".picked-row").getByText("Carla Retorno").waitFor();
    await expect(dlg.isVisible()).resolves.toBe(true); // Enter chose the contact; it did not submit the dialog
    // An admin in no queue is offered the company's queues.
    await dlg.getByRole("combobox", { name: "Fila" }).click();
    await dlg.getByRole("option", { name: "Fila Vendas" }).waitFor();
    await dlg.getByRole("button", { name: "Cancelar" }).click();
  }, process.env.SCREENS_DIR ? TEST_MS * 3 : TEST_MS); // screenshots reload the page in each theme

  it("transfers only on a change, to the chosen queue's users, and explains a forward into another agent's queue", async () => {
    const { admin, companyId } = await makeCompany();
    const vendas = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Fila Vendas", color: "#1e88e5", greetingMessage: "" });
    const suporte = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Fila Suporte", color: "#43a047", greetingMessage: "" });
    const ana = await makeUser(companyId, { queueIds: [vendas.id], name: "Ana Vendas" });
    const bia = await makeUser(companyId, { queueIds: [suporte.id], name: "Bia Suporte" });
    await makeUser(companyId, { queueIds: [vendas.id], name: "Caio Vendas" });
    const wid = await connectedWhatsapp(admin, "Conexão Transferência");
    await customerSays(wid, "5511933330001", "Davi Cliente", "Quero trocar o produto");
    await customerSays(wid, "5511933330002", "Eva Suporte", "Meu aparelho não liga");
    const pending = await until(async () => {
      const list = (await http<{ tickets: { id: number; uuid: string; contact: { name: string } }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets;
      return list.length === 2 ? list : undefined;
    }, "two pending tickets");
    const davi = pending.find((x) => x.contact.name === "Davi Cliente")!;
    const eva = pending.find((x) => x.contact.name === "Eva Suporte")!;
    await http(admin, "PUT", `/api/tickets/${davi.id}`, { status: "open", userId: ana.id, queueId: vendas.id });
    await http(admin, "PUT", `/api/tickets/${eva.id}`, { status: "open", userId: bia.id, queueId: suporte.id });

    const page = await newPage(await newContext());
    await login(page, ana.email, ana.password);
    await page.goto(`${e2e.stack.url}/tickets/${davi.uuid}`);
    const conv = page.getByTestId("conversation");
    await conv.getByTestId("message").filter({ hasText: "Quero trocar o produto" }).waitFor();

    // The dialog opens on the ticket's queue and "Sem usuário": nothing to transfer yet.
    await conv.getByRole("button", { name: "Transferir" }).click();
    const dlg = page.getByRole("dialog", { name: "Transferir atendimento" });
    const submit = dlg.getByTestId("transfer-submit");
    await expect(dlg.getByRole("combobox", { name: "Fila" }).inputValue()).resolves.toBe("Fila Vendas");
    await expect(dlg.getByRole("combobox", { name: "Usuário" }).inputValue()).resolves.toBe("Sem usuário");
    await expect(submit.isDisabled()).resolves.toBe(true);
    await dlg.getByTestId("transfer-unchanged").waitFor();
    // The users offered are the chosen queue's: Vendas has Ana and Caio, Suporte only Bia.
    await dlg.getByRole("combobox", { name: "Usuário" }).click();
    await expect(dlg.getByRole("option").allInnerTexts()).resolves.toEqual(["Sem usuário", "Ana Vendas", "Caio Vendas"]);
    await page.keyboard.press("Escape");
    const queue = dlg.getByRole("combobox", { name: "Fila" });
    await queue.click();
    await queue.fill("sup");
    await dlg.getByRole("option", { name: "Fila Suporte" }).click();
    await expect(submit.isDisabled()).resolves.toBe(false);
    await dlg.getByRole("combobox", { name: "Usuário" }).click();
    await expect(dlg.getByRole("option").allInnerTexts()).resolves.toEqual(["Sem usuário", "Bia Suporte"]);
    await page.keyboard.press("Escape");
    await dlg.getByRole("button", { name: "Cancelar" }).click();
    await dlg.waitFor({ state: "hidden" });

    // Forwarding to Eva, whose open ticket is Bia's in Fila Suporte: nothing is sent and the dialog says why.
    const said = conv.getByTestId("message").filter({ hasText: "Quero trocar o produto" });
    await said.hover();
    await said.getByTestId("message-options").click();
    await page.getByRole("menuitem", { name: "Encaminhar" }).click();
    const selected = said.getByRole("checkbox", { name: "Selecionar mensagem" });
    if (!(await selected.isChecked())) await selected.check();
    await conv.locator(".selection-bar").getByRole("button", { name: "Encaminhar" }).click();
    const fwd = page.getByRole("dialog", { name: "Encaminhar mensagens" });
    const to = fwd.getByRole("combobox", { name: "Contato" });
    await to.fill("Eva");
    await fwd.getByRole("option", { name: /Eva Suporte/ }).click();
    await fwd.getByRole("button", { name: "Encaminhar" }).click();
    const why = fwd.getByTestId("forward-blocked");
    await why.waitFor();
    const text = await why.innerText();
    expect(text).toContain("Bia Suporte");
    expect(text).toContain("Fila Suporte");
    expect(text).toContain("administrador");
    await expect(fwd.isVisible()).resolves.toBe(true);
    const evaMessages = await http<{ messages: { body: string }[] }>(admin, "GET", `/api/messages/${eva.id}`);
    expect(evaMessages.messages.map((m) => m.body)).not.toContain("Quero trocar o produto");
  }, TEST_MS);
});
