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
 *   contact whose open ticket is in another agent's queue keeps the dialog open and says where, who and what to do;
 * - a conversation with photos opens (and stays, once they load) at its newest message; a photo's bubble is the photo's
 *   width; media are named by line icon and word ("Foto", "Contato · <name>") in replies and list previews; the emoji
 *   picker is in Portuguese; beside the contact drawer the header's actions keep one row; at 375 px the audio speed
 *   reads "1x" on one line;
 * - an admin's eye on a waiting row opens it read-only (no composer; still pending and unread); a search hit by a
 *   message word shows that message with the word marked; row chips that do not fit end in "+N"; the password field's
 *   screen-reader state is in Portuguese;
 * - quick messages: the /quick-messages page saves one with a file (spaces in its name become underscores); "/" in the
 *   composer lists them as one types (text cut at 35 characters), Enter inserts a text one, sent with its variables
 *   rendered, and a click on a media one sends its file, which reaches the customer's phone;
 * - scheduled messages: "Agendar mensagem" in the conversation's header schedules a text for a minute ahead; the minute
 *   tick (driven here with that minute's time) sends it: it reaches the sandbox phone, shows in the conversation, and
 *   the /schedules calendar shows it sent, live;
 * - campaigns: a campaign with two variants and confirmation, created in its dialog and started by the minute tick,
 *   sends the confirmation to the sandbox phone; the phone's reply brings one of the variants; the report follows
 *   live to Finalizada and the dialog is then read-only.
 * With `SCREENS_DIR=<dir>` it also saves screenshots of the list and the conversation (light, dark; 1440 and 375 px).
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import { crc32, deflateSync } from "node:zlib";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeCompany, makeUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("conversation");
const { newContext, newPage, login, http, until, connectedWhatsapp, customerSays } = e2e;
/** Waits until `read` answers `want` (compared as JSON): what a click changes shows on a later frame, not at once. */
const settles = (read: () => Promise<unknown>, want: unknown, what: string) => until(async () => JSON.stringify(await read()) === JSON.stringify(want), what);

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

/** A solid-colour PNG of `w`×`h` px (8-bit RGB), as a phone's photo of that size. */
function solidPng(w: number, h: number, rgb: [number, number, number]): Buffer {
  const row = Buffer.alloc(1 + w * 3);
  for (let x = 0; x < w; x++) row.set(rgb, 1 + x * 3);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: h }, () => row)))), chunk("IEND", Buffer.alloc(0))]);
}

/** A customer's message of any kind through the simulated network (image, audio, location, vcard, quotedId...); its WhatsApp id. */
async function customerSends(whatsappId: number, from: string, pushName: string, content: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${e2e.stack.url}/sim/whatsapp/${whatsappId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ from, pushName, ...content }),
  });
  if (!res.ok) throw new Error(`sim message → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** The element's rectangles' tops and bottoms: one row when every child overlaps every other vertically. */
const oneRow = (rects: { top: number; bottom: number }[]) => Math.max(...rects.map((r) => r.top)) < Math.min(...rects.map((r) => r.bottom));

/** With `SCREENS_DIR`: the page in light and dark (the app's own theme choice, then a reload), at 1440 and 375 px. */
async function screens(page: Page, name: string, restore?: () => Promise<void>) {
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
    await restore?.();
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

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/**
 * With `SCREENS_DIR`: the page as `show` leaves it, in light and dark (the top bar's toggle, no reload), at 1440 and
 * 375 px, saved as `<name>-<theme>-<width>.png`.
 */
async function themedScreens(page: Page, name: string, show: () => Promise<void>) {
  const dir = process.env.SCREENS_DIR;
  if (!dir) return;
  for (const theme of ["light", "dark"]) {
    if (theme === "dark") await page.getByRole("button", { name: "Usar tema escuro" }).click();
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await show();
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${dir}/${name}-${theme}-${width}.png` });
    }
  }
  await page.getByRole("button", { name: "Usar tema claro" }).click();
  await page.setViewportSize({ width: 1440, height: 900 });
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
    // The edit's realtime frame reaches the page before the request's answer (as on a busy server): the dialog closes all the same.
    const edited = conv.getByTestId("message").filter({ hasText: "Como posso ajudar?" });
    await page.route("**/api/messages/edit/**", async (route) => {
      const answer = await route.fetch();
      await edited.getByTestId("message-edited").waitFor();
      await route.fulfill({ response: answer });
    });
    await text.press("Enter");
    await edit.waitFor({ state: "hidden" });
    await page.unroute("**/api/messages/edit/**");
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

  it("opens a conversation with photos at its newest message, sizes photo bubbles to the photo and names media in words", async () => {
    const { admin } = await makeCompany();
    const wid = await connectedWhatsapp(admin, "Conexão Mídia");
    const marta = "5511944440009";
    const send = (content: Record<string, unknown>) => customerSends(wid, marta, "Marta Mídia", content);
    await customerSays(wid, marta, "Marta Mídia", "Oi, seguem as fotos do produto com defeito");
    const photo = await send({ image: solidPng(800, 600, [51, 102, 204]).toString("base64"), mimetype: "image/png" });
    await send({ image: solidPng(600, 900, [204, 102, 51]).toString("base64"), mimetype: "image/png", caption: "Essa é a etiqueta com o número de série, dá para ler bem?" });
    await send({ text: "Essa primeira mostra o defeito", quotedId: photo });
    await send({ audio: Buffer.from("OggS fake voice note").toString("base64"), mimetype: "audio/ogg; codecs=opus", ptt: true });
    await send({ location: { degreesLatitude: -23.5614, degreesLongitude: -46.6559, name: "Loja Paulista", address: "Av. Paulista, 1000" } });
    await send({ vcard: "BEGIN:VCARD\nVERSION:3.0\nFN:Paulo Técnico\nTEL;type=CELL;waid=5511933334444:+55 11 93333-4444\nEND:VCARD" });
    // Another customer whose last message is a photo without caption.
    await customerSends(wid, "5511944440010", "Nina Foto", { image: solidPng(40, 40, [0, 150, 0]).toString("base64"), mimetype: "image/png" });
    const pending = await until(async () => {
      const r = await http<{ tickets: { id: number; uuid: string; contact: { name: string }; lastMessage: string }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true");
      const m = r.tickets.find((t) => t.contact.name === "Marta Mídia");
      return m?.lastMessage.startsWith("👤") && r.tickets.length === 2 ? m : null;
    }, "Marta's ticket with her contact card last");
    await http(admin, "PUT", `/api/tickets/${pending.id}`, { status: "open", userId: admin.id });

    const page = await newPage(await newContext());
    await login(page, admin.email, admin.password);
    await page.goto(`${e2e.stack.url}/tickets/${pending.uuid}`);
    const conv = page.getByTestId("conversation");
    const list = conv.getByTestId("message-list");
    const card = list.getByTestId("message").filter({ hasText: "Paulo Técnico" });
    await card.waitFor();
    // Once the photos have loaded, the list is still at its newest message: the contact card and the map in view.
    await until(() => list.locator("img").evaluateAll((imgs) => imgs.length >= 2 && imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)), "the photos loaded");
    await page.waitForTimeout(300);
    const gap = await list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    expect(gap).toBeLessThanOrEqual(2);
    const listBox = (await list.boundingBox())!;
    for (const m of [card, list.getByTestId("message").filter({ hasText: "Loja Paulista" })]) {
      const box = (await m.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(listBox.y + listBox.height + 1);
    }

    // A jump up the reader did not make (a layout shift, made here by script) does not leave the newest message: when
    // the pane then resizes, the list goes back to it. The reader's own wheel does leave it: a resize keeps their place.
    const gapOf = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await list.evaluate((el) => {
      el.scrollTop -= 200;
    });
    await page.waitForTimeout(300);
    await page.setViewportSize({ width: 1440, height: 860 });
    await until(async () => (await gapOf()) <= 2, "back at the newest message after the resize");
    await list.hover();
    await page.mouse.wheel(0, -400);
    await until(async () => (await gapOf()) > 150, "the reader scrolled up");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.waitForTimeout(300);
    expect(await gapOf()).toBeGreaterThan(100);
    await list.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });

    // A photo's bubble is as wide as the photo (its caption wraps below it).
    const captioned = list.getByTestId("message").filter({ hasText: "número de série" });
    const [bubbleW, imgW] = await Promise.all([captioned.locator(".bubble").evaluate((el) => el.getBoundingClientRect().width), captioned.locator("img").evaluate((el) => el.getBoundingClientRect().width)]);
    expect(imgW).toBeGreaterThan(100);
    expect(bubbleW - imgW).toBeLessThan(24);

    // A quoted photo is named "Foto", in the reply's bubble and in "Respondendo a".
    const reply = list.getByTestId("message").filter({ hasText: "Essa primeira mostra o defeito" });
    await expect(reply.locator(".quoted-body").innerText()).resolves.toBe("Foto");
    const firstPhoto = list.getByTestId("message").filter({ has: page.locator(".media-thumb") }).first();
    await firstPhoto.hover();
    await firstPhoto.getByTestId("message-options").click();
    await page.getByRole("menuitem", { name: "Responder" }).click();
    const replying = conv.locator(".reply-preview");
    await expect(replying.innerText()).resolves.toMatch(/^Respondendo a\s+Foto/);
    await conv.getByRole("button", { name: "Cancelar resposta" }).click();

    // List previews: line icons and words, no emoji.
    const martaPreview = row(page, "Marta Mídia").getByTestId("ticket-preview");
    await expect(martaPreview.innerText()).resolves.toBe("Contato · Paulo Técnico");
    await martaPreview.locator("[data-kind=contact] svg").waitFor();
    await page.getByTestId("subtab-pending").click();
    const ninaPreview = row(page, "Nina Foto").getByTestId("ticket-preview");
    await expect(ninaPreview.innerText()).resolves.toBe("Foto");
    await ninaPreview.locator("[data-kind=image] svg").waitFor();

    // The emoji picker speaks Portuguese (the picker's own Portuguese emoji data).
    await conv.getByRole("button", { name: "Emojis" }).click();
    await page.getByPlaceholder("Pesquisar", { exact: true }).waitFor();
    await page.getByText("pessoas e corpo", { exact: true }).first().waitFor();
    await conv.getByRole("button", { name: "Emojis" }).click();

    await screens(page, "media-conversation");
    // At 1440 px with the contact drawer open the header's actions keep one row (the rest in "Mais ações").
    await conv.getByRole("button", { name: "Dados do contato" }).click();
    await page.getByTestId("contact-drawer").waitFor();
    await conv.getByRole("button", { name: "Mais ações" }).waitFor();
    const actionRects = await conv.getByTestId("conversation-actions").evaluate((el) => [...el.children].map((c) => ({ top: c.getBoundingClientRect().top, bottom: c.getBoundingClientRect().bottom })));
    expect(oneRow(actionRects)).toBe(true);
    expect((await conv.locator(".conv-header").boundingBox())!.height).toBeLessThan(64);
    await screens(page, "media-conversation-drawer", async () => {
      await conv.getByRole("button", { name: "Dados do contato" }).click();
      await page.getByTestId("contact-drawer").waitFor();
    });
    await page.keyboard.press("Escape");

    // At 375 px the audio's speed button stays on one line ("1x").
    await page.setViewportSize({ width: 375, height: 812 });
    const speed = list.locator(".audio-player .chip-button");
    await speed.scrollIntoViewIfNeeded();
    await expect(speed.innerText()).resolves.toBe("1x");
    await expect(speed.evaluate((el) => el.getBoundingClientRect().height)).resolves.toBeLessThan(30);
    await page.setViewportSize({ width: 1440, height: 900 });

  }, process.env.SCREENS_DIR ? TEST_MS * 3 : TEST_MS);

  it("lets an admin peek at a waiting ticket without taking it, shows search hits by their message, and counts the chips that do not fit", async () => {
    const { companyId, admin } = await makeCompany();
    const other = await makeUser(companyId, { profile: "admin", name: "Sofia Supervisora" }); // the API caller once admin logs in
    const q = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Suporte Técnico", color: "#1e88e5", greetingMessage: "" });
    const wid = await connectedWhatsapp(admin, "Conexão Principal", [q.id]);
    await customerSays(wid, "5511955550001", "Rita Espiada", "Meu pedido chegou quebrado");
    await customerSays(wid, "5511955550002", "Tomás Busca", "Quero o reembolso do pedido 7788, por favor");
    await customerSays(wid, "5511955550003", "Ulisses Etiquetas", "Bom dia");
    await until(async () => (await http<{ tickets: unknown[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets.length === 3, "three pending tickets");
    const byName = async (name: string) =>
      (await http<{ tickets: { id: number; uuid: string; status: string; unreadMessages: number; contact: { name: string } }[] }>(other, "GET", `/api/tickets?showAll=true&searchParam=${encodeURIComponent(name)}`)).tickets.find((t) => t.contact.name === name)!;
    const tomas = await byName("Tomás Busca");
    await http(other, "PUT", `/api/tickets/${tomas.id}`, { status: "open", userId: other.id });
    await http(other, "POST", `/api/messages/${tomas.id}`, { body: "Certo, já vou verificar." });
    // Ulisses: queue, connection, agent, awaiting rating and two tags.
    const ulisses = await byName("Ulisses Etiquetas");
    await http(other, "PUT", "/api/settings/userRating", { value: "enabled" });
    await http(other, "PUT", `/api/tickets/${ulisses.id}`, { status: "open", userId: admin.id }); // in the admin's "Atendendo"
    for (const name of ["Cliente VIP Ouro", "Garantia Estendida"]) {
      const tag = await http<{ id: number }>(other, "POST", "/api/tags", { name, color: "#8e24aa" });
      await http(other, "PUT", `/api/ticket-tags/${ulisses.id}/${tag.id}`);
    }
    await http(other, "PUT", `/api/tickets/${ulisses.id}`, { status: "closed" });

    const page = await newPage(await newContext());
    // The password field's screen-reader state is in Portuguese.
    await page.goto(`${e2e.stack.url}/login`);
    await page.getByText("A senha está oculta").waitFor({ state: "attached" });
    await login(page, admin.email, admin.password);
    await page.goto(`${e2e.stack.url}/tickets`);

    // The eye on a waiting row opens the conversation read-only; the ticket stays waiting and unread.
    await page.getByTestId("subtab-pending").click();
    const rita = await byName("Rita Espiada");
    await row(page, "Rita Espiada").getByRole("button", { name: "Espiar a conversa" }).click();
    await page.waitForURL(new RegExp(`/tickets/${rita.uuid}\\?peek`));
    const conv = page.getByTestId("conversation");
    await conv.getByTestId("message").filter({ hasText: "Meu pedido chegou quebrado" }).waitFor();
    await conv.getByTestId("peek-note").waitFor();
    await expect(conv.getByRole("textbox", { name: "Digite uma mensagem" }).count()).resolves.toBe(0);
    await page.waitForTimeout(1500); // a read would have been sent by now
    expect(await http(other, "GET", `/api/tickets/${rita.id}`)).toMatchObject({ status: "pending", userId: null, unreadMessages: 1 });
    await expect(row(page, "Rita Espiada").getByTestId("unread").innerText()).resolves.toBe("1");
    await screens(page, "peek");

    // A search hit by a message word shows that message, the word marked; not the last message.
    await page.getByTestId("tab-search").click();
    const searchBox = page.getByRole("searchbox", { name: "Pesquisar atendimentos e mensagens" });
    await searchBox.fill("reembolso");
    const hit = row(page, "Tomás Busca").getByTestId("ticket-preview");
    await hit.getByTestId("search-snippet").waitFor();
    await expect(hit.innerText()).resolves.toBe("Quero o reembolso do pedido 7788, por favor");
    await expect(hit.locator("mark").allInnerTexts()).resolves.toEqual(["reembolso"]);
    await screens(page, "search-snippet", async () => {
      await searchBox.fill("reembolso");
      await hit.getByTestId("search-snippet").waitFor();
    });

    // The chips that do not fit give way to "+N", the rest named in its title; none is cut.
    await page.goto(`${e2e.stack.url}/tickets`);
    await page.getByTestId("tab-open").click();
    await page.getByTestId("subtab-open").click();
    const chips = row(page, "Ulisses Etiquetas").locator(".tl-line3");
    await chips.getByTestId("rating-pending").waitFor({ state: "attached" });
    const more = chips.getByTestId("chips-more");
    await until(async () => (await more.isVisible()) && /^\+\d$/.test(await more.innerText()), "the +N chip");
    const n = Number((await more.innerText()).slice(1));
    const title = (await more.getAttribute("title")) ?? "";
    expect(title.split(", ")).toHaveLength(n);
    expect(title).toContain("Garantia Estendida");
    const fit = await chips.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return [...el.querySelectorAll(":scope > :not(.chip-hidden)")].every((c) => c.getBoundingClientRect().right <= box.right + 0.5);
    });
    expect(fit).toBe(true);
    await screens(page, "ticket-chips");
  }, process.env.SCREENS_DIR ? TEST_MS * 3 : TEST_MS);

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
    await settles(() => dlg.getByRole("combobox", { name: "Fila" }).inputValue(), "Fila Vendas", "inputValue");
    await settles(() => dlg.getByRole("combobox", { name: "Usuário" }).inputValue(), "Sem usuário", "inputValue");
    await settles(() => submit.isDisabled(), true, "isDisabled");
    await dlg.getByTestId("transfer-unchanged").waitFor();
    // The users offered are the chosen queue's: Vendas has Ana and Caio, Suporte only Bia.
    await dlg.getByRole("combobox", { name: "Usuário" }).click();
    await settles(() => dlg.getByRole("option").allInnerTexts(), ["Sem usuário", "Ana Vendas", "Caio Vendas"], "allInnerTexts");
    await page.keyboard.press("Escape");
    const queue = dlg.getByRole("combobox", { name: "Fila" });
    await queue.click();
    await queue.fill("sup");
    await dlg.getByRole("option", { name: "Fila Suporte" }).click();
    await settles(() => submit.isDisabled(), false, "isDisabled");
    await dlg.getByRole("combobox", { name: "Usuário" }).click();
    await settles(() => dlg.getByRole("option").allInnerTexts(), ["Sem usuário", "Bia Suporte"], "allInnerTexts");
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

  it("offers quick messages after '/' in the composer: a text one sent rendered, a media one on the customer's phone", async () => {
    const { admin } = await makeCompany();
    const welcome = await http<{ id: number }>(admin, "POST", "/api/quick-messages", { shortcode: "boasvindas", message: "Olá {{firstName}}! Seja bem-vindo à nossa loja, estamos aqui." });
    await http(admin, "POST", "/api/quick-messages", { shortcode: "desativada", message: "Não oferecer", status: false });
    const wid = await connectedWhatsapp(admin, "Conexão Respostas");
    await customerSays(wid, "5511922220001", "Fábio Cliente", "Oi, tudo bem?");
    const ticket = await until(async () => (await http<{ tickets: { id: number; uuid: string }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "Fábio's ticket");
    await http(admin, "PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: admin.id });
    expect(welcome.id).toBeGreaterThan(0);

    const page = await newPage(await newContext());
    await login(page, admin.email, admin.password);

    // The page: the shortcode is required; a file's spaces become underscores.
    await page.goto(`${e2e.stack.url}/quick-messages`);
    await page.getByTestId("quick-message-row").filter({ hasText: "/boasvindas" }).waitFor();
    await page.getByTestId("quickMessages-add").click();
    const dlg = page.getByRole("dialog", { name: "Adicionar resposta rápida" });
    await dlg.getByTestId("save-quick-message").click();
    await dlg.getByText("Obrigatório").waitFor();
    await dlg.getByRole("textbox", { name: /Atalho/ }).fill("catalogo");
    await dlg.getByRole("textbox", { name: /Mensagem/ }).fill("Segue o catálogo, {{firstName}}.");
    await dlg.getByTestId("quick-message-file").setInputFiles({ name: "tabela de precos.pdf", mimeType: "application/pdf", buffer: PDF });
    await dlg.getByTestId("quick-message-media-name").getByText("tabela de precos.pdf").waitFor();
    await dlg.getByTestId("save-quick-message").click();
    await dlg.waitFor({ state: "hidden" });
    await page.getByTestId("quick-message-row").filter({ hasText: "/catalogo" }).getByText("tabela_de_precos.pdf").waitFor();
    await themedScreens(page, "quick-messages-page", async () => {
      await page.getByTestId("quick-message-row").first().waitFor();
    });

    // "/" in the composer: the list narrows as one types; Enter inserts the text, which goes out rendered.
    await page.goto(`${e2e.stack.url}/tickets/${ticket.uuid}`);
    const conv = page.getByTestId("conversation");
    await conv.getByTestId("message").filter({ hasText: "Oi, tudo bem?" }).waitFor();
    const box = conv.getByRole("textbox", { name: "Digite uma mensagem" });
    await box.fill("/");
    const list = conv.getByTestId("shortcut-list");
    await until(async () => (await list.getByRole("option").allInnerTexts()).length === 2, "the two active quick messages");
    await expect(list.getByRole("option").allInnerTexts()).resolves.toEqual([expect.stringContaining("/boasvindas"), expect.stringContaining("/catalogo")]);
    await expect(list.getByRole("option", { name: /boasvindas/ }).innerText()).resolves.toContain("Olá {{firstName}}! Seja bem-vindo à...");
    await themedScreens(page, "quick-messages-composer", async () => {
      await box.fill("");
      await box.fill("/");
      await list.waitFor();
    });
    await box.fill("/boas");
    await until(async () => (await list.getByRole("option").count()) === 1, "only /boasvindas");
    await box.press("Enter");
    await expect(box.inputValue()).resolves.toBe("Olá {{firstName}}! Seja bem-vindo à nossa loja, estamos aqui.");
    await list.waitFor({ state: "detached" });
    await box.press("Enter");
    await conv.getByTestId("message").filter({ hasText: "Olá Fábio! Seja bem-vindo à nossa loja, estamos aqui." }).waitFor();
    await expect(conv.getByTestId("message").filter({ hasText: "{{firstName}}" }).count()).resolves.toBe(0);

    // A media quick message, chosen with a click, sends its file with its text as the caption.
    await box.fill("/cat");
    await list.getByRole("option", { name: /catalogo/ }).click();
    await conv.getByTestId("message").filter({ hasText: "Segue o catálogo, Fábio." }).waitFor();
    await expect(box.inputValue()).resolves.toBe("");
    const sent = await until(async () => {
      const all = (await (await fetch(`${e2e.stack.url}/sim/whatsapp/${wid}/sent`)).json()) as { content: { document?: { data: string }; fileName?: string; caption?: string } }[];
      return all.find((x) => x.content.document);
    }, "the file on the customer's phone");
    expect(sent.content).toMatchObject({ fileName: "tabela_de_precos.pdf", caption: "Segue o catálogo, Fábio." });
    expect(Buffer.from(sent.content.document?.data ?? "", "base64").equals(PDF)).toBe(true);
  }, TEST_MS);

  it("schedules a message from the conversation: at its minute it reaches the phone, the history and the calendar as sent", async () => {
    const { admin, companyId } = await makeCompany();
    // Logging in revokes a user's other sessions: the calendar's viewer and the API's caller are users of their own.
    const viewer = await makeUser(companyId, { profile: "admin", name: "Vera Agenda" });
    const caller = await makeUser(companyId, { profile: "admin", name: "Api Agenda" });
    const wid = await connectedWhatsapp(admin, "Conexão Agenda");
    await customerSays(wid, "5511933330001", "Gabriela Cliente", "Pode me lembrar amanhã?");
    const ticket = await until(async () => (await http<{ tickets: { id: number; uuid: string }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "Gabriela's ticket");
    await http(admin, "PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: admin.id });

    const page = await newPage(await newContext());
    await login(page, admin.email, admin.password);
    await page.goto(`${e2e.stack.url}/tickets/${ticket.uuid}`);
    const conv = page.getByTestId("conversation");
    await conv.getByTestId("message").filter({ hasText: "Pode me lembrar amanhã?" }).waitFor();

    // The header's button opens the dialog for this contact; the text is checked before anything is saved.
    await conv.getByTestId("conversation-schedule").click();
    const dlg = page.getByRole("dialog", { name: "Agendar mensagem" });
    await expect(dlg.getByTestId("schedule-contact-fixed").inputValue()).resolves.toBe("Gabriela Cliente");
    await dlg.getByRole("textbox", { name: /Mensagem/ }).fill("Oi");
    await dlg.getByTestId("save-schedule").click();
    await dlg.getByText("Mensagem muito curta").waitFor();
    // The browser is in UTC: the next whole minute plus one, as the datetime box takes it.
    const at = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 60_000);
    await dlg.getByRole("textbox", { name: /Mensagem/ }).fill("Lembrete: sua consulta é amanhã, {{firstName}}.");
    await dlg.getByTestId("schedule-send-at").fill(at.toISOString().slice(0, 16));
    await dlg.getByTestId("save-schedule").click();
    await dlg.waitFor({ state: "hidden" });
    const [scheduled] = (await http<{ schedules: { id: number; status: string; sendAt: string }[] }>(caller, "GET", "/api/schedules")).schedules;
    expect(scheduled).toMatchObject({ status: "PENDENTE", sendAt: at.toISOString() });

    // The calendar shows it pending; the minute tick of its time sends it, and the calendar follows live.
    const cal = await newPage(await newContext());
    await login(cal, viewer.email, viewer.password);
    await cal.goto(`${e2e.stack.url}/schedules`);
    const event = cal.getByTestId("schedule-event").filter({ hasText: "Gabriela Cliente" });
    await expect(event.first().getAttribute("data-status")).resolves.toBe("PENDENTE");
    const { handler: tick } = await import("../../functions/src/jobs/tick.ts");
    await tick({ "detail-type": "Scheduled Event", source: "aws.events", time: new Date(at.getTime() + 1000).toISOString() });

    const onPhone = await until(async () => {
      const all = (await (await fetch(`${e2e.stack.url}/sim/whatsapp/${wid}/sent`)).json()) as { content: { text?: string } }[];
      return all.find((x) => x.content.text?.includes("Lembrete: sua consulta"));
    }, "the scheduled text on the customer's phone");
    expect(onPhone.content.text).toContain("Lembrete: sua consulta é amanhã, Gabriela.");
    await conv.getByTestId("message").filter({ hasText: "Lembrete: sua consulta é amanhã, Gabriela." }).waitFor();
    await cal.locator("[data-testid=schedule-event][data-status=ENVIADA]").filter({ hasText: "Gabriela Cliente" }).waitFor();
    expect((await http<{ status: string; sentAt: string | null }>(caller, "GET", `/api/schedules/${scheduled.id}`)).status).toBe("ENVIADA");
    await themedScreens(cal, "schedules-calendar", async () => {
      await cal.getByTestId("schedules-calendar").waitFor();
    });
    await cal.getByTestId("schedules-view-list").click();
    await cal.getByTestId("schedule-row").first().getByTestId("schedule-status").getByText("Enviada").waitFor();
    await themedScreens(cal, "schedules-list", async () => {
      await cal.getByTestId("schedule-row").first().waitFor();
    });
    // With SCREENS_DIR, the dialog in both themes and widths (the theme set before it opens: a modal dialog keeps the
    // top bar's toggle out of reach).
    const dir = process.env.SCREENS_DIR;
    for (const theme of dir ? ["light", "dark"] : []) {
      await page.evaluate((th) => localStorage.setItem("theme", th), theme);
      await page.reload();
      for (const width of [1440, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        await conv.getByTestId("conversation-schedule").click();
        const open = page.getByRole("dialog", { name: "Agendar mensagem" });
        await open.waitFor();
        await page.waitForTimeout(400);
        await page.screenshot({ path: `${dir}/schedules-dialog-${theme}-${width}.png` });
        await page.keyboard.press("Escape");
        await open.waitFor({ state: "hidden" });
      }
    }
  }, TEST_MS);

  it("runs a campaign with two variants and confirmation: the phone gets the confirmation, replies, gets the message; the report reaches Finalizada", async () => {
    const { admin, companyId } = await makeCompany();
    const wid = await connectedWhatsapp(admin, "Conexão Campanhas");
    // Open all week, so the campaign's quiet hours do not hold this test's sends.
    const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
    await http(admin, "PUT", `/api/companies/${companyId}/schedules`, { schedules: days.map((d) => ({ weekday: d, weekdayEn: d, startTime: "00:00", endTime: "23:59" })), timezone: "UTC" });
    await http(admin, "POST", "/api/campaign-settings", { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [{ key: "cupom", value: "NATAL10" }] } });
    await customerSays(wid, "5511944440001", "Helena Campanha", "Quero receber ofertas");
    const ticket = await until(async () => (await http<{ tickets: { id: number }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true")).tickets[0], "Helena's ticket");
    const tag = await http<{ id: number }>(admin, "POST", "/api/tags", { name: "Ofertas", color: "#A4CCCC" });
    await http(admin, "PUT", `/api/ticket-tags/${ticket.id}/${tag.id}`);

    const page = await newPage(await newContext());
    await login(page, admin.email, admin.password);
    await page.goto(`${e2e.stack.url}/campaigns`);
    await page.getByTestId("campaigns-add").click();
    const dlg = page.getByRole("dialog", { name: "Nova campanha" });
    await dlg.getByTestId("campaign-name").fill("N");
    await dlg.getByTestId("save-campaign").click();
    await dlg.getByText("Too Short!").waitFor();
    await dlg.getByTestId("campaign-name").fill("Natal");
    await dlg.getByTestId("campaign-connection").selectOption(String(wid));
    await dlg.getByTestId("campaign-tag").selectOption(String(tag.id));
    await dlg.getByTestId("campaign-message1").fill("Olá {nome}, seu cupom é {cupom}!");
    await dlg.getByTestId("campaign-message2").fill("Oi {nome}, use {cupom} hoje!");
    await dlg.getByTestId("campaign-confirmation").click();
    await dlg.getByTestId("campaign-confirmationMessage1").fill("{nome}, posso enviar nossa oferta de Natal?");
    // Starts now: the browser is in UTC, the box takes local time with seconds.
    await dlg.getByTestId("campaign-scheduled").fill(new Date().toISOString().slice(0, 19));
    await dlg.getByTestId("save-campaign").click();
    await dlg.waitFor({ state: "hidden" });
    const row = page.getByTestId("campaign-row").filter({ hasText: "Natal" });
    await row.getByText("Programada").waitFor();
    const id = Number(await row.getAttribute("data-campaign-id"));

    // The report, open while the campaign runs; the minute tick starts it and the phone gets the confirmation.
    const report = await newPage(await newContext());
    const rita = await makeUser(companyId, { profile: "admin", name: "Rita Relatório" });
    await login(report, rita.email, rita.password);
    await report.goto(`${e2e.stack.url}/campaign/${id}/report`);
    await report.getByTestId("campaign-report-page").waitFor();
    const { handler: tick } = await import("../../functions/src/jobs/tick.ts");
    await tick({ "detail-type": "Scheduled Event", source: "aws.events", time: new Date(Date.now() + 1000).toISOString() });
    const sent = async () => (await (await fetch(`${e2e.stack.url}/sim/whatsapp/${wid}/sent`)).json()) as { content: { text?: string } }[];
    await until(async () => (await sent()).find((x) => x.content.text === "Helena Campanha, posso enviar nossa oferta de Natal?"), "the confirmation on the phone");
    await report.getByTestId("shipping-status").getByText("Aguardando resposta").waitFor();
    await report.getByTestId("campaign-status").getByText("Em Andamento").waitFor();

    // The reply brings the real message (one of the two variants), and the report ends live.
    await customerSays(wid, "5511944440001", "Helena Campanha", "Sim, pode enviar");
    const message = await until(async () => (await sent()).find((x) => /cupom|use NATAL10/.test(x.content.text ?? "")), "the campaign message on the phone", 60_000);
    expect(["Olá Helena Campanha, seu cupom é NATAL10!", "Oi Helena Campanha, use NATAL10 hoje!"]).toContain(message.content.text);
    await report.getByTestId("campaign-status").getByText("Finalizada").waitFor();
    await report.getByTestId("campaign-progress").getByText("1 de 1 entregues").waitFor();
    await report.getByTestId("shipping-status").getByText("Entregue").waitFor();
    // A finished campaign's dialog is read-only.
    await page.reload();
    await row.getByTestId("campaign-edit").click();
    await page.getByTestId("campaign-readonly").waitFor();
  }, TEST_MS);
});
