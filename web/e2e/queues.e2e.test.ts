/**
 * Browser proof of queues, the option tree, settings and connection automation (admin side), with playwright-core + Debian chromium against the whole local
 * stack in-process:
 * - Settings (/settings): a changed option is saved at once ('Operação atualizada com sucesso.') and another tab of
 *   the admin shows it without a reload; `scheduleType` = queue brings the queue dialog's schedules tab;
 * - the queue dialog refuses "azul" as a colour, sets the weekly schedules ('Clique em salvar para registar as
 *   alterações'), saves and stays open on the new queue's options; its option editor builds a two-level tree in place
 *   and reorders an option from the keyboard;
 *   the API then holds that tree and those hours;
 * - every option of the Opções tab (its ten options) is saved at once with its toast and shows without a reload
 *   on another admin's screen; `scheduleType` = company brings the Horários tab (to both) with the default
 *   hours, whose edit and time zone are saved ('Horários atualizados com sucesso.'), and the queue dialog then has no
 *   schedules tab;
 * - the connection dialog at 1440×900: saving with an empty name focuses the name field in view; two queues and no
 *   greeting show `ERR_WAPP_GREETING_REQUIRED` under the greeting, focused; its messages, timers, bot limits and
 *   transfer queue are then saved as typed;
 * - a super user's Planos tab: a plan added (name required), a second of the same name refused with the product's
 *   failure text, changed and deleted; an admin has no such tab;
 * - a super user's Logo tab: the form's three refusals; PNG and SVG logos for the menu (light and dark), the login
 *   page and the favicons show without a reload on an admin's open tab (realtime frame) and on a login page (read again
 *   when the tab comes back into view); an SVG's script is gone; an admin opening the tab by its address gets 'Sem
 *   permissão para acessar!' and goes to / after 0.5 s; at 375 px the Settings page's tabs scroll sideways and the
 *   one opened by its address (`?tab=`) is in view;
 * - /queue-integration: an admin adds a Typebot integration (name required, the fields of its type), sees it with its
 *   type icon and the count, and picks it in the queue dialog's integration select; an agent has no such menu item.
 * With `SCREENSHOTS_DIR` set, it also saves the queue dialog, option editor, Settings page, connection dialog, Logo
 * tab and the login and sign-up pages with the uploaded logos, light and dark, at 1440 and 375 px wide.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeCompany, makeUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("queues");
const { newContext, newPage, login, http, until, toast } = e2e;
const SHOTS = process.env.SCREENSHOTS_DIR;

/** The browser's own session token (the browser login revoked the test user's earlier one). */
const tokenOf = async (page: Page) => ({ token: JSON.parse((await page.evaluate(() => localStorage.getItem("token"))) ?? '""') as string });

/** Closes the toasts on screen, so that the next one waited for is the next action's. */
async function dismissToasts(page: Page) {
  const toasts = page.getByTestId("toast");
  while ((await toasts.count()) > 0) await toasts.first().getByRole("button", { name: "Fechar" }).click({ timeout: 1000 }).catch(() => undefined);
}

/** The Opções tab's ten options by setting key, with their labels. */
const OPTION_LABELS: [string, string][] = [
  ["userRating", "Avaliações"],
  ["scheduleType", "Gerenciamento de expediente"],
  ["CheckMsgIsGroup", "Ignorar mensagens de grupos"],
  ["call", "Aceitar chamadas"],
  ["chatBotType", "Tipo do chatbot"],
  ["sendGreetingAccepted", "Enviar saudação ao aceitar o atendimento"],
  ["sendMsgTransfTicket", "Enviar mensagem de transferência de fila/agente"],
  ["sendGreetingMessageOneQueues", "Enviar saudação quando houver somente 1 fila"],
  ["viewclosed", "Agente vê atendimentos fechados"],
  ["viewgroups", "Agente vê grupos"],
];

/**
 * Screenshots (only with SCREENSHOTS_DIR) in light and dark at 1440×900 and 375×812: each one loads `path` afresh in
 * that colour scheme (the app reads the system preference on load) and runs `open` to bring up what is shown.
 */
async function shots(page: Page, name: string, path: string, open: () => Promise<void> = async () => undefined) {
  if (!SHOTS) return;
  for (const scheme of ["light", "dark"] as const) {
    for (const [w, h] of [
      [1440, 900],
      [375, 812],
    ]) {
      await page.evaluate(() => localStorage.removeItem("theme"));
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${e2e.stack.url}${path}`);
      await open();
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SHOTS}/${name}-${scheme}-${w}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** True when the focused element is the one `testId`/label locator names and it lies inside the viewport. */
async function focusedInView(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const el = document.querySelector<HTMLElement>(sel);
    if (!el || document.activeElement !== el) return false;
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  }, selector);
}

describe("queues, options and settings in the browser", () => {
  it(
    "saves each of the ten options at once with a toast, live for another admin; company hours with the default week in the Horários tab",
    async () => {
      const { companyId, admin } = await makeCompany();
      const second = await makeUser(companyId, { profile: "admin", name: "Outra Admin" });
      const page = await newPage(await newContext());
      await login(page, admin.email, admin.password);
      const other = await newPage(await newContext());
      await login(other, second.email, second.password);
      await page.goto(`${e2e.stack.url}/settings`);
      await other.goto(`${e2e.stack.url}/settings`);
      const token = await tokenOf(page);
      const stored = async () => Object.fromEntries((await http<{ key: string; value: string }[]>(token, "GET", "/api/settings")).map((s) => [s.key, s.value]));
      const before = await stored();
      const options = page.getByTestId("settings-options").getByRole("combobox");
      await until(async () => (await options.count()) === OPTION_LABELS.length, "the ten options on the settings page");
      for (const [key, label] of OPTION_LABELS) {
        const mine = page.getByRole("combobox", { name: label, exact: true });
        const theirs = other.getByRole("combobox", { name: label, exact: true });
        await expect(mine.inputValue()).resolves.toBe(before[key]);
        const values = await mine.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
        if (key === "chatBotType") {
          // `text` is the only chatbot type: nothing to change.
          expect(values).toEqual(["text"]);
          await expect(theirs.inputValue()).resolves.toBe("text");
          continue;
        }
        const next = key === "scheduleType" ? "company" : values.find((v) => v !== before[key])!;
        await dismissToasts(page);
        await mine.selectOption(next);
        await toast(page, "Operação atualizada com sucesso.").waitFor();
        await until(async () => (await theirs.inputValue()) === next, `the other admin's ${key}`);
        await expect(stored().then((s) => s[key])).resolves.toBe(next);
      }

      // scheduleType = company: the Horários tab, for the other admin too, with the default week.
      await until(async () => (await other.getByRole("tab", { name: "Horários" }).count()) === 1, "the other admin's Horários tab");
      await page.getByRole("tab", { name: "Horários" }).click();
      const hours = (day: string, edge: "start" | "end") => page.getByTestId(`company-schedules-${day}-${edge}`);
      const week = async () => {
        const out: string[] = [];
        for (const day of ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]) out.push(`${day} ${await hours(day, "start").inputValue()}-${await hours(day, "end").inputValue()}`);
        return out;
      };
      await expect(week()).resolves.toEqual([
        "monday 08:00-18:00",
        "tuesday 08:00-18:00",
        "wednesday 08:00-18:00",
        "thursday 08:00-18:00",
        "friday 08:00-18:00",
        "saturday 08:00-12:00",
        "sunday 00:00-00:00",
      ]);
      await expect(page.getByRole("combobox", { name: "Fuso horário" }).inputValue()).resolves.toBe("America/Sao_Paulo");
      await hours("saturday", "end").fill("13:00");
      await page.getByRole("combobox", { name: "Fuso horário" }).selectOption("America/Manaus");
      await dismissToasts(page);
      await page.getByTestId("save-hours").click();
      await toast(page, "Horários atualizados com sucesso.").waitFor();
      const company = await http<{ timezone: string; schedules: { weekdayEn: string; startTime: string; endTime: string }[] }>(token, "GET", `/api/companies/listPlan/${companyId}`);
      expect(company.timezone).toBe("America/Manaus");
      expect(company.schedules.find((s) => s.weekdayEn === "saturday")).toMatchObject({ startTime: "08:00", endTime: "13:00" });

      // The queue dialog has weekly schedules only when scheduleType is `queue`.
      await page.goto(`${e2e.stack.url}/queues`);
      await page.getByRole("button", { name: "Adicionar fila" }).click();
      const dlg = page.getByRole("dialog", { name: "Adicionar fila" });
      await dlg.getByRole("textbox", { name: /^Nome/ }).waitFor();
      await expect(dlg.getByRole("tab", { name: "Horários de atendimento" }).count()).resolves.toBe(0);
    },
    TEST_MS * 2,
  );

  it(
    "toggles a setting live in a second tab, creates a queue with schedules and a two-level option tree, reorders an option, focuses invalid connection fields and saves every connection automation field",
    async () => {
      const { admin } = await makeCompany();
      const vendas = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Vendas", color: "#43a047" });
      const ctx = await newContext();
      const page = await newPage(ctx);
      await login(page, admin.email, admin.password);

      // Settings: the first tab changes scheduleType; a second tab shows it live.
      await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Configurações" }).click();
      await page.waitForURL(`${e2e.stack.url}/settings`);
      const other = await newPage(ctx);
      await other.goto(`${e2e.stack.url}/settings`);
      const otherSchedule = other.getByRole("combobox", { name: "Gerenciamento de expediente" });
      await expect(otherSchedule.inputValue()).resolves.toBe("disabled");
      await page.getByRole("combobox", { name: "Gerenciamento de expediente" }).selectOption("queue");
      await toast(page, "Operação atualizada com sucesso.").waitFor();
      await until(async () => (await otherSchedule.inputValue()) === "queue", "the other tab's scheduleType");
      await page.getByRole("combobox", { name: "Agente vê grupos" }).selectOption("enabled");
      await until(async () => (await other.getByRole("combobox", { name: "Agente vê grupos" }).inputValue()) === "enabled", "the other tab's viewgroups");
      await expect(page.getByRole("tab", { name: "Horários" }).count()).resolves.toBe(0);

      // A queue: "azul" is refused under the field; schedules; saved.
      await page.goto(`${e2e.stack.url}/queues`);
      await page.getByRole("button", { name: "Adicionar fila" }).click();
      const dlg = page.getByRole("dialog", { name: "Adicionar fila" });
      await dlg.getByRole("textbox", { name: /^Nome/ }).fill("Suporte");
      await dlg.getByRole("textbox", { name: /^Cor/ }).fill("azul");
      await dlg.getByRole("textbox", { name: "Mensagem fora do expediente" }).fill("Estamos fechados.");
      await dlg.getByRole("tab", { name: "Horários de atendimento" }).click();
      await dlg.getByTestId("schedules-monday-start").fill("09:00");
      await toast(page, "Clique em salvar para registar as alterações").waitFor();
      await dlg.getByRole("button", { name: "Salvar" }).click();
      // The invalid colour is on the first tab: it comes forward with the field focused.
      await dlg.getByText("Cor inválida").first().waitFor();
      await until(() => focusedInView(page, 'dialog input[name="color"]'), "the colour field focused");
      await dlg.getByRole("textbox", { name: /^Cor/ }).fill("#1e88e5");
      await dlg.getByRole("button", { name: "Salvar" }).click();
      await toast(page, "Fila salva com sucesso!").waitFor();
      // The dialog stays open, now editing the new queue, on its chatbot options: they are added right away.
      const edit = page.getByRole("dialog", { name: "Editar fila" });
      await edit.getByRole("tab", { name: "Opções do chatbot", selected: true }).waitFor();
      await expect(edit.getByText("Salve a fila para adicionar opções do chatbot.").count()).resolves.toBe(0);
      const token = await tokenOf(page);
      const queues = await http<{ id: number; name: string; schedules: { weekdayEn: string; startTime: string }[]; outOfHoursMessage: string }[]>(token, "GET", "/api/queue");
      const suporte = queues.find((q) => q.name === "Suporte")!;
      expect(suporte.outOfHoursMessage).toBe("Estamos fechados.");
      expect(suporte.schedules.find((s) => s.weekdayEn === "monday")?.startTime).toBe("09:00");

      // The option editor: a two-level tree, edited in place.
      const editor = edit.getByTestId("option-editor");
      const nodes = editor.getByTestId("option-node");
      const addOption = async (title: string, under?: string) => {
        const before = await nodes.count();
        if (under) await editor.locator(`[data-option-title="${under}"]`).first().getByTestId("option-add-child").first().click();
        else await editor.getByTestId("option-add-root").click();
        await until(async () => (await nodes.count()) === before + 1, `option ${title} added`);
        const fresh = editor.locator('[data-option-title="Nova opção"]').getByTestId("option-title").first();
        await fresh.fill(title);
        await fresh.press("Tab");
        await editor.locator(`[data-option-title="${title}"]`).first().waitFor();
      };
      await addOption("Financeiro");
      await addOption("Técnico");
      await addOption("Boleto", "Financeiro");
      await addOption("Pix", "Financeiro");
      await editor.locator('[data-option-title="Boleto"]').getByTestId("option-message").fill("Segue a segunda via.");
      await editor.locator('[data-option-title="Boleto"]').getByTestId("option-message").press("Tab");
      await toast(page, "Opção salva").first().waitFor();

      // Keyboard reorder: Técnico's handle, Space, ArrowUp, Space → Técnico becomes option 1.
      const handle = editor.getByRole("button", { name: "Arrastar para reordenar: Técnico" });
      await handle.focus();
      await page.keyboard.press("Space");
      await page.waitForTimeout(200);
      await page.keyboard.press("ArrowUp");
      await page.waitForTimeout(200);
      await page.keyboard.press("Space");
      const tree = async () => http<{ title: string; option: string; message: string; children: { title: string; option: string; message: string }[] }[]>(token, "GET", `/api/queue-options?queueId=${suporte.id}&parentId=-1`);
      await until(async () => (await tree())[0]?.title === "Técnico", "Técnico moved to the top");
      const saved = await tree();
      expect(saved.map((n) => `${n.option} ${n.title}`)).toEqual(["1 Técnico", "2 Financeiro"]);
      expect(saved[1].children.map((n) => `${n.option} ${n.title}`)).toEqual(["1 Boleto", "2 Pix"]);
      expect(saved[1].children[0].message).toBe("Segue a segunda via.");
      await until(async () => (await nodes.first().getAttribute("data-option-title")) === "Técnico", "the editor shows the new order");
      await edit.getByRole("button", { name: "Cancelar" }).click();
      await edit.waitFor({ state: "hidden" });
      // One queue was created, however many times the dialog was saved.
      expect((await http<{ name: string }[]>(token, "GET", "/api/queue")).filter((q) => q.name === "Suporte")).toHaveLength(1);

      // The connection dialog at 1440×900: an empty name is focused in view; two queues need a greeting.
      await page.goto(`${e2e.stack.url}/connections`);
      await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
      const conn = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
      await conn.getByText("Vendas", { exact: true }).first().click();
      await conn.getByText("Suporte", { exact: true }).first().click();
      await conn.getByTestId("save-connection").click();
      await until(() => focusedInView(page, 'dialog input[name="name"]'), "the empty name focused in view");
      await conn.getByRole("textbox", { name: /^Nome/ }).fill("Loja");
      await conn.getByTestId("save-connection").click();
      await conn.getByText("A mensagem de saudação é obrigatória quando há mais de uma fila.").waitFor();
      await until(() => focusedInView(page, 'dialog textarea[name="greetingMessage"]'), "the greeting focused in view");
      await conn.getByRole("textbox", { name: "Mensagem de saudação" }).fill("Olá! Escolha uma fila:");
      // Every other automation field of the connection (docs/product/connections.md#fields).
      const fields: [string, string][] = [
        ["Mensagem de conclusão", "Obrigado pelo contato!"],
        ["Mensagem de fora de expediente", "Estamos fechados agora."],
        ["Mensagem de avaliação", "Como foi o atendimento?"],
        ["Mensagem de encerramento por inatividade", "Encerrado por inatividade."],
        ["Encerrar chats abertos após (minutos)", "30"],
        ["Transferir após (minutos)", "15"],
        ["Tempo do chatbot (minutos)", "10"],
        ["Máximo de envios do chatbot", "2"],
        ["Minutos aguardando a avaliação", "60"],
      ];
      for (const [label, value] of fields) await conn.getByRole("textbox", { name: label, exact: true }).fill(value);
      await conn.getByRole("combobox", { name: "Fila de transferência" }).selectOption({ label: "Suporte" });
      await conn.getByTestId("save-connection").click();
      await toast(page, "Conexão salva com sucesso!").waitFor();
      const wapps = await http<Record<string, unknown>[]>(token, "GET", "/api/whatsapp");
      const loja = wapps.find((w) => w.name === "Loja")!;
      expect((loja.queueIds as number[]).sort()).toEqual([vendas.id, suporte.id].sort());
      expect(loja).toMatchObject({
        greetingMessage: "Olá! Escolha uma fila:",
        complationMessage: "Obrigado pelo contato!",
        outOfHoursMessage: "Estamos fechados agora.",
        ratingMessage: "Como foi o atendimento?",
        expiresInactiveMessage: "Encerrado por inatividade.",
        expiresTicket: 30,
        timeToTransfer: 15,
        timeUseBotQueues: 10,
        maxUseBotQueues: 2,
        ratingWaitMinutes: 60,
        transferQueueId: suporte.id,
      });

      // At 375 px the queue dialog's three tabs are whole on screen: none cut, no hidden scroll.
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(`${e2e.stack.url}/queues`);
      await page.getByTestId("queue-row").filter({ hasText: "Suporte" }).getByTestId("queue-edit").click();
      const narrow = page.getByRole("dialog", { name: "Editar fila" });
      await narrow.getByRole("tab", { name: "Opções do chatbot" }).click();
      const tabs = await narrow.getByRole("tablist").evaluate((list) => ({
        overflow: list.scrollWidth - list.clientWidth,
        cut: [...list.querySelectorAll('[role="tab"]')].filter((tab) => {
          const r = tab.getBoundingClientRect();
          const l = list.getBoundingClientRect();
          return r.left < l.left - 0.5 || r.right > l.right + 0.5 || tab.scrollWidth > tab.clientWidth;
        }).length,
        count: list.querySelectorAll('[role="tab"]').length,
      }));
      expect(tabs).toEqual({ overflow: 0, cut: 0, count: 3 });
      await narrow.getByRole("button", { name: "Cancelar" }).click();
      await page.setViewportSize({ width: 1440, height: 900 });

      // Screenshots of the four screens (SCREENSHOTS_DIR only).
      await shots(page, "settings-page", "/settings", async () => {
        await page.getByRole("combobox", { name: "Gerenciamento de expediente" }).waitFor();
      });
      const editSuporte = async () => {
        await page.getByTestId("queue-row").filter({ hasText: "Suporte" }).getByTestId("queue-edit").click();
        await page.getByRole("dialog", { name: "Editar fila" }).waitFor();
      };
      await shots(page, "queue-dialog", "/queues", editSuporte);
      await shots(page, "queue-schedules", "/queues", async () => {
        await editSuporte();
        await page.getByRole("tab", { name: "Horários de atendimento" }).click();
      });
      await shots(page, "option-editor", "/queues", async () => {
        await editSuporte();
        await page.getByRole("tab", { name: "Opções do chatbot" }).click();
        await page.locator('[data-option-title="Pix"]').waitFor();
      });
      await shots(page, "connection-dialog", "/connections", async () => {
        await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
        const d = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
        await d.getByText("Vendas", { exact: true }).first().click();
        await d.getByText("Suporte", { exact: true }).first().click();
        await d.getByRole("textbox", { name: /^Nome/ }).fill("Outra loja");
        await d.getByTestId("save-connection").click();
        await d.getByText("A mensagem de saudação é obrigatória quando há mais de uma fila.").waitFor();
      });
    },
    TEST_MS * 4,
  );

  it("lets a super user add, change and delete a plan in the Planos tab, which an admin does not see", async () => {
    const root = await makeCompany({ adminSuper: true });
    const { admin } = await makeCompany();
    const page = await newPage(await newContext());
    await login(page, root.admin.email, root.admin.password);
    await page.goto(`${e2e.stack.url}/settings`);
    const token = await tokenOf(page);
    await page.getByRole("tab", { name: "Planos" }).click();
    const name = `Plano Bronze ${root.companyId}`;
    await page.getByTestId("plans-add").click();
    const dlg = page.getByRole("dialog", { name: "Adicionar plano" });
    await dlg.getByTestId("save-plan").click();
    await dlg.getByText("Obrigatório").waitFor();
    await dlg.getByRole("textbox", { name: /^Nome/ }).fill(name);
    await dlg.getByRole("textbox", { name: "Usuários" }).fill("7");
    await dlg.getByRole("textbox", { name: "Valor (R$)" }).fill("89,90");
    await dlg.getByText("Kanban", { exact: true }).click();
    await expect(dlg.getByRole("switch", { name: "Kanban" }).isChecked()).resolves.toBe(true);
    await dlg.getByTestId("save-plan").click();
    await toast(page, "Plano salvo com sucesso!").waitFor();
    const row = page.getByTestId("plan-row").filter({ hasText: name });
    await expect(row.innerText()).resolves.toMatch(/7[\s\S]*R\$\s?89,90[\s\S]*Kanban/);
    const stored = (await http<{ name: string; users: number; valueCents: number; useKanban: boolean }[]>(token, "GET", "/api/plans/all")).find((p) => p.name === name);
    expect(stored).toMatchObject({ users: 7, valueCents: 8990, useKanban: true });
    // A second plan of the same name: the product's failure toast, and the reason under the name.
    await page.getByTestId("plans-add").click();
    const twin = page.getByRole("dialog", { name: "Adicionar plano" });
    await twin.getByRole("textbox", { name: /^Nome/ }).fill(name);
    await twin.getByTestId("save-plan").click();
    await toast(page, "Não foi possível realizar a operação. Verifique se já existe um plano com o mesmo nome ou se os campos foram preenchidos corretamente").waitFor();
    await twin.getByText("Já existe um plano com este nome.").waitFor();
    await twin.getByRole("button", { name: "Cancelar" }).click();
    await twin.waitFor({ state: "hidden" });

    await row.getByTestId("plan-edit").click();
    const edit = page.getByRole("dialog", { name: "Editar plano" });
    await edit.getByRole("textbox", { name: "Filas" }).fill("4");
    await edit.getByTestId("save-plan").click();
    await edit.waitFor({ state: "hidden" });
    await until(async () => (await http<{ name: string; queues: number }[]>(token, "GET", "/api/plans/all")).find((p) => p.name === name)?.queues === 4, "the plan's queues saved");

    await row.getByTestId("plan-delete").click();
    await page.getByRole("button", { name: "Sim" }).click();
    await row.waitFor({ state: "detached" });
    await shots(page, "plans-tab", "/settings", async () => {
      await page.getByRole("tab", { name: "Planos" }).click();
      await page.getByTestId("plan-row").first().waitFor();
    });

    const other = await newPage(await newContext());
    await login(other, admin.email, admin.password);
    await other.goto(`${e2e.stack.url}/settings`);
    await other.getByRole("tab", { name: "Opções" }).waitFor();
    expect(await other.getByRole("tab", { name: "Planos" }).count()).toBe(0);
  }, TEST_MS);

  it("lets an admin add a Typebot integration (Required, the fields of its type), see it with its icon and count, and pick it in the queue dialog; an agent is kept out", async () => {
    const { admin, companyId } = await makeCompany();
    const agent = await makeUser(companyId, { profile: "user" });
    const page = await newPage(await newContext());
    await login(page, admin.email, admin.password);
    const token = await tokenOf(page);
    await http(token, "POST", "/api/queue", { name: "Vendas", color: "#2E7D32" });
    await page.goto(`${e2e.stack.url}/queue-integration`);
    await page.getByTestId("queueIntegrations-add").click();
    const dlg = page.getByRole("dialog", { name: "Adicionar projeto" });
    await dlg.getByTestId("save-integration").click();
    await dlg.getByText("Required").first().waitFor();
    await dlg.getByRole("textbox", { name: /^Nome/ }).fill("Atendimento bot");
    await dlg.getByRole("textbox", { name: /URL do servidor Typebot/ }).fill("https://typebot.example.com");
    await dlg.getByRole("textbox", { name: /Typebot - Slug/ }).fill("atendimento");
    await dlg.getByRole("textbox", { name: /Palavra para reiniciar/ }).fill("menu");
    await dlg.getByTestId("save-integration").click();
    await toast(page, "Integração salva com sucesso.").waitFor();
    const row = page.getByTestId("integration-row").filter({ hasText: "Atendimento bot" });
    await row.getByTestId("integration-type").getByText("Typebot").waitFor({ state: "attached" });
    await page.getByText("1 integração(ões)").waitFor();
    const [stored] = (await http<{ queueIntegrations: { id: number; typebotSlug: string; typebotKeywordRestart: string; typebotDelayMessage: number; projectName: string }[] }>(token, "GET", "/api/queueIntegration")).queueIntegrations;
    expect(stored).toMatchObject({ typebotSlug: "atendimento", typebotKeywordRestart: "menu", typebotDelayMessage: 1000, projectName: "Atendimento bot" });

    // Switching the type to webhook shows the URL and hides the Typebot fields.
    await page.getByTestId("queueIntegrations-add").click();
    const add = page.getByRole("dialog", { name: "Adicionar projeto" });
    await add.getByTestId("integration-type-select").selectOption("webhook");
    expect(await add.getByRole("textbox", { name: /Typebot - Slug/ }).count()).toBe(0);
    await add.getByRole("textbox", { name: /^URL/ }).waitFor();
    await add.getByRole("button", { name: "Cancelar" }).click();

    await page.goto(`${e2e.stack.url}/queues`);
    await page.getByTestId("queue-row").filter({ hasText: "Vendas" }).getByTestId("queue-edit").click();
    const qd = page.getByRole("dialog", { name: /Editar fila/ });
    await qd.getByRole("combobox", { name: "Integração" }).selectOption({ label: "Atendimento bot" });
    await qd.getByTestId("save-queue").click();
    await until(async () => (await http<{ name: string; integrationId: number | null }[]>(token, "GET", "/api/queue")).find((q) => q.name === "Vendas")?.integrationId === stored.id, "the queue's integration saved");

    await shots(page, "integrations-page", "/queue-integration", async () => {
      await page.getByTestId("integration-row").first().waitFor();
    });
    await shots(page, "integration-dialog", "/queue-integration", async () => {
      await page.getByTestId("integration-edit").first().click();
      await page.getByRole("dialog", { name: "Editar projeto" }).waitFor();
    });

    const other = await newPage(await newContext());
    await login(other, agent.email, agent.password);
    expect(await other.getByRole("link", { name: "Integrações" }).count()).toBe(0);
  }, TEST_MS);

  it("lets a super user upload light and dark logos shown live on an admin's tab and a login page, cleans an SVG's script, and refuses the Logo tab to an admin", async () => {
    const root = await makeCompany({ adminSuper: true });
    const { admin } = await makeCompany();
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAGAAAAAgCAIAAABiouoDAAAAQ0lEQVR42u3QMQ0AAAgDsFnE/4+OOeAnaVIFzU44KBAkSJAgQYIECUKQIEGCBAkSJAhBggQJEiRIkCAECRIkSJCgxwqbZZTTVPNbIAAAAABJRU5ErkJggg==", "base64");
    const svg = (fill: string, text: string) =>
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 48" width="200" height="48" onload="alert(1)"><script>alert(document.cookie)</script><rect width="200" height="48" rx="8" fill="${fill}"/><text x="100" y="31" font-size="22" text-anchor="middle" fill="#fff" font-family="sans-serif">${text}</text></svg>`);

    // Already open before any upload: an admin's tab (with its socket) and a login page (no socket).
    const adminPage = await newPage(await newContext());
    await login(adminPage, admin.email, admin.password);
    const loginPage = await newPage(await newContext());
    await loginPage.goto(`${e2e.stack.url}/login`);
    await loginPage.getByRole("button", { name: "Entrar", exact: true }).waitFor();
    expect(await adminPage.getByTestId("logo-interno").count()).toBe(0);
    expect(await loginPage.getByTestId("logo-login").count()).toBe(0);

    const page = await newPage(await newContext());
    await login(page, root.admin.email, root.admin.password);
    const token = await tokenOf(page);
    await page.goto(`${e2e.stack.url}/settings?tab=logo`);
    const tab = page.getByTestId("logo-tab");
    const send = async (ref: string, file: { name: string; mimeType: string; buffer: Buffer }) => {
      await tab.getByRole("combobox", { name: "Destino" }).selectOption(ref);
      await tab.getByTestId("logo-file").setInputFiles(file);
      await tab.getByTestId("logo-send").click();
      await toast(page, "Arquivo enviado com sucesso!").waitFor();
      await dismissToasts(page);
    };
    await tab.getByTestId("logo-send").click();
    await tab.getByText("Escolha um arquivo!").waitFor();
    await tab.getByTestId("logo-file").setInputFiles({ name: "marca.png", mimeType: "image/png", buffer: png });
    await tab.getByTestId("logo-send").click();
    await tab.getByText("Escolha um destino!").waitFor();
    await tab.getByRole("combobox", { name: "Destino" }).selectOption("interno");
    await tab.getByTestId("logo-file").setInputFiles({ name: "marca.gif", mimeType: "image/gif", buffer: Buffer.from("47494638396101000100", "hex") });
    await tab.getByTestId("logo-send").click();
    await tab.getByText("Use somente arquivos em formato PNG, ICO ou SVG!").waitFor();

    await send("interno", { name: "menu.png", mimeType: "image/png", buffer: png });
    await send("interno-dark", { name: "menu-escuro.svg", mimeType: "image/svg+xml", buffer: svg("#263238", "Minha Marca") });
    await send("login", { name: "login.svg", mimeType: "image/svg+xml", buffer: svg("#1565c0", "Minha Marca") });
    await send("login-dark", { name: "login-escuro.svg", mimeType: "image/svg+xml", buffer: svg("#0d47a1", "Minha Marca") });
    await send("favicon", { name: "favicon.png", mimeType: "image/png", buffer: png });
    await send("apple-touch-icon", { name: "apple.png", mimeType: "image/png", buffer: png });
    await tab.locator(".logo-card").nth(5).waitFor();

    // The stored SVG keeps its drawing and loses its script and handler.
    const logos = (await http<{ logos: { ref: string; url: string }[] }>(token, "GET", "/api/logos")).logos;
    const stored = await (await fetch(logos.find((l) => l.ref === "interno-dark")!.url)).text();
    expect(stored).toContain("Minha Marca");
    for (const gone of ["<script", "onload", "alert("]) expect(stored).not.toContain(gone);

    // The admin's open tab shows the new menu logo and head icons without a reload (the company-{id}-logo frame).
    const src = (p: Page, id: string) => p.getByTestId(id).getAttribute("src", { timeout: 1000 }).catch(() => null);
    const head = (p: Page, selector: string) => p.evaluate((s) => document.head.querySelector(s)?.getAttribute("href") ?? "", selector);
    await until(async () => (await src(adminPage, "logo-interno"))?.includes("/logos/"), "the menu logo on the admin's open tab");
    await until(async () => (await head(adminPage, "link[rel='icon']:not([sizes])")).includes("/logos/"), "the admin tab's favicon");
    await until(async () => (await head(adminPage, "link[rel='apple-touch-icon']")).includes("/logos/"), "the admin tab's apple-touch-icon");
    const lightMenu = (await src(adminPage, "logo-interno"))!;
    expect(await adminPage.getByTestId("logo-interno").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    // In dark mode the menu shows the dark logo.
    await adminPage.getByRole("button", { name: "Usar tema escuro" }).first().click();
    await until(async () => {
      const dark = await src(adminPage, "logo-interno");
      return dark && dark !== lightMenu && dark.includes("/logos/");
    }, "the dark menu logo");

    // The login page (no socket) reads the logos again when its tab comes back into view.
    await loginPage.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
    await until(async () => (await src(loginPage, "logo-login"))?.includes("/logos/"), "the login page's logo");
    await until(async () => (await head(loginPage, "link[rel='icon']:not([sizes])")).includes("/logos/"), "the login page's favicon");

    // At 375 px the super user's seven tabs scroll sideways, and the one opened by its address is in view.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${e2e.stack.url}/settings?tab=helps`);
    const helpsTab = page.getByRole("tab", { name: "Ajuda" });
    await until(async () => (await helpsTab.getAttribute("aria-selected")) === "true", "the Ajuda tab chosen by the address");
    await until(async () => {
      const box = await helpsTab.boundingBox();
      return box && box.x >= 0 && box.x + box.width <= 375;
    }, "the Ajuda tab in view at 375 px");
    const strip = await page.getByRole("tablist").first().evaluate((list) => ({ scrolls: list.scrollWidth > list.clientWidth, overflowX: getComputedStyle(list).overflowX }));
    expect(strip).toEqual({ scrolls: true, overflowX: "auto" });
    await page.setViewportSize({ width: 1440, height: 900 });

    await shots(page, "logo-tab", "/settings?tab=logo", async () => {
      await page.getByTestId("logo-tab").locator(".logo-card").nth(5).waitFor();
    });
    await http(token, "PUT", "/api/settings/allowregister", { key: "allowregister", value: "enabled" });
    const anon = await newPage(await newContext());
    await anon.goto(`${e2e.stack.url}/signup`);
    await until(async () => (await src(anon, "logo-signup"))?.includes("/logos/"), "the sign-up page's logo (the login page's until it has its own)");
    await shots(anon, "login-logo", "/login", async () => {
      await anon.getByTestId("logo-login").waitFor();
    });
    await shots(anon, "signup-logo", "/signup", async () => {
      await anon.getByTestId("logo-signup").waitFor();
    });
    await http(token, "PUT", "/api/settings/allowregister", { key: "allowregister", value: "disabled" });

    // An admin (not super) opening the Logo tab by its address: the message, then / after 0.5 s.
    await adminPage.goto(`${e2e.stack.url}/settings?tab=logo`);
    await toast(adminPage, "Sem permissão para acessar!").waitFor();
    await adminPage.waitForURL(`${e2e.stack.url}/`);
    expect(await adminPage.getByTestId("logo-tab").count()).toBe(0);
  }, TEST_MS);
});
