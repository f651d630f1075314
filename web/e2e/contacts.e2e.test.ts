/**
 * Browser proof of the Contacts page (docs/product/contacts.md), with playwright-core + Debian
 * chromium against the whole local stack in-process:
 * - the number shows as `+CC (AA) number`; search waits for 3 characters and finds by name;
 * - add with validation errors then the success toast; a duplicated number is refused; edit; Escape closes the dialog;
 *   delete after 'Deseja realmente excluir este registro?';
 * - infinite scroll loads the next page; select all, unselect one, delete the selected after a confirmation;
 * - contacts created, edited and deleted by another user appear, change and vanish without a reload; a non-admin
 *   sees no delete or selection controls;
 * - starting a conversation from a contact opens the New ticket dialog with that contact and lands on its ticket;
 * - a contact list is created and filled from a spreadsheet of `../shared/fixtures/contacts`: the preview report,
 *   the import as a background job (its progress, then its counts), the list's contacts refreshed and its count.
 * - the Messages API page: its test form sends with a connection's token to a new contact and shows the answer (the
 *   contact then appears on the Contacts page); a wrong token shows the error; a plan without the external API gets
 *   the toast and the redirect.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeCompany, makeUser, type TestUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("contacts");
const { newPage, http, until, toast } = e2e;

/** Logs in through the login page (this revokes the API token of that user: single login). */
const login = (page: Page, user: TestUser) => e2e.login(page, user.email, user.password);

/** Opens the Contacts page through the side menu. */
async function openContacts(page: Page) {
  await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Contatos", exact: true }).click();
  await page.waitForURL(`${e2e.stack.url}/contacts`);
  await page.getByRole("heading", { name: "Contatos" }).waitFor();
}

const addContact = (user: TestUser, name: string, number: string, email = "") => http<{ id: number }>(user, "POST", "/api/contacts", { name, number, email });
const rows = (page: Page) => page.getByTestId("contact-row");
const row = (page: Page, name: string) => rows(page).filter({ has: page.getByTestId("contact-name").getByText(name, { exact: true }) });

describe("contacts page in the browser", () => {
  it("searches from 3 characters, adds with validation, refuses a duplicate, edits and deletes after confirmation", async () => {
    const { admin } = await makeCompany();
    await addContact(admin, "Ana Souza", "5511987654321", "ana@example.com");
    await addContact(admin, "Bruno Lima", "5521988887777");
    await addContact(admin, "Carla Dias", "551133334444");

    const page = await newPage();
    await login(page, admin);
    await openContacts(page);
    await until(async () => (await rows(page).count()) === 3, "three contacts");
    await expect(row(page, "Ana Souza").getByTestId("contact-number").innerText()).resolves.toBe("+55 (11) 98765-4321");
    await expect(row(page, "Carla Dias").getByTestId("contact-number").innerText()).resolves.toBe("+55 (11) 3333-4444");
    await expect(row(page, "Ana Souza").innerText()).resolves.toContain("ana@example.com");

    // Search: two characters only show the hint; three find by name.
    const search = page.getByPlaceholder("Pesquisar contatos");
    await search.fill("Br");
    await page.getByText("Digite pelo menos 3 caracteres.").waitFor();
    await page.waitForTimeout(800); // longer than the 500 ms debounce: still no search
    await expect(rows(page).count()).resolves.toBe(3);
    await search.fill("Bru");
    await until(async () => (await rows(page).count()) === 1, "only Bruno");
    await expect(rows(page).first().getByTestId("contact-name").innerText()).resolves.toBe("Bruno Lima");
    await search.fill("");
    await until(async () => (await rows(page).count()) === 3, "all contacts again");

    // Add: the form's rules, then the success toast and the new row.
    await page.getByTestId("contacts-add").click();
    const add = page.getByRole("dialog", { name: "Adicionar contato" });
    await add.getByRole("button", { name: "Salvar" }).click();
    await expect(add.getByText("Required").count()).resolves.toBe(2);
    await add.getByRole("textbox", { name: /^Nome/ }).fill("Daniel Rocha");
    await add.getByRole("textbox", { name: /^Número do WhatsApp/ }).fill("1234");
    await add.getByRole("button", { name: "Salvar" }).click();
    await add.getByText("Too Short!").waitFor();
    await add.getByRole("textbox", { name: /^Número do WhatsApp/ }).fill("5511955554444");
    await add.getByRole("textbox", { name: /^Número do WhatsApp/ }).press("Enter");
    await toast(page, "Contato salvo com sucesso!").waitFor();
    await add.waitFor({ state: "hidden" });
    await expect(row(page, "Daniel Rocha").getByTestId("contact-number").innerText()).resolves.toBe("+55 (11) 95555-4444");

    // The same number again is refused with the catalogue's message and adds nothing.
    await page.getByTestId("contacts-add").click();
    await add.getByRole("textbox", { name: /^Nome/ }).fill("Daniel Outro");
    await add.getByRole("textbox", { name: /^Número do WhatsApp/ }).fill("5511955554444");
    await add.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Já existe um contato com este número.").waitFor();
    await page.keyboard.press("Escape");
    await add.waitFor({ state: "hidden" });
    await expect(row(page, "Daniel Outro").count()).resolves.toBe(0);

    // Edit: an invalid email is refused, then the change shows in the row.
    await row(page, "Daniel Rocha").getByTestId("contact-edit").click();
    const edit = page.getByRole("dialog", { name: "Editar contato" });
    await expect(edit.getByRole("textbox", { name: /^Nome/ }).inputValue()).resolves.toBe("Daniel Rocha");
    await edit.getByRole("textbox", { name: /^Nome/ }).fill("Daniel Rocha Filho");
    await edit.getByRole("textbox", { name: /^Email/ }).fill("daniel@");
    await edit.getByRole("button", { name: "Salvar" }).click();
    await edit.getByText("Invalid email").waitFor();
    await edit.getByRole("textbox", { name: /^Email/ }).fill("daniel@example.com");
    await edit.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Contato salvo com sucesso!").waitFor();
    await row(page, "Daniel Rocha Filho").getByRole("cell", { name: "daniel@example.com" }).waitFor();
    await expect(row(page, "Daniel Rocha").count()).resolves.toBe(0);

    // Delete after the confirmation; "Não" keeps the contact.
    await row(page, "Bruno Lima").getByTestId("contact-delete").click();
    const confirm = page.getByRole("dialog", { name: "Excluir registro" });
    await confirm.getByText("Deseja realmente excluir este registro?").waitFor();
    await confirm.getByRole("button", { name: "Não" }).click();
    await confirm.waitFor({ state: "hidden" });
    await expect(row(page, "Bruno Lima").count()).resolves.toBe(1);
    await row(page, "Bruno Lima").getByTestId("contact-delete").click();
    await confirm.getByRole("button", { name: "Sim" }).click();
    await toast(page, "Contato excluído com sucesso!").waitFor();
    await row(page, "Bruno Lima").waitFor({ state: "detached" });

    // After a reload the server agrees.
    await page.reload();
    await until(async () => (await rows(page).count()) === 3, "three contacts after the reload");
    await expect(row(page, "Bruno Lima").count()).resolves.toBe(0);
    await expect(row(page, "Daniel Rocha Filho").count()).resolves.toBe(1);
  }, TEST_MS);

  it("loads the next page on scroll, selects all, and deletes the selected after confirmation", async () => {
    const { admin } = await makeCompany();
    for (let i = 1; i <= 25; i++) await addContact(admin, `Cliente ${String(i).padStart(2, "0")}`, `55119000000${String(i).padStart(2, "0")}`);

    const page = await newPage();
    await login(page, admin);
    await openContacts(page);
    await until(async () => (await rows(page).count()) >= 20, "the first page");
    await expect(row(page, "Cliente 25").count()).resolves.toBe(0);
    await page.getByTestId("contacts-scroll").evaluate((el) => (el.scrollTop = el.scrollHeight));
    await row(page, "Cliente 25").waitFor();
    await expect(rows(page).count()).resolves.toBe(25);

    await page.getByTestId("contacts-select-all").click();
    await expect(page.getByTestId("contacts-select-all").innerText()).resolves.toBe("Desmarcar todos");
    await row(page, "Cliente 07").getByRole("checkbox", { name: "Selecionar Cliente 07" }).uncheck();
    await expect(page.getByTestId("contacts-select-all").innerText()).resolves.toBe("Selecionar todos");
    await page.getByTestId("contacts-delete-selected").click();
    const confirm = page.getByRole("dialog", { name: "Excluir selecionados" });
    await confirm.getByText("Deseja realmente excluir os 24 contatos selecionados?").waitFor();
    await confirm.getByRole("button", { name: "Sim" }).click();
    await toast(page, "24 contato(s) excluído(s) com sucesso!").waitFor();
    await until(async () => (await rows(page).count()) === 1, "only the unselected contact");
    await expect(rows(page).first().getByTestId("contact-name").innerText()).resolves.toBe("Cliente 07");
    await expect(page.getByTestId("contacts-delete-selected").isDisabled()).resolves.toBe(true);

    await page.reload();
    await row(page, "Cliente 07").waitFor();
    await expect(rows(page).count()).resolves.toBe(1);
  }, TEST_MS);

  it("shows contacts created, edited and deleted by another user without a reload; an agent cannot delete", async () => {
    const { companyId, admin } = await makeCompany();
    const agent = await makeUser(companyId, { name: "Agente Contatos" });
    await addContact(admin, "Primeiro Contato", "5511911110000");

    const page = await newPage();
    await login(page, agent);
    await openContacts(page);
    await row(page, "Primeiro Contato").waitFor();
    await expect(page.getByTestId("contact-delete").count()).resolves.toBe(0);
    await expect(page.getByTestId("contacts-select-all").count()).resolves.toBe(0);
    await expect(page.getByRole("checkbox").count()).resolves.toBe(0);

    const { id } = await addContact(admin, "Eva Ao Vivo", "5511922223333");
    await row(page, "Eva Ao Vivo").waitFor();
    await http(admin, "PUT", `/api/contacts/${id}`, { name: "Eva Renomeada", email: "eva@example.com" });
    await row(page, "Eva Renomeada").getByRole("cell", { name: "eva@example.com" }).waitFor();
    await expect(row(page, "Eva Ao Vivo").count()).resolves.toBe(0);
    await http(admin, "DELETE", `/api/contacts/${id}`);
    await row(page, "Eva Renomeada").waitFor({ state: "detached" });
    await expect(rows(page).count()).resolves.toBe(1);
  }, TEST_MS);

  it("starts a conversation from a contact and lands on its ticket", async () => {
    const { admin } = await makeCompany();
    const w = await http<{ id: number }>(admin, "POST", "/api/whatsapp", { name: "Conexão Contatos", queueIds: [], greetingMessage: "" });
    await until(async () => (await (await fetch(`${e2e.stack.url}/sim/whatsapp/${w.id}`)).json()).qrcode, "the QR");
    const scan = await fetch(`${e2e.stack.url}/sim/whatsapp/${w.id}/scan`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(scan.ok).toBe(true);
    await addContact(admin, "Fábio Conversa", "5511944443333");

    const page = await newPage();
    await login(page, admin);
    await openContacts(page);
    await row(page, "Fábio Conversa").getByTestId("contact-open-ticket").click();
    const dialog = page.getByRole("dialog", { name: "Novo atendimento" });
    await dialog.getByText("Fábio Conversa").waitFor();
    await dialog.getByRole("button", { name: "Iniciar" }).click();
    await page.waitForURL(new RegExp(`^${e2e.stack.url}/tickets/[0-9a-f-]{36}$`));
    await page.getByTestId("conversation").getByText("Fábio Conversa").first().waitFor();
  }, TEST_MS);

  it("creates a contact list and imports the messy fixture workbook: preview, import, report, contacts and count", async () => {
    const { admin } = await makeCompany();
    const page = await newPage();
    await login(page, admin);
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Listas de contatos" }).click();
    await page.waitForURL(`${e2e.stack.url}/contact-lists`);
    await page.getByTestId("contactLists-add").click();
    const dialog = page.getByRole("dialog", { name: "Adicionar lista de contatos" });
    await dialog.getByRole("textbox", { name: /^Nome/ }).fill("Clientes da loja");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Lista de contatos salva com sucesso!").waitFor();
    const listRow = page.getByTestId("contact-list-row").filter({ hasText: "Clientes da loja" });
    await expect(listRow.getByTestId("contact-list-count").innerText()).resolves.toBe("0");
    await listRow.getByTestId("contact-list-open").click();
    await page.waitForURL(new RegExp(`^${e2e.stack.url}/contact-lists/\\d+/contacts$`));

    await page.getByTestId("contact-list-import").click();
    const importer = page.getByRole("dialog", { name: "Importar planilha" });
    const workbook = readFileSync(fileURLToPath(new URL("../../../shared/fixtures/contacts/messy-contacts.xlsx", import.meta.url)));
    await importer.getByTestId("import-file").setInputFiles({ name: "messy-contacts.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: workbook });
    await importer.getByTestId("import-summary").getByText("Serão 23 novo(s), 0 atualizado(s), 5 ignorado(s)").waitFor();
    await expect(importer.locator('[data-testid="import-row"][data-status="skipped"]').count()).resolves.toBe(5);
    await importer.locator('[data-testid="import-row"]').filter({ hasText: "repetido da linha 4" }).waitFor();
    // The import runs as a background job: the dialog shows its progress, then its counts; the skipped rows' reasons
    // stay in the report, and the list's contacts refresh when it ends (the dialog still open).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { importProgress: string[] }).importProgress = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="import-progress"]')?.textContent;
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await importer.getByTestId("import-confirm").click();
    await importer.getByTestId("import-summary").getByText("Importação concluída: 23 novo(s), 0 atualizado(s), 5 ignorado(s)").waitFor();
    const progress = await page.evaluate(() => (window as unknown as { importProgress: string[] }).importProgress);
    expect(progress[0]).toMatch(/^Importando… \d+ de 23/);
    await importer.locator('[data-testid="import-row"]').filter({ hasText: "repetido da linha 4" }).waitFor();
    await until(async () => (await page.getByTestId("contact-list-item-row").count()) === 23, "the 23 imported contacts, before the dialog closes");
    await importer.getByRole("button", { name: "Fechar" }).click();

    await page.getByTestId("contact-list-name").getByText("Clientes da loja · 23 contato(s)").waitFor();
    const joao = page.getByTestId("contact-list-item-row").filter({ hasText: "João da Silva" });
    await expect(joao.getByTestId("contact-list-item-number").innerText()).resolves.toBe("5511900000001");
    await page.getByTestId("contact-list-back").click();
    await until(async () => (await listRow.getByTestId("contact-list-count").innerText()) === "23", "the list's count on the lists page");
  }, TEST_MS);

  it("sends from the Messages API page's test form with a connection's token and shows the answer; refuses a plan without the external API", async () => {
    const { admin } = await makeCompany();
    const whatsappId = await e2e.connectedWhatsapp(admin, "Conexão API");
    const { token } = await http<{ token: string }>(admin, "GET", `/api/whatsapp/${whatsappId}`);

    const page = await newPage();
    await login(page, admin);
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "API", exact: true }).click();
    await page.waitForURL(`${e2e.stack.url}/messages-api`);
    await page.getByRole("heading", { name: "API de mensagens" }).waitFor();
    await expect(page.locator("pre").first().innerText()).resolves.toContain(`${e2e.stack.url}/api/messages/send`);

    // The form's rules, then a wrong token: the API's answer, nothing sent.
    await page.getByTestId("messages-api-send").click();
    await expect(page.getByText("Obrigatório").count()).resolves.toBe(3);
    await page.getByLabel("Token", { exact: true }).fill("token-errado");
    await page.getByLabel("Número", { exact: true }).fill("5511966665555");
    await page.getByLabel("Mensagem", { exact: true }).fill("Olá pela API");
    await page.getByTestId("messages-api-send").click();
    await until(async () => (await page.getByTestId("messages-api-answer").innerText()).includes("ERR_SESSION_EXPIRED"), "the refusal");
    await expect(page.url()).toBe(`${e2e.stack.url}/messages-api`); // the person's own session is untouched

    // The connection's token: the answer carries the message id and status, and the network carries the text.
    await page.getByLabel("Token", { exact: true }).fill(token);
    await page.getByTestId("messages-api-send").click();
    const answer = await until(async () => {
      const text = await page.getByTestId("messages-api-answer").innerText();
      return text.includes("Mensagem enviada") ? (JSON.parse(text) as { id: string; status: string }) : null;
    }, "the answer");
    expect(answer.status).toMatch(/queued|sent|delivered|read/);
    await until(async () => {
      const sent = (await (await fetch(`${e2e.stack.url}/sim/whatsapp/${whatsappId}/sent`)).json()) as { id: string; jid: string }[];
      return sent.some((m) => m.id === answer.id && m.jid === "5511966665555@s.whatsapp.net");
    }, "the message on the network");
    await openContacts(page);
    await until(async () => (await row(page, "5511966665555").count()) === 1, "the new contact");

    // A plan without the external API: the product's toast, then back to /.
    const off = await makeCompany({ planFlags: { useExternalApi: false } });
    const other = await newPage();
    await login(other, off.admin);
    await expect(other.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "API", exact: true }).count()).resolves.toBe(0);
    await other.goto(`${e2e.stack.url}/messages-api`);
    await toast(other, "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.").waitFor();
    await other.waitForURL(`${e2e.stack.url}/`);
  }, TEST_MS);
});
