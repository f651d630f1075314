/**
 * Test kit of the search backfill: data stored the way the product stored it before the search index existed.
 * Used by `backfill.test.ts` and the wiring's test (`functions/src/jobs/search-backfill.test.ts`).
 */
import { randomUUID } from "node:crypto";
import { contactRecord } from "../contacts/repository.ts";
import { ContactItem } from "../contacts/schema.ts";
import { batchWriteAll } from "../db/batch.ts";
import { messageRecord } from "../messages/repository.ts";
import { MessageItem } from "../messages/schema.ts";
import { ticketRecord } from "../tickets/repository.ts";
import { TicketItem } from "../tickets/schema.ts";

/** Writes contacts, tickets and messages the way the product stored them before the search index existed (no grams, no words, no `_sw`). */
export async function storeWithoutIndex(cid: number, wid: number) {
  const at = "2025-06-01T10:00:00.000Z";
  const people = [
    ["Helena Lima", "5511977770001", "helena@exemplo.com.br"],
    ["Otávio Prado", "5511966660002", ""],
    ["Rita Campos", "5511955550003", ""],
  ];
  const items: Record<string, unknown>[] = [];
  people.forEach(([name, number, email], i) => {
    const id = i + 1;
    const contact = ContactItem.parse({ id, companyId: cid, uuid: randomUUID(), name, number, email, jids: [`${number}@s.whatsapp.net`], createdAt: at, updatedAt: at });
    items.push(contactRecord(contact));
    const ticket = TicketItem.parse({ id, uuid: randomUUID(), companyId: cid, status: (["open", "pending", "closed"] as const)[i], contactId: id, whatsappId: wid, userId: i === 1 ? null : 1, createdAt: at, updatedAt: `2025-06-0${i + 1}T10:00:00.000Z` });
    items.push(ticketRecord(ticket));
    const bodies = i === 0 ? ["Quero o reembolso do pedido 4521", "Reembolso ainda não caiu"] : i === 1 ? ["Bom dia", "Segunda via do boleto, por favor"] : ["Obrigado pelo atendimento"];
    bodies.forEach((body, k) => {
      const ts = `2025-06-01T10:0${k}:00.000Z`;
      items.push(messageRecord(MessageItem.parse({ id: `OLD${cid}-${id}-${k}`, ticketId: id, companyId: cid, contactId: id, whatsappId: wid, remoteJid: `${number}@s.whatsapp.net`, body, fromMe: k % 2 === 1, waTimestamp: ts, createdAt: ts, updatedAt: ts })));
    });
  });
  await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })));
}
