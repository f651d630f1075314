/** Every DynamoDB call of the personal-data feature: audit entries and the deletion of a message's WhatsApp alias. */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { batchWriteAll } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import type { MessageItem } from "../messages/schema.ts";
import { AuditEntry } from "./schema.ts";

/** Writes an audit entry. */
export async function putAuditEntry(e: AuditEntry): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.auditEntry(e.companyId, e.at, e.id), _type: "audit", ...e } }));
}

/** The company's audit entries, oldest first. */
export async function listAuditEntries(companyId: number): Promise<AuditEntry[]> {
  const items = await queryAllByPrefix(keys.auditPK(companyId), keys.auditPrefix);
  return items.map((i) => parseStored(AuditEntry, i));
}

/**
 * Deletes a ticket's search entries: its messages' words (`keys.searchWord`) and the contact's grams
 * (`keys.searchTicketGram`), which deleting the ticket leaves behind.
 */
export async function deleteTicketSearchEntries(companyId: number, ticketId: number, words: string[], grams: string[]): Promise<void> {
  await batchWriteAll([
    ...words.map((w) => ({ DeleteRequest: { Key: keys.searchWord(companyId, w, ticketId) } })),
    ...grams.map((g) => ({ DeleteRequest: { Key: keys.searchTicketGram(companyId, g, ticketId) } })),
  ]);
}

/** Deletes the WhatsApp alias items of these messages (`keys.messageAlias`, and the older `keys.waMessage`). */
export async function deleteMessageAliases(messages: Pick<MessageItem, "companyId" | "whatsappId" | "remoteJid" | "id">[]): Promise<void> {
  await batchWriteAll(
    messages.flatMap((m) => [keys.messageAlias(m.companyId, m.id, m.whatsappId, m.remoteJid), keys.waMessage(m.companyId, m.whatsappId, m.remoteJid, m.id)].map((Key) => ({ DeleteRequest: { Key } }))),
  );
}
