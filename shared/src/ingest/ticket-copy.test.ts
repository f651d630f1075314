/**
 * The ingest's kept copy of an open ticket (`read-cache.ts`, `tickets/revision.ts`): a
 * customer's text is stored without reading the ticket, and a ticket another process changed meanwhile (an agent
 * reading it, resolving it) is never written or shown stale: the transaction's condition on `rev` refuses the copy and
 * the message is taken again from a fresh read. "Another process" here is a write made with the repository directly,
 * which dispatches no event this process could learn from (as a Lambda's write would not).
 */
import { expect, it } from "vitest";
import { settleDeferred } from "../events/index.ts";
import { getTicketItem, writeTicketTransition, zeroUnread } from "../tickets/repository.ts";
import { makeWhatsapp } from "../tickets/fixtures.testkit.ts";
import { registerSocket } from "../users/realtime-capture.testkit.ts";
import { countDdbCalls } from "./calls.testkit.ts";
import { handleBaileysEvent, type IngestContext } from "./index.ts";
import { freshCompanyId, storedState, useIngestStack } from "./testkit.ts";

const capture = useIngestStack();

/** Each message a second after the one before (stamped in the past: stored at WhatsApp's whole seconds, in order). */
let second = Math.floor(Date.now() / 1000) - 600;
const text = (id: string, body: string) => ({
  type: "notify",
  messages: [{ key: { remoteJid: "5511955550002@s.whatsapp.net", fromMe: false, id }, messageTimestamp: ++second, pushName: "Bia Souza", message: { conversation: body } }],
});

async function twoMessages() {
  const companyId = freshCompanyId();
  const wa = await makeWhatsapp(companyId);
  const socket = await registerSocket(companyId, { id: 1, profile: "admin" });
  const ctx: IngestContext = { companyId, whatsappId: wa.id };
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0COPY00000001", "oi"));
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0COPY00000002", "tudo bem?"));
  await settleDeferred();
  const [ticket] = (await storedState(companyId)).tickets;
  return { companyId, ctx, socket, ticket };
}

const frameOf = (socket: string, messageId: string) =>
  capture.frames.find((f) => f.connectionId === socket && f.data?.message?.id === messageId && f.data?.action === "create");

it("an agent read the conversation in another process: the next text is stored once and the row shows 1 unread, not 3", async () => {
  const { companyId, ctx, socket, ticket } = await twoMessages();
  expect(ticket.unreadMessages).toBe(2);
  await zeroUnread(companyId, ticket.id); // the agent opened it (an HTTP Lambda)

  const calls = countDdbCalls();
  try {
    const { skipped } = await handleBaileysEvent(ctx, "messages.upsert", text("3EB0COPY00000003", "ainda aí?"));
    expect(skipped).toEqual([]);
    await settleDeferred();
  } finally {
    calls.remove();
  }
  // The kept copy was refused (nothing stored by that try), the ticket read again, the message stored once.
  expect(calls.byPurpose.get("TransactWriteItems: WhatsApp alias (dedupe) + ticket + search index")).toBe(2);
  expect(calls.byPurpose.get("GetItem: ticket")).toBe(1);

  const st = await storedState(companyId);
  expect(st.messages.map((m) => m.body)).toEqual(["oi", "tudo bem?", "ainda aí?"]);
  expect(st.tickets).toHaveLength(1);
  expect(st.tickets[0].unreadMessages).toBe(1);
  expect(frameOf(socket, "3EB0COPY00000003")?.data.ticket.unreadMessages).toBe(1);

  // The copy is exact again: the next text needs no read and counts on from 1.
  const after = countDdbCalls();
  try {
    await handleBaileysEvent(ctx, "messages.upsert", text("3EB0COPY00000004", "alô"));
    await settleDeferred();
  } finally {
    after.remove();
  }
  expect(after.byPurpose.get("GetItem: ticket")).toBeUndefined();
  expect(frameOf(socket, "3EB0COPY00000004")?.data.ticket.unreadMessages).toBe(2);
  expect((await getTicketItem(companyId, ticket.id, true))?.unreadMessages).toBe(2);
});

it("an agent resolved the ticket in another process: the customer's next text starts a new pending ticket", async () => {
  const { companyId, ctx, socket, ticket } = await twoMessages();
  const fresh = (await getTicketItem(companyId, ticket.id, true))!;
  await writeTicketTransition(fresh, { status: "closed", updatedAt: new Date().toISOString() });

  const { skipped } = await handleBaileysEvent(ctx, "messages.upsert", text("3EB0COPY00000003", "voltei"));
  expect(skipped).toEqual([]);
  await settleDeferred();

  const st = await storedState(companyId);
  expect(st.tickets).toHaveLength(2);
  const closed = st.tickets.find((t) => t.id === ticket.id)!;
  const next = st.tickets.find((t) => t.id !== ticket.id)!;
  expect(closed).toMatchObject({ status: "closed", lastMessage: "tudo bem?", unreadMessages: 2 });
  expect(next).toMatchObject({ status: "pending", lastMessage: "voltei", unreadMessages: 1 });
  expect(st.messages.filter((m) => m.ticketId === ticket.id).map((m) => m.body)).toEqual(["oi", "tudo bem?"]);
  expect(st.messages.filter((m) => m.ticketId === next.id).map((m) => m.body)).toEqual(["voltei"]);
  expect(frameOf(socket, "3EB0COPY00000003")?.data.ticket).toMatchObject({ id: next.id, status: "pending" });
});

it("the same message delivered again while the copy is stale is still stored exactly once", async () => {
  const { companyId, ctx, ticket } = await twoMessages();
  await zeroUnread(companyId, ticket.id);
  const again = text("3EB0COPY00000003", "de novo");
  await handleBaileysEvent(ctx, "messages.upsert", again);
  const second = await handleBaileysEvent(ctx, "messages.upsert", again);
  expect(second.skipped).toEqual([{ reason: "duplicate message" }]);
  await settleDeferred();
  const st = await storedState(companyId);
  expect(st.messages.map((m) => m.body)).toEqual(["oi", "tudo bem?", "de novo"]);
  expect(st.tickets[0].unreadMessages).toBe(1);
});
