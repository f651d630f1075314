/**
 * Browser proof of tags (docs/product/tags.md; the /tags page and the Tickets screen), with
 * playwright-core + Debian chromium against the whole local stack in-process:
 * - the admin creates tags on /tags (the dialog's rules, the success toast, the new row; a name taken in another
 *   letter case is refused under the name field);
 * - a second tab on /tags shows a tag created in the first tab and a tag's ticket count change without a reload;
 * - tagging a ticket from the conversation header toasts 'Ticket Tag Adicionado com Sucesso!' and shows the chip in the
 *   header and on the ticket's row;
 * - the search tab filters by tag (only the tagged ticket, with its chip) and by user (only that user's ticket);
 * - deleting a tag a ticket carries shows the background job's progress on the page until done, and the chip leaves;
 * - the Kanban board (docs/product/kanban.md): a card dragged with the mouse, and another moved with the keyboard, from
 *   "Em aberto" to a kanban tag's lane moves live on a second browser's board.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeCompany, makeUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("tags");
const { newContext, newPage, login, http, until, connectedWhatsapp, customerSays, toast } = e2e;

const tagRow = (page: Page, name: string) => page.getByTestId("tag-row").filter({ has: page.getByTestId("tag-chip").getByText(name, { exact: true }) });
const ticketRows = (page: Page) => page.getByTestId("ticket-row");
const ticketRow = (page: Page, contact: string) => ticketRows(page).filter({ hasText: contact });

/** Creates a tag through the Tags page's dialog. */
async function addTag(page: Page, name: string) {
  await page.getByRole("button", { name: "Adicionar tag" }).click();
  const dlg = page.getByRole("dialog", { name: "Adicionar tag" });
  await dlg.getByRole("textbox", { name: /^Nome/ }).fill(name);
  await dlg.getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Tag salva com sucesso!").waitFor();
  await dlg.waitFor({ state: "hidden" });
  await tagRow(page, name).waitFor();
}

describe("tags in the browser", () => {
  it("creates tags, tags a ticket from the conversation, filters the search tab by tag and by user, and updates another tab live", async () => {
    // Two customers write; one ticket goes to the admin, the other to an agent (set up before the browser login,
    // which revokes the admin's API token).
    const { companyId, admin } = await makeCompany();
    const agent = await makeUser(companyId, { name: "Beatriz Agente" });
    const wid = await connectedWhatsapp(admin, "Conexão Tags", []);
    await customerSays(wid, "5511911110001", "Alice Etiquetada", "Quero comprar");
    await customerSays(wid, "5511911110002", "Bruno Semtag", "Tenho uma dúvida");
    const tickets = await until(async () => {
      const r = await http<{ tickets: { id: number; uuid: string; contact: { name: string } }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true");
      return r.tickets.length === 2 ? r.tickets : null;
    }, "two pending tickets");
    const alice = tickets.find((x) => x.contact.name === "Alice Etiquetada")!;
    const bruno = tickets.find((x) => x.contact.name === "Bruno Semtag")!;
    await http(admin, "PUT", `/api/tickets/${alice.id}`, { status: "open", userId: admin.id });
    await http(admin, "PUT", `/api/tickets/${bruno.id}`, { status: "open", userId: agent.id });

    const ctx = await newContext();
    const page = await newPage(ctx);
    await login(page, admin.email, admin.password);

    // Create a tag: the name is required, then the toast and the row with no tickets.
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Tags" }).click();
    await page.waitForURL(`${e2e.stack.url}/tags`);
    await page.getByRole("heading", { name: "Tags" }).waitFor();
    await page.getByRole("button", { name: "Adicionar tag" }).click();
    const dlg = page.getByRole("dialog", { name: "Adicionar tag" });
    await dlg.getByRole("button", { name: "Salvar" }).click();
    await dlg.getByText("Obrigatório").waitFor();
    await dlg.getByRole("textbox", { name: /^Nome/ }).fill("Urgente");
    await dlg.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Tag salva com sucesso!").waitFor();
    await dlg.waitFor({ state: "hidden" });
    await tagRow(page, "Urgente").waitFor();
    await expect(tagRow(page, "Urgente").getByTestId("tag-tickets-count").innerText()).resolves.toBe("0");

    // The same name in another letter case is refused: the dialog stays open with the reason under the name.
    await page.getByRole("button", { name: "Adicionar tag" }).click();
    await dlg.getByRole("textbox", { name: /^Nome/ }).fill("URGENTE");
    await dlg.getByRole("button", { name: "Salvar" }).click();
    await dlg.getByText("Já existe uma tag com este nome.").waitFor();
    await until(() => page.evaluate(() => document.activeElement === document.querySelector('dialog input[name="name"]')), "the name field focused");
    await dlg.getByRole("button", { name: "Cancelar" }).click();
    await dlg.waitFor({ state: "hidden" });
    expect(await page.getByTestId("tag-row").count()).toBe(1);

    // Another tab of the same browser on /tags, whose socket opens late (its ticket answer is held): a tag created
    // between its list's read and its socket's opening still shows up once the socket opens.
    const other = await newPage(ctx);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await other.route(/\/api\/auth\/ws-ticket$/, async (route) => {
      const res = await route.fetch();
      await held;
      await route.fulfill({ response: res });
    });
    await other.goto(`${e2e.stack.url}/tags`);
    await tagRow(other, "Urgente").waitFor();
    await expect(tagRow(other, "VIP Ouro").count()).resolves.toBe(0);
    await addTag(page, "VIP Ouro");
    release();
    await tagRow(other, "VIP Ouro").waitFor(); // no reload
    await expect(tagRow(other, "VIP Ouro").getByTestId("tag-tickets-count").innerText()).resolves.toBe("0");
    await other.unrouteAll({ behavior: "wait" });
    // With the socket open, the next tag arrives by its realtime frame.
    await addTag(page, "Prata");
    await tagRow(other, "Prata").waitFor();

    // Tag Alice's ticket from the conversation header.
    await page.goto(`${e2e.stack.url}/tickets/${alice.uuid}`);
    const conv = page.getByTestId("conversation");
    await conv.getByTestId("message").filter({ hasText: "Quero comprar" }).waitFor();
    const headerTags = conv.getByRole("group", { name: "Tags do atendimento" });
    await expect(headerTags.getByTestId("tag-chip").count()).resolves.toBe(0);
    await headerTags.getByRole("button", { name: "Editar tags" }).click();
    const pick = page.getByRole("dialog", { name: "Tags do atendimento" });
    await pick.getByRole("checkbox", { name: "Urgente" }).check();
    await pick.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Ticket Tag Adicionado com Sucesso!").waitFor();
    await pick.waitFor({ state: "hidden" });
    await headerTags.getByTestId("tag-chip").getByText("Urgente", { exact: true }).waitFor();
    await ticketRow(page, "Alice Etiquetada").getByTestId("tag-chip").getByText("Urgente", { exact: true }).waitFor();

    // At 375 px two tags leave the header on one row with the contact's name readable: the edit button counts them.
    await headerTags.getByRole("button", { name: "Editar tags" }).click();
    await pick.getByRole("checkbox", { name: "Prata" }).check();
    await pick.getByRole("button", { name: "Salvar" }).click();
    await pick.waitFor({ state: "hidden" });
    await headerTags.getByTestId("tag-chip").getByText("Prata", { exact: true }).waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    await headerTags.getByText("2", { exact: true }).waitFor();
    await expect(headerTags.getByTestId("tag-chip").first().isVisible()).resolves.toBe(false);
    await expect(headerTags.getByRole("button", { name: "Editar tags" }).getAttribute("title")).resolves.toBe("Urgente, Prata");
    await headerTags.getByRole("button", { name: "Editar tags: Urgente, Prata" }).waitFor(); // the names reach screen readers too
    // Once the layout settles: the name's start stays readable beside the one tag button, on one header row.
    await until(async () => ((await conv.getByTestId("conv-contact-name").boundingBox())?.width ?? 0) > 60, "the contact's name at least 60 px wide");
    expect((await conv.locator("header.conv-header").boundingBox())!.height).toBeLessThan(64);
    await page.setViewportSize({ width: 1440, height: 900 });
    await headerTags.getByRole("button", { name: "Editar tags" }).click();
    await pick.getByRole("checkbox", { name: "Prata" }).uncheck();
    await pick.getByRole("button", { name: "Salvar" }).click();
    await pick.waitFor({ state: "hidden" });
    await headerTags.getByTestId("tag-chip").getByText("Prata", { exact: true }).waitFor({ state: "detached" });

    // The other tab's count follows live.
    await until(async () => (await tagRow(other, "Urgente").getByTestId("tag-tickets-count").innerText()) === "1", "the other tab's count of 1");
    await expect(tagRow(other, "VIP Ouro").getByTestId("tag-tickets-count").innerText()).resolves.toBe("0");

    // The search tab: nothing until a term or a filter; the tag filter shows only Alice's ticket, with its chip.
    await page.getByRole("tab", { name: "Busca" }).click();
    await page.getByText("Digite pelo menos 3 caracteres.").waitFor();
    const tagFilter = page.getByTestId("tag-filter");
    await tagFilter.getByText("Filtrar por tags").click();
    await tagFilter.getByRole("checkbox", { name: "Urgente" }).check();
    await tagFilter.getByText("Tags (1)").waitFor();
    await ticketRow(page, "Alice Etiquetada").waitFor();
    await until(async () => (await ticketRows(page).count()) === 1, "only the tagged ticket");
    await ticketRow(page, "Alice Etiquetada").getByTestId("tag-chip").getByText("Urgente", { exact: true }).waitFor();

    // A tag no ticket carries finds nothing; with no filter left the hint is back.
    await tagFilter.getByRole("checkbox", { name: "Urgente" }).uncheck();
    await tagFilter.getByRole("checkbox", { name: "VIP Ouro" }).check();
    await page.getByText("Nenhum atendimento encontrado.").waitFor();
    await expect(ticketRows(page).count()).resolves.toBe(0);
    await tagFilter.getByRole("checkbox", { name: "VIP Ouro" }).uncheck();
    await page.getByText("Digite pelo menos 3 caracteres.").waitFor();

    // The user filter: only the agent's ticket, then only the admin's.
    await tagFilter.locator("summary").click(); // the tag panel closes before the user filter opens
    const userFilter = page.getByRole("combobox", { name: "Filtrar por usuário" });
    await userFilter.click();
    await page.getByRole("option", { name: "Beatriz Agente" }).click();
    await ticketRow(page, "Bruno Semtag").waitFor();
    await until(async () => (await ticketRows(page).count()) === 1, "only the agent's ticket");
    await expect(ticketRow(page, "Bruno Semtag").getByTestId("tag-chip").count()).resolves.toBe(0);
    await userFilter.click();
    await page.getByRole("option", { name: "Admin", exact: true }).click();
    await ticketRow(page, "Alice Etiquetada").waitFor();
    await until(async () => (await ticketRows(page).count()) === 1, "only the admin's ticket");

    // Untagging from the header: the removal toast, the chip leaves the header, and the other tab's count drops live.
    await headerTags.getByRole("button", { name: "Editar tags" }).click();
    await pick.getByRole("checkbox", { name: "Urgente" }).uncheck();
    await pick.getByRole("button", { name: "Salvar" }).click();
    await toast(page, "Ticket Tag Removido!").waitFor();
    await headerTags.getByTestId("tag-chip").waitFor({ state: "detached" });
    await until(async () => (await tagRow(other, "Urgente").getByTestId("tag-tickets-count").innerText()) === "0", "the other tab's count back to 0");

    // Deleting a tag a ticket carries: the row goes at once, and the background job taking it off the ticket shows
    // its progress on the page until "done" with the count of tickets.
    await headerTags.getByRole("button", { name: "Editar tags" }).click();
    await pick.getByRole("checkbox", { name: "VIP Ouro" }).check();
    await pick.getByRole("button", { name: "Salvar" }).click();
    await pick.waitFor({ state: "hidden" });
    await until(async () => (await tagRow(other, "VIP Ouro").getByTestId("tag-tickets-count").innerText()) === "1", "VIP Ouro on one ticket");
    await tagRow(other, "VIP Ouro").getByTestId("tag-delete").click();
    await other.getByRole("dialog", { name: "Excluir registro" }).getByRole("button", { name: "Sim" }).click();
    await tagRow(other, "VIP Ouro").waitFor({ state: "detached" });
    const progress = other.getByTestId("job-progress");
    await progress.and(other.locator('[data-status="done"]')).getByText("Etiqueta removida de 1 atendimento(s).").waitFor();
    await headerTags.getByTestId("tag-chip").getByText("VIP Ouro", { exact: true }).waitFor({ state: "detached" });
    await progress.getByRole("button").click(); // dismissed
    await progress.waitFor({ state: "detached" });
  }, TEST_MS);

  it("moves kanban cards from 'Em aberto' to a kanban tag's lane by mouse and by keyboard, live on a second browser", async () => {
    const { companyId, admin } = await makeCompany();
    const agent = await makeUser(companyId, { name: "Carla Agente", allTicket: "enabled" });
    const wid = await connectedWhatsapp(admin, "Conexão Kanban", []);
    await customerSays(wid, "5511922220001", "Alice Kanban", "Quero um orçamento");
    await customerSays(wid, "5511922220002", "Bruno Kanban", "Ainda pensando");
    await until(async () => (await http<{ tickets: unknown[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets.length === 2, "two pending tickets");
    const negociacao = (await http<{ id: number }>(admin, "POST", "/api/tags", { name: "Negociação", kanban: 1 })).id;
    const fechado = (await http<{ id: number }>(admin, "POST", "/api/tags", { name: "Fechado", kanban: 1 })).id;
    await http(admin, "POST", "/api/tags", { name: "Sem coluna", kanban: 0 });

    const lane = (page: Page, id: number) => page.locator(`[data-testid=kanban-lane][data-lane-id="${id}"]`);
    const card = (page: Page, id: number, name: string) => lane(page, id).getByTestId("kanban-card").filter({ hasText: name });

    const page = await newPage();
    await login(page, admin.email, admin.password);
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Kanban" }).click();
    await page.waitForURL(`${e2e.stack.url}/kanban`);
    const other = await newPage();
    await login(other, agent.email, agent.password);
    await other.goto(`${e2e.stack.url}/kanban`);
    for (const p of [page, other]) {
      await card(p, 0, "Alice Kanban").waitFor();
      await expect(p.getByTestId("kanban-lane").locator("h3").allInnerTexts()).resolves.toEqual(["Em aberto", "Negociação", "Fechado"]);
      await card(p, 0, "Bruno Kanban").getByText("Ainda pensando").waitFor();
      await lane(p, fechado).getByText("Nenhum atendimento").waitFor();
    }
    await expect(card(page, 0, "Alice Kanban").getByTestId("kanban-card-link").getAttribute("href")).resolves.toMatch(/^\/tickets\/[0-9a-f-]{36}$/);

    // With the mouse: Alice's card dragged onto "Negociação".
    const from = (await card(page, 0, "Alice Kanban").boundingBox())!;
    const to = (await lane(page, negociacao).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height - 10);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 150, { steps: 15 });
    await page.mouse.up();
    await card(page, negociacao, "Alice Kanban").waitFor();
    await card(other, negociacao, "Alice Kanban").waitFor(); // the second browser, live
    await card(other, 0, "Alice Kanban").waitFor({ state: "detached" });

    // With the keyboard: Bruno's card picked up with Space, two lanes to the right, dropped with Space.
    // Each key waits for what the board announces to screen readers, as a keyboard user hears it.
    let heard = "";
    const said = (text: string, ms?: number) =>
      until(async () => {
        heard = await page.locator('[id^="DndLiveRegion"]').evaluateAll((els) => els.map((e) => e.textContent ?? "").join("|"));
        return heard.includes(text);
      }, `"${text}" announced`, ms).catch((e: Error) => {
        throw new Error(`${e.message}; the board said: ${heard}`);
      });
    await card(page, 0, "Bruno Kanban").focus();
    await page.keyboard.press("Space");
    await said("Bruno Kanban sobre a coluna Em aberto."); // picked up: over its own lane
    // ArrowRight until the board says the card is over "Fechado" (two lanes on; a key the sensor had not yet begun
    // listening for on a busy machine is pressed again).
    for (let i = 0; i < 6 && !heard.includes("sobre a coluna Fechado."); i++) {
      await page.keyboard.press("ArrowRight");
      await said("Bruno Kanban sobre a coluna Fechado.", 2_000).catch(() => undefined);
    }
    await said("Bruno Kanban sobre a coluna Fechado.");
    await page.keyboard.press("Space");
    await said("Bruno Kanban solto na coluna Fechado.");
    await card(page, fechado, "Bruno Kanban").waitFor();
    await card(other, fechado, "Bruno Kanban").waitFor();
    await card(other, 0, "Bruno Kanban").waitFor({ state: "detached" });
    await lane(other, 0).getByText("Nenhum atendimento").waitFor();

    // The moves are the tickets' tags: the target lane's tag only, the previous lane's tag gone.
    const board = await other.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem("token") ?? "null");
      const r = await fetch("/api/ticket/kanban", { headers: { authorization: `Bearer ${token}` } });
      return (await r.json()) as { lanes: { id: number; tickets: { contact: { name: string }; tags: { id: number }[] }[] }[] };
    });
    expect(board.lanes.map((l) => [l.id, l.tickets.map((t) => [t.contact.name, t.tags.map((x) => x.id)])])).toEqual([
      [0, []],
      [negociacao, [["Alice Kanban", [negociacao]]]],
      [fechado, [["Bruno Kanban", [fechado]]]],
    ]);
  }, TEST_MS);
});
