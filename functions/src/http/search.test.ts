/**
 * Search through the HTTP API as the web calls it (docs/product/search.md): Tickets › Busca sends `searchParam` to
 * `GET /api/tickets`, the Contacts page sends it to `GET /api/contacts`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { nowIso } from "../../../shared/src/common.ts";
import { ingestMessage } from "../../../shared/src/messages/repository.ts";
import { MessageItem } from "../../../shared/src/messages/schema.ts";
import { makeContact, makeTicket } from "../../../shared/src/tickets/fixtures.testkit.ts";
import type { TicketItem } from "../../../shared/src/tickets/schema.ts";

const w = companyWorld({ queues: ["Suporte", "Vendas"], whatsapp: true, agents: [{ queues: [0], name: "Ana Agente" }], other: true });
let mine: TicketItem;
let theirs: TicketItem;

let seq = 0;
async function say(t: TicketItem, body: string) {
  const now = nowIso();
  const m = MessageItem.parse({ id: `HTTPSRCH${++seq}`, ticketId: t.id, companyId: t.companyId, whatsappId: t.whatsappId, remoteJid: "y@s.whatsapp.net", body, fromMe: false, waTimestamp: now, createdAt: now, updatedAt: now });
  const { createdAt: _c, updatedAt: _u, ...toStore } = m;
  await ingestMessage(t.companyId, t, toStore, { lastMessage: body, incrementUnread: true, waAliasJid: "y@s.whatsapp.net" });
}

beforeAll(async () => {
  const [q1, q2] = w.queues;
  mine = await makeTicket(w.cid, { whatsappId: w.wa, queueId: q1, contact: await makeContact(w.cid, "Sérgio Lima", "5511997771234") });
  theirs = await makeTicket(w.cid, { whatsappId: w.wa, queueId: q2, contact: await makeContact(w.cid, "Teresa Lima", "5511988882345") });
  await say(mine, "Quero o reembolso do pedido 4521");
  await say(theirs, "Teste");
  await api("PUT", `/api/contacts/${mine.contactId}`, { token: w.admin.token, body: { name: "Sérgio Lima", number: "5511997771234", email: "sergio@exemplo.com.br" } });
}, 60_000);

const ticketIds = async (token: string, q: string) => {
  const res = await api("GET", `/api/tickets?searchParam=${encodeURIComponent(q)}`, { token });
  expect(res.status).toBe(200);
  return res.body.tickets.map((t: { id: number }) => t.id).sort((a: number, b: number) => a - b);
};

describe("GET /api/tickets?searchParam=", () => {
  it("finds what a user types: a message word, two words, a capitalized word and a number fragment", async () => {
    expect(await ticketIds(w.admin.token, "reembolso")).toEqual([mine.id]);
    expect(await ticketIds(w.admin.token, "pedido 4521")).toEqual([mine.id]);
    expect(await ticketIds(w.admin.token, "Teste")).toEqual([theirs.id]);
    expect(await ticketIds(w.admin.token, "98888")).toEqual([theirs.id]);
    expect(await ticketIds(w.admin.token, "sergio")).toEqual([mine.id]);
    expect(await ticketIds(w.admin.token, "lima")).toEqual([mine.id, theirs.id]);
  });

  it("gives an agent only the tickets of their queues, and another company nothing", async () => {
    expect(await ticketIds(w.agents[0].token, "lima")).toEqual([mine.id]);
    expect(await ticketIds(w.agents[0].token, "Teste")).toEqual([]);
    expect(await ticketIds(w.other.admin.token, "reembolso")).toEqual([]);
    expect(await ticketIds(w.other.admin.token, "lima")).toEqual([]);
  });
});

describe("GET /api/contacts?searchParam=", () => {
  it("finds contacts by a surname, a part of the number and a part of the email", async () => {
    const names = async (q: string) => (await api("GET", `/api/contacts?searchParam=${q}`, { token: w.admin.token })).body.contacts.map((c: { name: string }) => c.name);
    expect(await names("Lima")).toEqual(["Sérgio Lima", "Teresa Lima"]);
    expect(await names("9777")).toEqual(["Sérgio Lima"]);
    expect(await names("exemplo")).toEqual(["Sérgio Lima"]);
    expect(await names("SERGIO")).toEqual(["Sérgio Lima"]);
  });
});
