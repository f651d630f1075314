/**
 * The search backfill's wiring: contacts and messages stored before the word index existed become
 * findable through the API once the deploy / local start has scheduled the backfill (`startSearchBackfill`, what the
 * `Custom::AtendeSearchBackfill` resource and `infra/local` call) and the minute tick (`jobs/tick.ts`) has run.
 */
import { describe, expect, it } from "vitest";
import { createCompany } from "@atende/shared/companies/service";
import { getTimer } from "@atende/shared/timers/index";
import { SEARCH_BACKFILL_KIND, startSearchBackfill } from "@atende/shared/search/backfill-job";
import { storeWithoutIndex } from "@atende/shared/search/backfill.testkit";
import { makeWhatsapp } from "@atende/shared/tickets/fixtures.testkit";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { handler as tick } from "./tick.ts";

const w = companyWorld();

const ticketContacts = async (token: string, q: string) =>
  ((await api("GET", `/api/tickets?searchParam=${encodeURIComponent(q)}`, { token })).body.tickets as { contact: { name: string } }[]).map((t) => t.contact.name).sort();
const contactNames = async (token: string, q: string) =>
  ((await api("GET", `/api/contacts?searchParam=${encodeURIComponent(q)}`, { token })).body.contacts as { name: string }[]).map((c) => c.name).sort();

describe("search backfill on deploy / start, carried by the minute tick", () => {
  it("makes every company's old tickets and contacts findable by message word, surname and number fragment", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    await storeWithoutIndex(a.cid, (await makeWhatsapp(a.cid)).id);
    await storeWithoutIndex(b.cid, (await makeWhatsapp(b.cid)).id);
    expect(await ticketContacts(a.admin.token, "reembolso")).toEqual([]);
    expect(await contactNames(a.admin.token, "Lima")).toEqual([]);

    // The deploy (or the local start) schedules it; the ticks do the work.
    const scheduled = await startSearchBackfill();
    expect(scheduled).toEqual(expect.arrayContaining([a.cid, b.cid]));
    expect(await startSearchBackfill()).toEqual([]); // already scheduled: nothing twice
    let t = Date.now();
    for (let i = 0; i < 10 && (await getTimer(a.cid, SEARCH_BACKFILL_KIND, "index")); i++) {
      t += 60_000;
      await tick({ time: new Date(t).toISOString() });
    }
    expect(await getTimer(a.cid, SEARCH_BACKFILL_KIND, "index")).toBeNull();
    expect(await getTimer(b.cid, SEARCH_BACKFILL_KIND, "index")).toBeNull();

    for (const c of [a, b]) {
      expect(await ticketContacts(c.admin.token, "reembolso")).toEqual(["Helena Lima"]);
      expect(await ticketContacts(c.admin.token, "boleto")).toEqual(["Otávio Prado"]);
      expect(await contactNames(c.admin.token, "Lima")).toEqual(["Helena Lima"]);
      expect(await contactNames(c.admin.token, "6666")).toEqual(["Otávio Prado"]);
    }
    // Done companies are not scheduled again on the next deploy.
    expect(await startSearchBackfill()).toEqual([]);
  }, 90_000);

  it("never schedules a company created through the product: its writes index themselves", async () => {
    const { planId } = await w.fresh();
    const { company } = await createCompany("system", { name: "Empresa Nova", email: "nova@empresa.test", phone: "", password: "segredo1", planId, recurrence: "MENSAL", status: true });
    const scheduled = await startSearchBackfill();
    expect(scheduled).not.toContain(company.id);
    expect(await getTimer(company.id, SEARCH_BACKFILL_KIND, "index")).toBeNull();
  });
});
