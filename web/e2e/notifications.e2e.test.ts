/**
 * Browser proof of the top bar's notifications (docs/product/tickets.md#notifications), with
 * playwright-core + Debian chromium against the whole local stack in-process and customers writing through the
 * simulated WhatsApp network (`/sim`):
 * - a customer message on a pending ticket raises the bell's count without a reload and the popover lists the ticket,
 *   newest first; Escape and a click outside close it; choosing a ticket opens its conversation and, once read, it
 *   leaves the list;
 * - an agent of another queue sees no count and the empty text;
 * - the volume slider's value (0..1, step 0.1, localStorage `volume`) survives a reload;
 * - internal chat (docs/product/chats.md): two agents chat live, each seeing the other's messages, the menu's unread dot
 *   and the top bar's chats count rise and clear in the other's browser, the popover opens the chat; the owner deletes
 *   it and the other agent's open view clears and goes back to /chats;
 * - announcements (docs/product/announcements.md): a super user's announcement appears live in the popover of an agent
 *   of another company, with its priority colour, and the unread badge stays cleared after a reload.
 *
 * - push notifications (docs/product/push.md): an agent turns them on from the top bar (notification permission
 *   granted through the DevTools Protocol), closes the product's tab, a customer's new pending ticket in the agent's
 *   queue reaches the local push service stand-in encrypted (it decrypts it), the page's service worker shows it when
 *   that push is delivered through the DevTools Protocol, and the URL the notification carries opens the ticket.
 *
 * Needs `web/dist` (`npm run build -w web`) and `/usr/bin/chromium`.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeCompany, makeUser } from "../../test/helpers.ts";
import { TEST_MS, useBrowserStack } from "./harness.ts";

const e2e = useBrowserStack("notify");
const { newPage, login, http, until, connectedWhatsapp, customerSays } = e2e;

const bellCount = (page: Page) => page.getByTestId("notifications-count");
const panel = (page: Page) => page.getByTestId("notifications-panel");

describe("top bar notifications in the browser", () => {
  it(
    "counts a new pending message without a reload, lists it in the popover and opens its conversation",
    async () => {
      const { companyId, admin } = await makeCompany();
      const queue = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Suporte", color: "#1565c0", greetingMessage: "" });
      const wid = await connectedWhatsapp(admin, "Conexão Avisos", [queue.id]);
      await customerSays(wid, "5511911110001", "Cliente Um", "Primeira mensagem");
      await until(async () => (await http<{ tickets: unknown[] }>(admin, "GET", "/api/tickets?status=pending&withUnreadMessages=true")).tickets.length === 1, "the first ticket");
      const outsider = await makeUser(companyId, { queueIds: [], name: "Agente Sem Fila" });

      const page = await newPage();
      await login(page, admin.email, admin.password);
      await expect.poll(() => bellCount(page).textContent()).toBe("1");

      // A second customer writes: the count rises live.
      await customerSays(wid, "5511911110002", "Cliente Dois", "Segunda mensagem");
      await expect.poll(() => bellCount(page).textContent()).toBe("2");

      // The popover lists both, newest first; Escape and a click outside close it.
      await page.getByTestId("notifications-button").click();
      const items = panel(page).getByTestId("notification-item");
      await expect.poll(() => items.allTextContents()).toEqual([expect.stringContaining("Cliente Dois"), expect.stringContaining("Cliente Um")]);
      await expect.poll(() => items.first().textContent()).toContain("Segunda mensagem");
      await page.keyboard.press("Escape");
      await panel(page).waitFor({ state: "detached" });
      await page.getByTestId("notifications-button").click();
      await panel(page).waitFor();
      await page.locator("main").click({ position: { x: 5, y: 5 } });
      await panel(page).waitFor({ state: "detached" });

      // Choosing a ticket opens its conversation; once read it leaves the list.
      await page.getByTestId("notifications-button").click();
      const uuid = await items.first().getAttribute("data-ticket-uuid");
      await items.first().click();
      await page.waitForURL(`**/tickets/${uuid}`);
      await panel(page).waitFor({ state: "detached" });
      await page.getByText("Segunda mensagem").last().waitFor();
      await expect.poll(() => bellCount(page).textContent()).toBe("1");
      await page.getByTestId("notifications-button").click();
      await expect.poll(() => items.allTextContents()).toEqual([expect.stringContaining("Cliente Um")]);
      await page.keyboard.press("Escape");

      // A message that arrives while its conversation is on screen is read at once: it never stays unread.
      await customerSays(wid, "5511911110002", "Cliente Dois", "Mais uma coisa");
      await page.getByTestId("conversation").getByText("Mais uma coisa").waitFor();
      await expect.poll(() => bellCount(page).textContent()).toBe("1");
      await page.getByTestId("notifications-button").click();
      await expect.poll(() => items.allTextContents()).toEqual([expect.stringContaining("Cliente Um")]);

      // An agent outside the ticket's queue has nothing to read.
      const other = await newPage();
      await login(other, outsider.email, outsider.password);
      await other.getByTestId("notifications-button").click();
      await panel(other).getByText("Nenhuma mensagem não lida.").waitFor();
      expect(await bellCount(other).count()).toBe(0);
    },
    TEST_MS,
  );

  it(
    "keeps the volume chosen on the slider after a reload",
    async () => {
      const { admin } = await makeCompany();
      const page = await newPage();
      await login(page, admin.email, admin.password);
      await page.getByTestId("volume-button").click();
      const slider = page.getByRole("slider", { name: "Volume das notificações" });
      expect(await slider.inputValue()).toBe("1");
      await slider.fill("0.3");
      await expect.poll(() => page.getByTestId("volume-value").textContent()).toBe("30%");
      await slider.press("ArrowLeft");
      await expect.poll(() => page.getByTestId("volume-value").textContent()).toBe("20%");
      expect(await page.evaluate(() => localStorage.getItem("volume"))).toBe("0.2");

      await page.reload();
      await page.getByTestId("greeting").waitFor();
      expect(await page.getByTestId("volume-button").getAttribute("aria-label")).toBe("Volume das notificações: 20%");
      await page.getByTestId("volume-button").click();
      expect(await page.getByRole("slider", { name: "Volume das notificações" }).inputValue()).toBe("0.2");
    },
    TEST_MS,
  );

  it(
    "two agents chat live: messages, the unread dot and the chats popover follow in each other's browser; a deleted chat clears the other's view",
    async () => {
      const { companyId } = await makeCompany();
      const ana = await makeUser(companyId, { name: "Ana Chat" });
      const bruno = await makeUser(companyId, { name: "Bruno Chat" });
      const pa = await newPage();
      const pb = await newPage();
      await login(pa, ana.email, ana.password);
      await login(pb, bruno.email, bruno.password);

      // Ana creates the chat with Bruno from the page (the dialog's rules first).
      await pa.getByRole("link", { name: "Chat interno" }).click();
      await pa.getByTestId("chats-add").click();
      await pa.getByTestId("save-chat").click();
      await pa.getByText("Por favor, preencha o título da conversa.").waitFor();
      await pa.getByText("Por favor, selecione pelo menos um usuário.").waitFor();
      await pa.getByLabel("Título").fill("Plantão de sábado");
      await pa.getByRole("dialog").getByText("Bruno Chat").click();
      expect(await pa.getByRole("checkbox", { name: "Bruno Chat" }).isChecked()).toBe(true);
      await pa.getByTestId("save-chat").click();
      await expect.poll(() => pa.getByTestId("chat-view-title").textContent()).toBe("Plantão de sábado");
      const uuid = (/\/chats\/([0-9a-f-]{36})/.exec(pa.url()) ?? [])[1];
      expect(uuid).toBeTruthy();

      // A blank message is not sent; a real one reaches Bruno live: dot in the menu, count on the chats button.
      await pa.getByTestId("chat-input").fill("   ");
      expect(await pa.getByTestId("chat-send").isDisabled()).toBe(true);
      await pa.getByTestId("chat-input").fill("Oi Bruno, tudo certo?");
      await pa.getByTestId("chat-input").press("Enter");
      await pa.getByTestId("chat-messages").getByText("Oi Bruno, tudo certo?").waitFor();
      await pb.getByTestId("chats-unread-dot").waitFor();
      await expect.poll(() => pb.getByTestId("chats-count").textContent()).toBe("1");
      expect(await pa.getByTestId("chats-unread-dot").count()).toBe(0);

      // Bruno opens it from the popover: its unread count shows, the click opens /chats/{uuid} and reads it.
      await pb.getByTestId("chats-button").click();
      const item = pb.getByTestId("chats-panel").getByTestId("chats-popover-item");
      await expect.poll(() => item.first().textContent()).toContain("Oi Bruno, tudo certo?");
      expect(await item.first().getByTestId("chats-popover-unread").textContent()).toMatch(/^1/);
      await item.first().click();
      await pb.waitForURL(`**/chats/${uuid}`);
      await pb.getByTestId("chat-messages").getByText("Oi Bruno, tudo certo?").waitFor();
      await pb.getByTestId("chats-unread-dot").waitFor({ state: "detached" });
      await pb.getByTestId("chats-count").waitFor({ state: "detached" });

      // Bruno answers while Ana has the chat open: she sees it at once and it never stays unread for her.
      await pb.getByTestId("chat-input").fill("Tudo certo, Ana!");
      await pb.getByTestId("chat-send").click();
      await pa.getByTestId("chat-messages").getByText("Tudo certo, Ana!").waitFor();
      await expect.poll(async () => (await pa.getByTestId("chats-unread-dot").count()) + (await pa.getByTestId("chats-count").count())).toBe(0);

      // Ana leaves the chat; Bruno's next message raises her dot and count, another tab of hers follows.
      await pa.getByRole("link", { name: "Contatos", exact: true }).click();
      const pa2 = await newPage(pa.context());
      await pa2.goto(pa.url());
      await pa2.getByTestId("chats-button").waitFor();
      await pb.getByTestId("chat-input").fill("Mais uma coisa");
      await pb.getByTestId("chat-input").press("Enter");
      for (const p of [pa, pa2]) {
        await p.getByTestId("chats-unread-dot").waitFor();
        await expect.poll(() => p.getByTestId("chats-count").textContent()).toBe("1");
      }
      await pa2.goto(`${new URL(pa.url()).origin}/chats/${uuid}`);
      await pa2.getByTestId("chat-messages").getByText("Mais uma coisa").waitFor();
      for (const p of [pa, pa2]) await p.getByTestId("chats-unread-dot").waitFor({ state: "detached" });
      await pa2.close();

      // Only the owner sees edit and delete; when Ana deletes it, Bruno's open view clears and goes back to /chats.
      expect(await pb.getByTestId("chat-delete").count()).toBe(0);
      await pa.goto(`${new URL(pa.url()).origin}/chats/${uuid}`);
      await pa.getByTestId("chat-delete").click();
      await pa.getByRole("dialog").getByRole("button", { name: "Sim" }).click();
      await pb.waitForURL((u) => u.pathname === "/chats");
      await pb.getByTestId("chats-pick").waitFor();
      expect(await pb.getByTestId("chat-view").count()).toBe(0);
      expect(await pb.getByTestId("chat-item").count()).toBe(0);
    },
    TEST_MS,
  );

  it(
    "shows a super user's announcement live in the popover of an agent of another company, in its priority colour",
    async () => {
      const root = await makeCompany({ adminSuper: true });
      const { companyId } = await makeCompany();
      const agent = await makeUser(companyId, { name: "Agente Avisos" });
      const pa = await newPage();
      await login(pa, agent.email, agent.password);
      await pa.getByTestId("announcements-button").waitFor();
      const before = Number((await pa.getByTestId("announcements-count").count()) ? await pa.getByTestId("announcements-count").textContent() : 0);

      // An agent may not open the page: the toast, then "/" after 1 s.
      await pa.goto(`${new URL(pa.url()).origin}/announcements`);
      await pa.getByText("Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.").waitFor();
      await pa.waitForURL((u) => u.pathname === "/");

      // The super user writes one with high priority from the page.
      const ps = await newPage();
      await login(ps, root.admin.email, root.admin.password);
      await ps.getByRole("link", { name: "Informativos" }).click();
      await ps.getByTestId("announcements-add").click();
      await ps.getByLabel("Título").fill("Manutenção programada");
      await ps.getByLabel("Texto").fill("O sistema para no sábado às 22h.");
      await ps.getByTestId("announcement-priority-select").selectOption("1");
      await ps.getByTestId("save-announcement").click();
      await ps.getByTestId("announcement-row").filter({ hasText: "Manutenção programada" }).waitFor();

      // It reaches the agent of the other company live: the count rises, the panel shows it in red (high).
      await expect.poll(() => pa.getByTestId("announcements-count").textContent()).toBe(String(before + 1));
      await pa.getByTestId("announcements-button").click();
      const item = pa.getByTestId("announcements-panel").getByTestId("announcement-item").filter({ hasText: "Manutenção programada" });
      await item.waitFor();
      expect(await item.getAttribute("data-priority")).toBe("1");
      expect(await item.getByTestId("announcement-priority").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(211, 47, 47)");
      expect(await item.first().textContent()).toContain("O sistema para no sábado às 22h.");
      expect(await pa.getByTestId("announcements-panel").getByTestId("announcement-item").first().textContent()).toContain("Manutenção programada");
      await pa.keyboard.press("Escape");
      await pa.getByTestId("announcements-count").waitFor({ state: "detached" });

      // Seen stays seen after a reload.
      await pa.reload();
      await pa.getByTestId("announcements-button").waitFor();
      await pa.waitForTimeout(1000);
      expect(await pa.getByTestId("announcements-count").count()).toBe(0);

      // A tapped notification's address opens the panel on that announcement, highlighted, and leaves the address clean.
      const rowId = await ps.getByTestId("announcement-row").filter({ hasText: "Manutenção programada" }).getAttribute("data-announcement-id");
      await pa.goto(`${new URL(pa.url()).origin}/?announcement=${rowId}`);
      const linked = pa.getByTestId("announcements-panel").locator(`[data-announcement-id="${rowId}"]`);
      await linked.waitFor();
      expect(await linked.getAttribute("aria-current")).toBe("true");
      await pa.waitForURL((u) => !u.search.includes("announcement"));
    },
    TEST_MS,
  );
  it(
    "pushes a new pending ticket to an agent with no open tab; the service worker shows it and it opens the ticket",
    async () => {
      const { companyId, admin } = await makeCompany();
      const queue = await http<{ id: number }>(admin, "POST", "/api/queue", { name: "Plantão", color: "#6a1b9a", greetingMessage: "" });
      const wid = await connectedWhatsapp(admin, "Conexão Push", [queue.id]);
      const agent = await makeUser(companyId, { queueIds: [queue.id], name: "Agente Push" });
      const origin = e2e.stack.url;
      const ctx = await e2e.newContext();
      await ctx.grantPermissions(["notifications"], { origin });
      const page = await newPage(ctx);
      await login(page, agent.email, agent.password);

      // The opt-in: the notification permission is granted, but headless Chromium refuses `pushManager.subscribe`
      // ("Registration failed - permission denied") and its push service (FCM) is not reachable from here anyway
      // (docs/product/push.md#one-machine): the panel says so instead of claiming to be on.
      await page.getByTestId("push-button").click();
      await page.getByTestId("push-panel").waitFor();
      await expect.poll(() => page.getByTestId("push-button").getAttribute("data-state")).toBe("off");
      await page.getByTestId("push-toggle").click();
      await expect.poll(async () => (await page.getByRole("alert").count()) > 0 || (await page.getByTestId("push-button").getAttribute("data-state")) === "on").toBe(true);
      const sw = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
      expect(sw).toBe(`${origin}/service-worker.js`);

      // A device of the push service stand-in, registered through the API with this session, as the page does.
      const pushUrl = e2e.stack.pushServiceUrl;
      const { publicKey } = await page.evaluate(async () => (await fetch("/api/push/key", { headers: { authorization: `Bearer ${JSON.parse(localStorage.getItem("token")!)}` } })).json());
      const device = (await (await fetch(`${pushUrl}/subscribe`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ applicationServerKey: publicKey }) })).json()).data;
      const stored = await page.evaluate(
        async (d) =>
          (
            await fetch("/api/push/subscriptions", {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${JSON.parse(localStorage.getItem("token")!)}` },
              body: JSON.stringify({ endpoint: d.endpoint, keys: d.keys, lang: "pt" }),
            })
          ).status,
        device,
      );
      expect(stored).toBe(200);

      // The product's tab closes (its socket with it); the service worker stays registered in the browser.
      const helper = await newPage(ctx);
      await helper.goto(`${origin}/manifest.webmanifest`);
      await page.close();
      await customerSays(wid, "5511933330001", "Cliente Push", "Preciso de ajuda urgente");
      const received = await until(async () => {
        const r = await fetch(`${pushUrl}/get-notifications`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ clientHash: device.clientHash }) });
        const list = (await r.json()).data.messages as string[];
        return list.length ? list : null;
      }, "the encrypted push at the push service");
      const payload = JSON.parse(received[0]);
      expect(payload).toMatchObject({ kind: "ticket", title: "Novo ticket aguardando", body: "Cliente Push: Preciso de ajuda urgente" });
      expect(payload.url).toMatch(/^\/tickets\/[0-9a-f-]{36}$/);

      // The same payload delivered to the page's service worker through the DevTools Protocol: it shows it.
      const cdp = await ctx.newCDPSession(helper);
      const versions = new Promise<{ registrationId: string }>((resolve) => cdp.on("ServiceWorker.workerVersionUpdated", (e) => e.versions[0] && resolve(e.versions[0])));
      await cdp.send("ServiceWorker.enable");
      const { registrationId } = await versions;
      await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: received[0] });
      const shown = await until(async () => {
        const list = await helper.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url })));
        return list.length ? list : null;
      }, "the service worker's notification");
      expect(shown).toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, url: payload.url }]);

      // The tap opens the ticket the notification carries.
      const tap = await newPage(ctx);
      await tap.goto(`${origin}${shown[0].url}`);
      await tap.waitForURL(`**${payload.url}`);
      await tap.getByTestId("conversation").getByText("Preciso de ajuda urgente").waitFor();
    },
    TEST_MS,
  );
});
