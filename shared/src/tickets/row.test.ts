/**
 * The packed list row (`row.ts`): a tab page is one Query while the rows are current; a customer's text
 * keeps its ticket's row current (written with the message at the copy's `rev`); a write that does not pack the row
 * (here an agent reading the conversation) shows at once anyway: that row is read whole, then re-packed.
 */
import { expect, it } from "vitest";
import type { AuthContext } from "../auth/tokens.ts";
import { settleDeferred } from "../events/index.ts";
import { commandsOf } from "../ingest/calls.testkit.ts";
import { handleBaileysEvent } from "../ingest/index.ts";
import { freshCompanyId, useIngestStack } from "../ingest/testkit.ts";
import { makeWhatsapp } from "./fixtures.testkit.ts";
import { zeroUnread } from "./repository.ts";
import { listTickets } from "./service.ts";

useIngestStack();

const admin = (companyId: number): AuthContext => ({
  userId: 1, companyId, profile: "admin", super: false, name: "Admin", email: "admin@test", queueIds: [], allTicket: "desabled", whatsappId: null, tokenVersion: 0,
});

let second = Math.floor(Date.now() / 1000) - 600;
const text = (id: string, body: string) => ({
  type: "notify",
  messages: [{ key: { remoteJid: "5511955550004@s.whatsapp.net", fromMe: false, id }, messageTimestamp: ++second, pushName: "Caio Row", message: { conversation: body } }],
});

it("keeps a page at one Query through a customer's texts, and shows another process's change at once", async () => {
  const companyId = freshCompanyId();
  const wa = await makeWhatsapp(companyId);
  const ctx = { companyId, whatsappId: wa.id };
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0ROW000000001", "oi"));
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0ROW000000002", "tem alguém?"));
  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0ROW000000003", "preciso de ajuda"));
  await settleDeferred();
  const page = () => listTickets(admin(companyId), { status: "pending" });
  await page();
  await settleDeferred();

  await handleBaileysEvent(ctx, "messages.upsert", text("3EB0ROW000000004", "alô?"));
  await settleDeferred();
  const afterText = await commandsOf(page);
  expect(afterText.commands).toEqual(["QueryCommand"]);
  expect(afterText.result.tickets).toHaveLength(1);
  expect(afterText.result.tickets[0]).toMatchObject({ lastMessage: "alô?", unreadMessages: 4, contact: { name: "Caio Row" } });

  // An agent opened the conversation in another process: the unread count is 0 on the very next page.
  await zeroUnread(companyId, afterText.result.tickets[0].id);
  const afterRead = await commandsOf(page);
  expect(afterRead.commands.slice(0, 2)).toEqual(["QueryCommand", "BatchGetItemCommand"]);
  expect(afterRead.result.tickets[0]).toMatchObject({ lastMessage: "alô?", unreadMessages: 0 });
  await settleDeferred();
  const repacked = await commandsOf(page);
  expect(repacked.commands).toEqual(["QueryCommand"]);
  expect(repacked.result.tickets).toEqual(afterRead.result.tickets);
});
