/**
 * What a customer's plain text on an open ticket costs in DynamoDB calls once the ingest's
 * caches are warm, pinned so that a change adding a read or a write to the hot path is noticed here (the bench prints
 * the same count with the ratio to the bare transaction). Calls are counted with a middleware on the shared client,
 * counters (deferred) included; the message must still be stored once and reach the agent's socket.
 */
import { expect, it } from "vitest";
import { settleDeferred } from "../events/index.ts";
import { makeWhatsapp } from "../tickets/fixtures.testkit.ts";
import { registerSocket } from "../users/realtime-capture.testkit.ts";
import { countDdbCalls } from "./calls.testkit.ts";
import { handleBaileysEvent, type IngestContext } from "./index.ts";
import { freshCompanyId, storedState, useIngestStack } from "./testkit.ts";

const capture = useIngestStack();

const text = (id: string, body: string, at = Date.now()) => ({
  type: "notify",
  messages: [{ key: { remoteJid: "5511955550001@s.whatsapp.net", fromMe: false, id }, messageTimestamp: Math.floor(at / 1000), pushName: "Ana Lima", message: { conversation: body } }],
});

it("a customer's plain text on an open ticket costs a pinned number of DynamoDB calls (no read) on a warm cache", async () => {
  const companyId = freshCompanyId();
  const wa = await makeWhatsapp(companyId);
  const socket = await registerSocket(companyId, { id: 1, profile: "admin" });
  const ctx: IngestContext = { companyId, whatsappId: wa.id };
  // The first message creates the contact and the ticket; the second warms the caches.
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0CALLS0000001", "oi"));
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0CALLS0000002", "tudo bem?"));
  await settleDeferred();

  const calls = countDdbCalls();
  let skipped: { reason: string }[];
  try {
    ({ skipped } = await handleBaileysEvent(ctx, "messages.upsert", text("3EB0CALLS0000003", "quero saber do meu pedido")));
    await settleDeferred();
  } finally {
    calls.remove();
  }
  expect(skipped).toEqual([]);
  // Before the ingest's caches it was 10 (marker, connection, company, settings, the ticket view's BatchGet, the
  // last-interaction write on top of these three), then 3 (with a day-counter outbox item and its apply). The ticket is
  // the copy kept at its `rev` (read-cache.ts), which the transaction's condition confirms: no read. The message is
  // counted on its ticket by the same transaction (`messagesIn`, and in the day's `inDays`). Whether the message
  // answers a campaign's wait is read from the ticket and the contact the ingest holds anyway: no call. The day's
  // live count of customers' messages is one transaction per second of a company's messages (here the only one).
  // The company's socket listing serves frames for 2 s (`realtime/publish.ts`): read once at most, none when the
  // warm-up's listing is still fresh.
  const { "Query: socket registrations": listings = 0, ...writes } = Object.fromEntries(calls.byPurpose);
  expect(writes).toEqual({
    "TransactWriteItems: WhatsApp alias (dedupe) + ticket + search index": 1,
    "TransactWriteItems: company + counters": 1,
  });
  expect(listings).toBeLessThanOrEqual(1);
  expect(calls.total).toBe(2 + listings);
  // What the transaction writes: the alias (dedupe key and the id's location in one item, `keys.messageAlias`),
  // message, ticket, and one search-index item per indexed word of the text the ticket did not hold yet (three here);
  // a change adding an item to every message shows here. Plus the live count's one update of the company's day (the
  // ticket waits: no attendant's day), once per second of messages.
  expect(calls.written.items).toBe(7);
  // The ticket's packed list row (`tickets/row.ts`, about 1 KB) is not sent with the message: what a message changes
  // lies beside it, and the row's `rowRev` moves with `rev`. The seven items carry about 1.6 KB (3 KB with the row).
  expect(calls.written.bytes).toBeLessThan(2_300);

  const st = await storedState(companyId);
  expect(st.messages.map((m) => m.body)).toEqual(["oi", "tudo bem?", "quero saber do meu pedido"]);
  expect(st.tickets).toHaveLength(1);
  expect(st.tickets[0]).toMatchObject({ unreadMessages: 3, messagesIn: 3, lastMessage: "quero saber do meu pedido" });
  const frames = capture.frames.filter((f) => f.connectionId === socket && f.data?.message?.id === "3EB0CALLS0000003");
  expect(frames.map((f) => [f.event, f.data.action])).toEqual([[`company-${companyId}-appMessage`, "create"]]);
});

it("a message that moves the contact's 'Última interação' adds only that write: no re-read of the contact, no refresh of its tickets' summaries", async () => {
  const companyId = freshCompanyId();
  const wa = await makeWhatsapp(companyId);
  await registerSocket(companyId, { id: 1, profile: "admin" });
  const ctx: IngestContext = { companyId, whatsappId: wa.id };
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0TOUCH0000001", "oi"));
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0TOUCH0000002", "tudo bem?"));
  await settleDeferred();

  const later = Date.now() + 5 * 60_000;
  const calls = countDdbCalls();
  try {
    await handleBaileysEvent(ctx, "messages.upsert", text("3EB0TOUCH0000003", "ainda aí?", later));
    await settleDeferred();
    // The next message reads the contact from the cache again (kept with its new time).
    await handleBaileysEvent(ctx, "messages.upsert", text("3EB0TOUCH0000004", "alô", later + 1000));
    await settleDeferred();
  } finally {
    calls.remove();
  }
  // Two messages (each settled alone, so each with its own live day count), plus the one contact write; the frames'
  // socket listings (three at most: the listing serves a company's frames for 2 s) are not the message's cost.
  const { "Query: socket registrations": listings = 0, ...byPurpose } = Object.fromEntries(calls.byPurpose);
  expect(byPurpose).toEqual({
    "TransactWriteItems: WhatsApp alias (dedupe) + ticket + search index": 2,
    "TransactWriteItems: company + counters": 2,
    "UpdateItem: contact": 1,
  });
  expect(listings).toBeLessThanOrEqual(3);
  const st = await storedState(companyId);
  expect(st.contacts[0].lastInteractionAt).toBe(new Date(Math.floor(later / 1000) * 1000).toISOString());
});

it("the day's live count of customers' messages is one transaction per second of a burst, whatever its size", { timeout: 120_000 }, async () => {
  const companyId = freshCompanyId();
  const wa = await makeWhatsapp(companyId);
  const ctx: IngestContext = { companyId, whatsappId: wa.id };
  const from = (n: number, id: string) => ({
    type: "notify",
    messages: [{ key: { remoteJid: `55119555510${String(n).padStart(2, "0")}@s.whatsapp.net`, fromMe: false, id }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: `Cliente ${n}`, message: { conversation: "oi" } }],
  });
  // Ten customers' tickets, warmed (contact, ticket and the day's count on each).
  for (let n = 0; n < 10; n++) await handleBaileysEvent(ctx, "messages.upsert", from(n, `3EB0BURSTW${n}`));
  await settleDeferred();
  const calls = countDdbCalls();
  try {
    await Promise.all(Array.from({ length: 10 }, (_, n) => handleBaileysEvent(ctx, "messages.upsert", from(n, `3EB0BURSTM${n}`))));
    await settleDeferred();
  } finally {
    calls.remove();
  }
  expect(calls.byPurpose.get("TransactWriteItems: WhatsApp alias (dedupe) + ticket + search index")).toBe(10);
  // One window (two when a loaded machine spreads the ten over more than its second), never one per message.
  expect(calls.byPurpose.get("TransactWriteItems: company + counters")).toBeLessThanOrEqual(2);
});
