/**
 * Browser proof of the chatbot, the automatic messages and ratings, played from the sandbox phone; playwright-core + Debian chromium
 * against the whole local stack in-process, with the session runner on the simulated WhatsApp network:
 * a connection with two queues and a greeting; queue 2 ("Suporte") with a two-level option tree whose leaf carries a
 * message and a PDF. The customer, typing on the sandbox phone page (`/sandbox`), writes, gets the menu, answers
 * wrong twice (the menu again each time), picks queue 2, walks the tree with `0`, goes back to the start with `#` (the
 * ticket leaves the queue; the greeting and the queue menu again), picks queue 2 again, reaches the leaf (its text
 * and its file, with its name and real size); the ticket is then pending in queue 2 on the screen of queue 2's agent
 * and absent from the screen of queue 1's agent, its conversation showing the bot's messages as automatic; queue 2's agent accepts (`sendGreetingAccepted`: the greeting naming
 * the agent reaches the phone), resolves (`userRating`: the rating prompt reaches the phone and the row shows
 * "Aguardando avaliação"), the customer rates 3, the completion message arrives, the ticket closes, and the rating
 * is stored for that agent (rating item and daily counters: no screen shows ratings yet).
 * Every exact text the phone shows is asserted, in order.
 * Also: an admin writes an AI prompt on the Prompts page ('Informe o setor' without a sector), a queue with it answers
 * the customer through the local AI stand-in, and asking for a person hands the ticket to the prompt's queue, pending
 * on its agent's screen.
 * Also: an admin's open queue dialog shows another admin's option edits (create, rename, move, delete) live, through
 * the `company-{id}-queueOption` frames.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { readDailyCounters } from "../../shared/src/db/counters.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { queryAllByPrefix } from "../../shared/src/db/query.ts";
import { localDayHour } from "../../shared/src/events/outbox.ts";
import { companyTimeZone } from "../../shared/src/companies/service.ts";
import { makeCompany, makeUser, type TestUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("chatbot");
const { newPage, login, http, until, connectedWhatsapp } = e2e;

/** The PDF the leaf option carries. */
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** Uploads `file` as an option's media (multipart, as the queue dialog does). */
async function uploadOptionMedia(admin: TestUser, optionId: number, file: { name: string; type: string; data: Buffer }) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const res = await fetch(`${e2e.stack.url}/api/queue-options/${optionId}/media-upload`, { method: "POST", headers: { authorization: `Bearer ${admin.token}` }, body: form });
  if (!res.ok) throw new Error(`media upload → ${res.status} ${await res.text()}`);
}

/** The sandbox phone: what it shows (each bubble's text, both sides, in order) and the customer typing on it. */
function phoneOf(page: Page) {
  const bubbles = page.locator("[data-testid=phone-mine], [data-testid=phone-agent]");
  const agent = page.getByTestId("phone-agent");
  const mine = page.getByTestId("phone-mine");
  return {
    /** Every bubble's text as shown, oldest first, prefixed with who sent it. */
    shown: async () =>
      Promise.all(
        (await bubbles.all()).map(async (b) => `${(await b.getAttribute("data-testid")) === "phone-mine" ? "cliente" : "empresa"}: ${(await b.locator(".msg-body").innerText()).trim()}`),
      ),
    /** Waits until the business's messages on the phone number `n`. */
    businessCount: (n: number, what: string) => until(async () => (await agent.count()) === n, what),
    /** Types `text` and sends it; resolves once the phone shows it as sent. */
    async say(text: string) {
      const before = await mine.count();
      await page.getByTestId("phone-input").fill(text);
      await page.getByTestId("phone-send").click();
      await until(async () => (await mine.count()) === before + 1 && (await mine.last().locator(".msg-body").innerText()).trim() === text, `the phone to show "${text}"`);
    },
  };
}

const MENU = "Olá, Joana! Escolha o setor:\n\n[ 1 ] - Comercial\n[ 2 ] - Suporte";
const SUPPORT_MENU = "Você está no Suporte.\n\n[ 1 ] - Internet\n[ 2 ] - Boletos\n[ # ] - Menu inicial";
const INTERNET = "Sobre a internet, escolha:\n\n[ 1 ] - Sem conexão\n[ 2 ] - Lentidão\n[ 0 ] - Menu anterior\n[ # ] - Menu inicial";
// The leaf goes out as a PDF with this caption (the phone shows a document icon, not text, before it; the file itself is checked below).
const LEAF = "Reinicie o modem e siga o manual.";
const RATING = "Como foi o nosso atendimento?\n\nDigite de 1 à 3 para qualificar nosso atendimento:\n1 - Insatisfeito\n2 - Satisfeito\n3 - Muito Satisfeito";
const DONE = "Obrigado pelo contato, Joana!";
/** The accept greeting (`{{ms}}` is the greeting of the hour in the company's zone). */
const ACCEPTED = /^Mensagem Automática:\n(Bom dia|Boa tarde|Boa noite|Boa madrugada) Joana Cliente, meu nome é Sofia Suporte e agora vou prosseguir com seu atendimento!$/;

describe("the chatbot played from the sandbox phone", () => {
  it(
    "menu, two wrong answers, queue 2, the option tree with 0, # back to the queue menu, queue 2 again, a leaf with a file; pending for queue 2's agent only; accept greeting, rating 3, completion; the rating stored",
    async () => {
      const { companyId, admin } = await makeCompany();
      for (const key of ["sendGreetingAccepted", "userRating"]) await http(admin, "PUT", `/api/settings/${key}`, { value: "enabled" });
      const comercial = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Comercial", color: "#43a047", orderQueue: 1 });
      const suporte = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Suporte", color: "#1e88e5", orderQueue: 2, greetingMessage: "Você está no Suporte." });
      const option = (body: Record<string, unknown>) => http<{ id: number }>(admin, "POST", "/api/queue-options", { queueId: suporte.id, ...body });
      const internet = await option({ title: "Internet", message: "Sobre a internet, escolha:" });
      await option({ title: "Boletos", message: "A segunda via está no site." });
      const semConexao = await option({ parentId: internet.id, title: "Sem conexão", message: "Reinicie o modem e siga o manual." });
      await option({ parentId: internet.id, title: "Lentidão", message: "Faça um teste de velocidade." });
      await uploadOptionMedia(admin, semConexao.id, { name: "manual-modem.pdf", type: "application/pdf", data: PDF });
      const wid = await connectedWhatsapp(admin, "Loja Centro", [comercial.id, suporte.id]);
      await http(admin, "PUT", `/api/whatsapp/${wid}`, {
        greetingMessage: "Olá, {{firstName}}! Escolha o setor:",
        ratingMessage: "Como foi o nosso atendimento?",
        complationMessage: "Obrigado pelo contato, {{firstName}}!",
        maxUseBotQueues: 3,
      });
      const sofia = await makeUser(companyId, { name: "Sofia Suporte", queueIds: [suporte.id] });
      const carlos = await makeUser(companyId, { name: "Carlos Comercial", queueIds: [comercial.id] });

      // The customer's phone.
      const page = await newPage();
      await page.goto(`${e2e.stack.url}/sandbox?whatsappId=${wid}&number=5511987651234&name=Joana%20Cliente`);
      await page.locator("[data-testid=sandbox-state][data-open=true]").waitFor();
      const phone = phoneOf(page);

      // The menu; two wrong answers bring it back; "2" picks Suporte and its options.
      await phone.say("Oi, preciso de ajuda");
      await phone.businessCount(1, "the menu");
      await phone.say("Quero falar com alguém");
      await phone.businessCount(2, "the menu again");
      await phone.say("5");
      await phone.businessCount(3, "the menu a third time");
      await phone.say("2");
      await phone.businessCount(4, "Suporte's options");
      // The tree: into Internet, 0 back up, into Internet again, # back to the start (the greeting and the queue menu),
      // Suporte again, Internet, the leaf.
      const walk: [string, number][] = [
        ["1", 5],
        ["0", 6],
        ["1", 7],
        ["#", 8],
        ["2", 9],
        ["1", 10],
        ["1", 11],
      ];
      for (const [answer, count] of walk) {
        await phone.say(answer);
        await phone.businessCount(count, `the bot's answer to "${answer}"`);
        if (answer === "#") {
          // Back at the start the ticket waits for a queue again, the bot still answering.
          const list = await http<{ tickets: { queueId: number | null; chatbot: boolean }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true");
          expect(list.tickets.map((t) => ({ queueId: t.queueId, chatbot: t.chatbot }))).toEqual([{ queueId: null, chatbot: true }]);
        }
      }
      expect(await phone.shown()).toEqual([
        "cliente: Oi, preciso de ajuda",
        `empresa: ${MENU}`,
        "cliente: Quero falar com alguém",
        `empresa: ${MENU}`,
        "cliente: 5",
        `empresa: ${MENU}`,
        "cliente: 2",
        `empresa: ${SUPPORT_MENU}`,
        "cliente: 1",
        `empresa: ${INTERNET}`,
        "cliente: 0",
        `empresa: ${SUPPORT_MENU}`,
        "cliente: 1",
        `empresa: ${INTERNET}`,
        "cliente: #",
        `empresa: ${MENU}`,
        "cliente: 2",
        `empresa: ${SUPPORT_MENU}`,
        "cliente: 1",
        `empresa: ${INTERNET}`,
        "cliente: 1",
        `empresa: ${LEAF}`,
      ]);
      // The leaf's file reached the phone with its name, its type and its real size.
      const sent = await (await fetch(`${e2e.stack.url}/sim/whatsapp/${wid}/sent`)).json();
      // (Buffers as Baileys' BufferJSON writes them: `{type: "Buffer", data: <base64>}`.)
      const file = (sent as { content: { document?: { data: string }; fileName?: string; mimetype?: string; caption?: string } }[]).find((s) => s.content.document);
      expect(file?.content).toMatchObject({ fileName: "manual-modem.pdf", mimetype: "application/pdf", caption: "Reinicie o modem e siga o manual." });
      expect(Buffer.from(file?.content.document?.data ?? "", "base64").equals(PDF)).toBe(true);

      // The bot handed the ticket to people: pending in Suporte.
      const ticket = await until(async () => {
        const list = await http<{ tickets: { id: number; queueId: number | null; status: string; chatbot: boolean }[] }>(admin, "GET", "/api/tickets?status=pending&showAll=true");
        return list.tickets.find((t) => t.queueId === suporte.id && !t.chatbot);
      }, "the ticket pending in Suporte");
      const stored = await http<{ messages: { mediaName: string | null; mediaSize: number | null; isAutomatic: boolean }[] }>(admin, "GET", `/api/messages/${ticket.id}`);
      expect(stored.messages.find((m) => m.mediaName === "manual-modem.pdf")).toMatchObject({ mediaSize: PDF.length, isAutomatic: true });

      // Queue 1's agent does not see it; queue 2's agent sees it pending in Suporte.
      const carlosPage = await newPage();
      await login(carlosPage, carlos.email, carlos.password);
      await carlosPage.goto(`${e2e.stack.url}/tickets`);
      await carlosPage.getByTestId("subtab-pending").click();
      await carlosPage.getByText("Nenhum atendimento encontrado.").waitFor();
      await expect(carlosPage.getByTestId("ticket-row").count()).resolves.toBe(0);

      const agent = await newPage();
      await login(agent, sofia.email, sofia.password);
      await agent.goto(`${e2e.stack.url}/tickets`);
      await agent.getByTestId("subtab-pending").click();
      const row = agent.getByTestId("ticket-row").filter({ hasText: "Joana Cliente" });
      await row.waitFor();
      expect(await row.getAttribute("data-status")).toBe("pending");
      await row.getByText("Suporte", { exact: true }).waitFor();

      // Accept: the greeting naming the agent reaches the phone, sent by the server.
      await row.getByTestId("accept").click();
      const conv = agent.getByTestId("conversation");
      // The agent's conversation shows the bot's file as sent, with its name and real size.
      await conv.getByTestId("message").filter({ hasText: "manual-modem.pdf" }).filter({ hasText: `${PDF.length} B` }).waitFor();
      // The bot's messages are shown as automatic messages; the customer's are not.
      await conv.getByTestId("message").filter({ hasText: "manual-modem.pdf" }).getByTestId("message-automatic").waitFor();
      await conv.getByTestId("message").filter({ hasText: "Você está no Suporte." }).first().getByTestId("message-automatic").waitFor();
      await expect(conv.getByTestId("message").filter({ hasText: "Oi, preciso de ajuda" }).getByTestId("message-automatic").count()).resolves.toBe(0);
      await phone.businessCount(12, "the accept greeting");
      expect((await phone.shown())[22]).toMatch(new RegExp(`^empresa: ${ACCEPTED.source.slice(1)}`));

      // Resolve with userRating: the prompt reaches the phone; the row says it awaits the rating.
      await conv.getByRole("button", { name: "Resolver" }).click();
      await agent.waitForURL(`${e2e.stack.url}/tickets`);
      await phone.businessCount(13, "the rating prompt");
      expect((await phone.shown())[23]).toBe(`empresa: ${RATING}`);
      await agent.getByTestId("subtab-open").click();
      await agent.getByTestId("ticket-row").filter({ hasText: "Joana Cliente" }).getByTestId("rating-pending").waitFor();

      // The customer rates 3: the completion message arrives and the ticket closes.
      await phone.say("3");
      await phone.businessCount(14, "the completion message");
      expect((await phone.shown()).slice(24)).toEqual(["cliente: 3", `empresa: ${DONE}`]);
      await until(async () => (await http<{ status: string }>(admin, "GET", `/api/tickets/${ticket.id}`)).status === "closed", "the ticket closed");
      await agent.getByTestId("ticket-row").filter({ hasText: "Joana Cliente" }).waitFor({ state: "detached" });

      // The rating is stored for Sofia, and counted for her day.
      const ratings = await queryAllByPrefix(keys.ticketPartition(companyId, ticket.id), "RATING#");
      expect(ratings.map((r) => ({ rate: r.rate, userId: r.userId }))).toEqual([{ rate: 3, userId: sofia.id }]);
      // Counted on the company's local day (São Paulo's by default), not UTC's: between 00:00 and 03:00 UTC they differ.
      const day = localDayHour(String(ratings[0].at), await companyTimeZone(companyId)).day;
      await until(async () => (await readDailyCounters(companyId, day, sofia.id)).ratings === 1, "the rating counted");
      expect(await readDailyCounters(companyId, day, sofia.id)).toMatchObject({ ratings: 1, ratingSum: 3 });
    },
    TEST_MS * 2,
  );

  it(
    "a queue with a prompt (made on the Prompts page) answers through the local AI stand-in; asking for a person puts the ticket pending in the prompt's queue for its agents",
    async () => {
      const { companyId, admin } = await makeCompany();
      const api = await makeUser(companyId, { profile: "admin", name: "Admin API" }); // the browser login revokes admin's API token
      const vendas = await http<{ id: number }>(api, "POST", "/api/queue", { name: "Vendas", color: "#43a047" });
      const humanos = await http<{ id: number }>(api, "POST", "/api/queue", { name: "Atendimento Humano", color: "#8e24aa" });
      const hugo = await makeUser(companyId, { name: "Hugo Humano", queueIds: [humanos.id] });

      // The admin writes the prompt on its page: without a sector the dialog says 'Informe o setor' and sends nothing.
      const page = await newPage();
      await login(page, admin.email, admin.password);
      await page.goto(`${e2e.stack.url}/prompts`);
      await page.getByTestId("prompts-banner").waitFor();
      await page.getByTestId("add-prompt").click();
      const dialog = page.getByRole("dialog", { name: "Adicionar prompt" });
      await dialog.getByTestId("prompt-name").fill("Assistente de vendas");
      await dialog.getByTestId("prompt-apikey").fill("sk-local-e2e-key-4321");
      await dialog.getByTestId("prompt-text").fill("Você é a assistente da loja. Responda sobre horários e preços; chame uma pessoa quando pedirem.");
      await dialog.getByTestId("prompt-baseurl").fill(e2e.stack.aiBaseUrl);
      await dialog.getByTestId("save-prompt").click();
      await dialog.getByText("Informe o setor").waitFor();
      await dialog.getByTestId("prompt-queue").selectOption({ label: "Atendimento Humano" });
      await dialog.getByTestId("save-prompt").click();
      await dialog.waitFor({ state: "detached" });
      const row = page.getByTestId("prompt-row").filter({ hasText: "Assistente de vendas" });
      await row.getByText("Atendimento Humano").waitFor();
      const prompt = (await http<{ prompts: { id: number; apiKey: string }[] }>(api, "GET", "/api/prompt")).prompts[0];
      expect(prompt.apiKey).toBe("••••••••4321");
      await http(api, "PUT", `/api/queue/${vendas.id}`, { promptId: prompt.id });
      const wid = await connectedWhatsapp(api, "Loja Vendas", [vendas.id]);

      // The customer writes: the assistant answers; asking for a person, the customer is told and handed over.
      const phonePage = await newPage();
      await phonePage.goto(`${e2e.stack.url}/sandbox?whatsappId=${wid}&number=5511987659876&name=Bruna%20Cliente`);
      await phonePage.locator("[data-testid=sandbox-state][data-open=true]").waitFor();
      const phone = phoneOf(phonePage);
      await phone.say("Oi, vocês abrem sábado?");
      await phone.businessCount(1, "the assistant's answer");
      await phone.say("Quero falar com um atendente");
      await phone.businessCount(2, "the handover notice");
      expect(await phone.shown()).toEqual([
        "cliente: Oi, vocês abrem sábado?",
        "empresa: Olá! Sou o assistente virtual. Você disse: Oi, vocês abrem sábado?",
        "cliente: Quero falar com um atendente",
        "empresa: Um momento, vou chamar alguém da equipe.",
      ]);

      // Pending in the prompt's queue, on the screen of that queue's agent.
      const agent = await newPage();
      await login(agent, hugo.email, hugo.password);
      await agent.goto(`${e2e.stack.url}/tickets`);
      await agent.getByTestId("subtab-pending").click();
      const ticketRow = agent.getByTestId("ticket-row").filter({ hasText: "Bruna Cliente" });
      await ticketRow.waitFor();
      expect(await ticketRow.getAttribute("data-status")).toBe("pending");
      await ticketRow.getByText("Atendimento Humano", { exact: true }).waitFor();
      // The bot is off for this cycle: another message reaches people only.
      await phone.say("Alô?");
      await new Promise((r) => setTimeout(r, 1500));
      await phone.businessCount(2, "no more answers from the assistant");
    },
    TEST_MS,
  );

  it(
    "shows another admin's option edits live in an open queue dialog",
    async () => {
      const { companyId, admin } = await makeCompany();
      const other = await makeUser(companyId, { profile: "admin", name: "Outra Admin" }); // the browser login revokes admin's API token
      await http(admin, "POST", "/api/queue", { name: "Suporte", color: "#1e88e5" });
      const page = await newPage();
      await login(page, admin.email, admin.password);
      await page.goto(`${e2e.stack.url}/queues`);
      await page.getByTestId("queue-row").filter({ hasText: "Suporte" }).getByTestId("queue-edit").click();
      const dialog = page.getByRole("dialog", { name: "Editar fila" });
      await dialog.getByRole("tab", { name: "Opções do chatbot" }).click();
      const editor = dialog.getByTestId("option-editor");
      await editor.waitFor();
      const titles = () => editor.getByTestId("option-node").evaluateAll((els) => els.map((e) => e.getAttribute("data-option-title")));
      const queueId = (await http<{ id: number; name: string }[]>(other, "GET", "/api/queue")).find((q) => q.name === "Suporte")!.id;

      // Another admin, elsewhere: creates two options, renames one, moves the other first, deletes one.
      const financeiro = await http<{ id: number }>(other, "POST", "/api/queue-options", { queueId, title: "Financeiro" });
      await until(async () => JSON.stringify(await titles()) === JSON.stringify(["Financeiro"]), "the new option in the open dialog");
      const tecnico = await http<{ id: number }>(other, "POST", "/api/queue-options", { queueId, title: "Técnico" });
      await http(other, "PUT", `/api/queue-options/${financeiro.id}`, { title: "Cobrança" });
      await until(async () => JSON.stringify(await titles()) === JSON.stringify(["Cobrança", "Técnico"]), "the rename");
      await expect(editor.locator('[data-option-title="Cobrança"]').getByTestId("option-title").inputValue()).resolves.toBe("Cobrança");
      await http(other, "PUT", `/api/queue-options/${tecnico.id}`, { option: "1" });
      await until(async () => JSON.stringify(await titles()) === JSON.stringify(["Técnico", "Cobrança"]), "the move");
      await http(other, "DELETE", `/api/queue-options/${financeiro.id}`);
      await until(async () => JSON.stringify(await titles()) === JSON.stringify(["Técnico"]), "the delete");
    },
    TEST_MS,
  );
});
