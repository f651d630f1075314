/**
 * Browser proof of the top bar's notifications (docs/product/tickets.md#notifications), with
 * playwright-core + Debian chromium against the whole local stack in-process and customers writing through the
 * simulated WhatsApp network (`/sim`):
 * - a customer message on a pending ticket raises the bell's count without a reload and the popover lists the ticket,
 *   newest first; Escape and a click outside close it; choosing a ticket opens its conversation and, once read, it
 *   leaves the list;
 * - an agent of another queue sees no count and the empty text;
 * - the volume slider's value (0..1, step 0.1, localStorage `volume`) survives a reload.
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
});
