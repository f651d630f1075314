/**
 * Invoices and their Pix payment through the real handlers (docs/product/invoices.md): the minute tick makes one
 * invoice per company and due date from the company's invoice timer, even with ticks racing; admins read and pay only
 * their own company's invoices, agents are refused; the checkout's BR Code reads back with a valid CRC for the
 * invoice's value; the webhook refuses a confirmation without its secret and applies a good one once, moving the due
 * date by the recurrence and telling the company; a super user (only) marks an invoice paid by hand.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getConfig, resetConfig } from "@atende/shared/config";
import { getCompany } from "@atende/shared/companies/repository";
import { listInvoices } from "@atende/shared/invoices/repository";
import { createDueInvoice } from "@atende/shared/invoices/service";
import { readBrCode } from "@atende/shared/invoices/pix";
import { Invoice, InvoicesPage, PixCharge } from "@atende/shared/invoices/schema";
import { registerSocket } from "@atende/shared/users/realtime-capture.testkit";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, type World } from "../../../test/world.ts";
import { handler as tickHandler } from "../jobs/tick.ts";

const SECRET = "pix-webhook-secret-for-tests-0123456789";
const w = companyWorld({ agents: [{ name: "Ana" }], other: true, root: true });
const DAY = 86_400_000;

beforeAll(() => {
  process.env.PIX_WEBHOOK_SECRET = SECRET;
  resetConfig();
});

const tick = (at = Date.now()) => tickHandler({ "detail-type": "Scheduled Event", time: new Date(at).toISOString() });
/** Sets the company's due date as a super user does (which writes its invoice timer); answers the stored ISO date. */
async function setDueDate(cid: number, at: number): Promise<string> {
  const res = await api("PUT", `/api/companies/${cid}`, { token: w.root.token, body: { dueDate: new Date(at).toISOString() } });
  expect(res.status).toBe(200);
  return res.body.dueDate;
}
/** A fresh company with one open invoice (due in 10 days) made by the tick. */
async function withInvoice(): Promise<{ c: World; dueDate: string; invoiceId: number }> {
  const c = await w.fresh();
  const dueDate = await setDueDate(c.cid, Date.now() + 10 * DAY);
  await tick();
  const [inv] = await listInvoices(c.cid);
  expect(inv).toMatchObject({ dueDate, status: "open" });
  return { c, dueDate, invoiceId: inv.id };
}
const pay = (u: TestUser, invoiceId: number) => api("POST", "/api/subscription", { token: u.token, body: { invoiceId, firstName: "Ana", city: "Recife", zipcode: "50000-000", country: "Brasil" } });
const webhook = (txid: string, valor: string, hmac = SECRET) => api("POST", `/api/pix/webhook?hmac=${encodeURIComponent(hmac)}&ignorar=/pix`, { body: { pix: [{ txid, valor, endToEndId: "E1234", horario: new Date().toISOString() }] } });

describe("the minute tick makes the invoice", () => {
  it("once the due date is fewer than 20 days away: detail = the plan's name, value = the plan's value in cents", async () => {
    const c = await w.fresh();
    const dueDate = await setDueDate(c.cid, Date.now() + 25 * DAY);
    await tick();
    expect(await listInvoices(c.cid)).toEqual([]);
    await tick(Date.now() + 6 * DAY);
    const invoices = await listInvoices(c.cid);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ companyId: c.cid, detail: `Plano ${c.planId}`, valueCents: 3000, dueDate, status: "open" });
  });

  it("makes exactly one invoice per due date with ticks racing", async () => {
    const c = await w.fresh();
    const dueDate = await setDueDate(c.cid, Date.now() + 10 * DAY);
    await Promise.all([tick(), tick(), tick(), createDueInvoice(c.cid, dueDate), createDueInvoice(c.cid, dueDate)]);
    await tick();
    expect((await listInvoices(c.cid)).filter((i) => i.dueDate === dueDate)).toHaveLength(1);
  });

  it("follows a moved due date: the old date gets nothing, the new one its invoice", async () => {
    const c = await w.fresh();
    await setDueDate(c.cid, Date.now() + 30 * DAY);
    const moved = await setDueDate(c.cid, Date.now() + 5 * DAY);
    await tick();
    expect((await listInvoices(c.cid)).map((i) => i.dueDate)).toEqual([moved]);
  });

  it("makes none for a company without a due date", async () => {
    const c = await w.fresh();
    await setDueDate(c.cid, Date.now() + 5 * DAY);
    expect((await api("PUT", `/api/companies/${c.cid}`, { token: w.root.token, body: { dueDate: null } })).status).toBe(200);
    await tick(Date.now() + 400 * DAY);
    expect(await listInvoices(c.cid)).toEqual([]);
  });
});

describe("GET /api/invoices/all and /api/invoices/{id}", () => {
  it("shows an admin their company's invoices, and nothing of another company's", async () => {
    const { c, invoiceId, dueDate } = await withInvoice();
    const mine = InvoicesPage.parse((await api("GET", "/api/invoices/all?pageNumber=1", { token: c.admin.token })).body);
    expect(mine).toMatchObject({ count: 1, hasMore: false, invoices: [{ id: invoiceId, detail: `Plano ${c.planId}`, value: 30, dueDate, status: "open" }] });
    expect(Invoice.parse((await api("GET", `/api/invoices/${invoiceId}`, { token: c.admin.token })).body)).toMatchObject({ id: invoiceId, value: 30 });

    const theirs = await api("GET", "/api/invoices/all", { token: w.other.admin.token });
    expect(theirs.body.invoices.map((i: Invoice) => i.id)).not.toContain(invoiceId);
    const one = await api("GET", `/api/invoices/${invoiceId}`, { token: w.other.admin.token });
    expect(one.status).toBe(404);
    expect(one.body).toEqual({ error: "ERR_NO_INVOICE_FOUND" });
  });

  it("refuses an agent with 403 and nobody logged out with 401", async () => {
    const { invoiceId } = await withInvoice();
    expect((await api("GET", "/api/invoices/all", { token: w.agents[0].token })).status).toBe(403);
    expect((await api("GET", `/api/invoices/${invoiceId}`, { token: w.agents[0].token })).status).toBe(403);
    expect((await api("GET", "/api/invoices/all")).status).toBe(401);
  });

  it("lets a super user read any company's invoice", async () => {
    const { invoiceId } = await withInvoice();
    expect((await api("GET", `/api/invoices/${invoiceId}`, { token: w.root.token })).body).toMatchObject({ id: invoiceId });
  });
});

describe("POST /api/subscription (PAGAR)", () => {
  it("answers a real BR Code for the invoice's value into the platform's key, read back by the library with a valid CRC", async () => {
    const { c, invoiceId } = await withInvoice();
    const res = await pay(c.admin, invoiceId);
    expect(res.status).toBe(200);
    const charge = PixCharge.parse(res.body);
    expect(charge.valor.original).toBe("30.00");
    expect(charge.txid).toMatch(/^[A-Za-z0-9]{25}$/);
    expect(readBrCode(charge.qrcode.qrcode)).toEqual({ pixKey: getConfig().PIX_KEY, valueCents: 3000, txid: charge.txid });
    const tampered = charge.qrcode.qrcode.replace("30.00", "31.00");
    expect(readBrCode(tampered)).toBeNull();
    // The same charge on the next PAGAR.
    expect((await pay(c.admin, invoiceId)).body).toEqual(charge);
  });

  it("gives every invoice its own txid", async () => {
    const a = await withInvoice();
    const b = await withInvoice();
    expect((await pay(a.c.admin, a.invoiceId)).body.txid).not.toBe((await pay(b.c.admin, b.invoiceId)).body.txid);
  });

  it("refuses another company's invoice (404), an agent (403) and card data (400), making no charge", async () => {
    const { c, invoiceId } = await withInvoice();
    expect((await pay(w.other.admin, invoiceId)).status).toBe(404);
    expect((await pay(w.agents[0], invoiceId)).status).toBe(403);
    const card = await api("POST", "/api/subscription", { token: c.admin.token, body: { invoiceId, cardNumber: "4111111111111111", cvv: "123" } });
    expect(card.status).toBe(400);
    expect((await listInvoices(c.cid))[0].txid).toBeNull();
  });
});

describe("POST /api/pix/webhook", () => {
  it("refuses a confirmation without the right secret and changes nothing", async () => {
    const { c, invoiceId, dueDate } = await withInvoice();
    const { txid } = (await pay(c.admin, invoiceId)).body;
    for (const hmac of ["wrong-secret-wrong-secret-wrong", ""]) {
      const res = await webhook(txid, "30.00", hmac);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "ERR_PIX_WEBHOOK_SECRET" });
    }
    expect((await listInvoices(c.cid))[0].status).toBe("open");
    expect((await getCompany(c.cid))?.dueDate).toBe(dueDate);
  });

  it("applies a good confirmation once: invoice paid, due date a month later, company-{id}-payment CONCLUIDA", async () => {
    const { c, invoiceId, dueDate } = await withInvoice();
    const sock = await registerSocket(c.cid, { id: c.admin.id, profile: "admin" });
    const { txid } = (await pay(c.admin, invoiceId)).body;
    w.capture.clear();
    expect((await webhook(txid, "30.00")).body).toEqual({ applied: 1 });
    const next = new Date(dueDate);
    next.setUTCMonth(next.getUTCMonth() + 1);
    expect((await getCompany(c.cid))?.dueDate).toBe(next.toISOString());
    expect((await api("GET", `/api/invoices/${invoiceId}`, { token: c.admin.token })).body).toMatchObject({ status: "paid", paidAt: expect.any(String) });
    expect(w.capture.frames.filter((f) => f.connectionId === sock)).toEqual([
      { connectionId: sock, event: `company-${c.cid}-payment`, data: { action: "CONCLUIDA", invoiceId, company: { id: c.cid, dueDate: next.toISOString() } } },
    ]);

    // The same confirmation again changes nothing.
    expect((await webhook(txid, "30.00")).body).toEqual({ applied: 0 });
    expect((await getCompany(c.cid))?.dueDate).toBe(next.toISOString());
    // Paid: nothing to pay any more.
    expect((await pay(c.admin, invoiceId)).status).toBe(409);
    // The next invoice comes from the new due date's timer.
    await tick(Date.parse(next.toISOString()) - 5 * DAY);
    expect((await listInvoices(c.cid)).map((i) => i.dueDate)).toEqual([dueDate, next.toISOString()]);
  });

  it("skips a confirmation of another value or of an unknown charge", async () => {
    const { c, invoiceId } = await withInvoice();
    const { txid } = (await pay(c.admin, invoiceId)).body;
    expect((await webhook(txid, "3.00")).body).toEqual({ applied: 0 });
    expect((await webhook(`ATD${"9".repeat(16)}abcdef`, "30.00")).body).toEqual({ applied: 0 });
    expect((await listInvoices(c.cid))[0].status).toBe("open");
  });

  it("refuses a malformed body with 400", async () => {
    const res = await api("POST", `/api/pix/webhook?hmac=${SECRET}`, { body: { pix: [{ txid: "x", valor: "abc" }] } });
    expect(res.status).toBe(400);
  });
});

describe("POST /api/invoices/{id}/paid (super, no provider)", () => {
  it("refuses admins and agents with 403, lets a super user mark it paid once", async () => {
    const { c, invoiceId, dueDate } = await withInvoice();
    for (const u of [c.admin, w.agents[0], w.other.admin]) expect((await api("POST", `/api/invoices/${invoiceId}/paid`, { token: u.token })).status).toBe(403);
    expect((await getCompany(c.cid))?.dueDate).toBe(dueDate);
    const res = await api("POST", `/api/invoices/${invoiceId}/paid`, { token: w.root.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: invoiceId, status: "paid" });
    expect((await getCompany(c.cid))?.dueDate).not.toBe(dueDate);
    expect((await api("POST", `/api/invoices/${invoiceId}/paid`, { token: w.root.token })).status).toBe(409);
  });
});
