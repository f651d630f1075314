/**
 * Every write of a ticket item moves its `rev` by one (`revision.ts`): the ingest's kept copy of an open ticket is
 * trusted only at its `rev`, so a write path that forgot the bump would let a message be shown with a stale ticket.
 * Each of the repository's ticket writes is made here and the stored `rev` checked after it.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { expect, it } from "vitest";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { ingestMessage, replaceLastMessage } from "../messages/repository.ts";
import { putNewTag, writeTicketTags } from "../tags/repository.ts";
import { TagItem } from "../tags/schema.ts";
import { freshCompanyId, useIngestStack } from "../ingest/testkit.ts";
import { getTicketItem, setTicketAttributes, writeTicketTransition, zeroUnread } from "./repository.ts";
import { makeWhatsapp } from "./fixtures.testkit.ts";
import { findOrCreateTicket } from "./service.ts";
import { summariesOf } from "./summaries.ts";
import { createContact, updateContact } from "../contacts/service.ts";
import { settleDeferred } from "../events/index.ts";

useIngestStack();

it("moves rev on each ticket write: transition, message, unread reset, presence, preview, tags, row summaries", async () => {
  const companyId = freshCompanyId();
  const wa = await makeWhatsapp(companyId);
  const contact = await createContact(companyId, { name: "Rev Teste", number: "5511955550003", email: "", disableBot: false, extraInfo: [] });
  const { ticket } = await findOrCreateTicket(companyId, { contactId: contact.id, whatsappId: wa.id, isGroup: false });
  const stored = async () => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.ticket(companyId, ticket.id), ConsistentRead: true }))).Item!;
  const revs: number[] = [Number((await stored()).rev ?? 0)];
  const step = async (write: () => Promise<unknown>) => {
    await write();
    revs.push(Number((await stored()).rev));
  };
  const current = async () => (await getTicketItem(companyId, ticket.id, true))!;

  await step(async () => writeTicketTransition(await current(), { status: "open", updatedAt: new Date().toISOString() }));
  await step(async () =>
    ingestMessage(companyId, await current(), { id: "3EB0REV000000001", ticketId: ticket.id, companyId, contactId: contact.id, whatsappId: wa.id, remoteJid: "5511955550003@s.whatsapp.net", body: "oi", fromMe: false, waTimestamp: new Date().toISOString() } as never, {
      lastMessage: "oi",
      incrementUnread: true,
      waAliasJid: "5511955550003@s.whatsapp.net",
    }),
  );
  await step(() => zeroUnread(companyId, ticket.id));
  await step(() => setTicketAttributes(companyId, ticket.id, { presence: "composing" }));
  await step(() => replaceLastMessage(companyId, ticket.id, "oi", "Esta mensagem foi apagada"));
  const now = new Date().toISOString();
  await putNewTag(TagItem.parse({ id: 1, companyId, name: "VIP", color: "#2563eb", createdAt: now, updatedAt: now }));
  await step(async () => expect(await writeTicketTags(await current(), [1])).toMatchObject({ ok: true }));
  // The row summaries follow a contact's new name (the summaries listener).
  await step(async () => {
    await updateContact(companyId, contact.id, { name: "Rev Novo" });
    await settleDeferred();
    expect(summariesOf(await current())?.contact?.name).toBe("Rev Novo");
  });

  expect(revs).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
});
