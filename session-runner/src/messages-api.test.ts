/**
 * The public messages API end to end on one machine: a connection's token sends through the runner and the simulated
 * network (the number checked with `onWhatsApp` against the network's contact book), the message lands in the
 * contact's ticket, a retried request with the same `Idempotency-Key` sends nothing twice, files go by multipart,
 * and the status is read by id. Rights, validation and the rate limit: `functions/src/http/messagesApi.test.ts`.
 */
import { describe, expect, it } from "vitest";
import { storedState } from "@atende/shared/ingest/testkit";
import { getMedia } from "@atende/shared/storage/media";
import { getWhatsappItem } from "@atende/shared/whatsapp/repository";
import { api, multipartBody } from "../../test/helpers.ts";
import { companyWorld } from "../../test/world.ts";
import { eventually } from "./testing/harness.ts";
import { useOneMachine } from "./testing/one-machine.ts";

const companies = companyWorld({ capture: false });
const { sim } = useOneMachine();

/** A fresh company with one connected connection and its API token. */
async function connected() {
  const w = await companies.fresh();
  const created = await api("POST", "/api/whatsapp", { token: w.admin.token, body: { name: "API" } });
  const whatsappId = created.body.id as number;
  await eventually(async () => (await getWhatsappItem(w.cid, whatsappId))?.status === "qrcode");
  expect((await sim("POST", `/sim/whatsapp/${whatsappId}/scan`, {})).status).toBe(200);
  await eventually(async () => (await getWhatsappItem(w.cid, whatsappId))?.status === "CONNECTED");
  const shown = await api("GET", `/api/whatsapp/${whatsappId}`, { token: w.admin.token });
  return { ...w, whatsappId, apiToken: shown.body.token as string };
}

const sentTo = async (whatsappId: number, jid: string) => ((await sim("GET", `/sim/whatsapp/${whatsappId}/sent`)).body as { jid: string; id: string; content: any }[]).filter((s) => s.jid === jid);

describe("POST /api/messages/send through the runner", () => {
  it("sends once for two requests with one Idempotency-Key, into the contact's ticket like an agent's message, and reads its status by id", async () => {
    const c = await connected();
    const number = "5511977001122";
    const headers = { "idempotency-key": "pedido-123" };
    const first = await api("POST", "/api/messages/send", { token: c.apiToken, headers, body: { number, body: "Seu pedido saiu para entrega" } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ message: "Mensagem enviada", id: expect.any(String), status: expect.stringMatching(/queued|sent|delivered|read/) });
    const again = await api("POST", "/api/messages/send", { token: c.apiToken, headers, body: { number, body: "Seu pedido saiu para entrega" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    await eventually(async () => (await sentTo(c.whatsappId, `${number}@s.whatsapp.net`)).length === 1);
    // Give a second send the time to show up: the network must still have carried exactly one.
    await new Promise((r) => setTimeout(r, 500));
    const sent = await sentTo(c.whatsappId, `${number}@s.whatsapp.net`);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ id: first.body.id, content: { text: "Seu pedido saiu para entrega" } });

    // The message is in the contact's ticket, unsigned and not automatic, as the agents see it.
    const listed = await api("GET", `/api/messages/${first.body.ticketId}`, { token: c.admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.messages).toEqual([expect.objectContaining({ id: first.body.id, fromMe: true, isAutomatic: false, body: "Seu pedido saiu para entrega" })]);
    expect(listed.body.ticket.contact).toMatchObject({ number });

    const status = await eventually(async () => {
      const s = await api("GET", `/api/messages/send/${first.body.id}`, { token: c.apiToken });
      return s.body.status === "read" ? s : null;
    });
    expect(status.body).toMatchObject({ id: first.body.id, ack: 4, status: "read", sendError: null });

    // A second send to the same number reuses the open ticket.
    const next = await api("POST", "/api/messages/send", { token: c.apiToken, body: { number, body: "Chegou?" } });
    expect(next.body.ticketId).toBe(first.body.ticketId);
    expect((await storedState(c.cid)).tickets).toHaveLength(1);
  }, 60_000);

  it("sends files by multipart, one message each with its caption, stored through the media port", async () => {
    const c = await connected();
    const number = "5511977003344";
    const pdf = Buffer.from("%PDF-1.4 boleto");
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    const form = multipartBody(
      [
        { name: "boleto.pdf", type: "application/pdf", data: pdf },
        { name: "foto.png", type: "image/png", data: png },
      ],
      { number, body: "Segue o boleto" },
    );
    const res = await api("POST", "/api/messages/send", { token: c.apiToken, ...form });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { mediaType: string }) => m.mediaType)).toEqual(["application", "image"]);
    const sent = await eventually(async () => {
      const s = await sentTo(c.whatsappId, `${number}@s.whatsapp.net`);
      return s.length === 2 ? s : null;
    });
    expect(sent.map((s) => Object.keys(s.content).find((k) => k === "document" || k === "image"))).toEqual(["document", "image"]);
    const stored = (await storedState(c.cid)).messages.filter((m) => m.fromMe);
    expect(stored.map((m) => [m.mediaName, m.body])).toEqual([
      ["boleto.pdf", "Segue o boleto"],
      ["foto.png", "Segue o boleto"],
    ]);
    expect((await getMedia(stored[0].mediaKey!)).equals(pdf)).toBe(true);
  }, 60_000);

  it("refuses a number without WhatsApp with ERR_WAPP_INVALID_CONTACT and stores nothing", async () => {
    const c = await connected();
    // Neither spelling of this mobile has an account (with its ninth digit, nor without it).
    for (const n of ["5511955550000", "551155550000"]) expect((await sim("PUT", `/sim/contact-book/${n}`, { onWhatsApp: false })).status).toBe(200);
    const before = (await storedState(c.cid)).itemCount;
    const res = await api("POST", "/api/messages/send", { token: c.apiToken, body: { number: "5511955550000", body: "Olá" } });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_WAPP_INVALID_CONTACT" } });
    const after = await storedState(c.cid);
    expect(after.contacts).toEqual([]);
    expect(after.messages).toEqual([]);
    expect(after.itemCount).toBe(before);
    expect(await sentTo(c.whatsappId, "5511955550000@s.whatsapp.net")).toEqual([]);
  }, 60_000);

  it("sends to a Brazilian mobile that WhatsApp knows only without its ninth digit, under that JID", async () => {
    const c = await connected();
    expect((await sim("PUT", "/sim/contact-book/5511955551111", { onWhatsApp: false })).status).toBe(200);
    expect((await sim("PUT", "/sim/contact-book/551155551111", { onWhatsApp: true })).status).toBe(200);
    const res = await api("POST", "/api/messages/send", { token: c.apiToken, body: { number: "5511955551111", body: "Olá" } });
    expect(res.status).toBe(200);
    await eventually(async () => (await sentTo(c.whatsappId, "551155551111@s.whatsapp.net")).length === 1);
    expect(await sentTo(c.whatsappId, "5511955551111@s.whatsapp.net")).toEqual([]);
  }, 60_000);

  it("answers another connection's or another company's message id with 404, and a status for its own", async () => {
    const a = await connected();
    const b = await connected();
    const sent = await api("POST", "/api/messages/send", { token: a.apiToken, body: { number: "5511977005566", body: "só para A" } });
    expect(sent.status).toBe(200);
    expect((await api("GET", `/api/messages/send/${sent.body.id}`, { token: b.apiToken })).body).toEqual({ error: "ERR_NO_MESSAGE_FOUND" });
    expect((await api("GET", `/api/messages/send/${sent.body.id}`, { token: a.apiToken })).status).toBe(200);
  }, 60_000);
});
