/** Test helpers of the campaign engine: a customer's message through the real ingest path. */
import type { ContactItem } from "../contacts/schema.ts";
import { handleBaileysEvent } from "../ingest/index.ts";
import { getActiveTicketId, getTicketItem } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";

let seq = 0;

/** The contact writes `body` on connection `whatsappId` (a Baileys `messages.upsert`); returns the ticket it landed on. */
export async function ingestInbound(companyId: number, whatsappId: number, contact: ContactItem, body: string): Promise<{ ticket: TicketItem }> {
  const id = `3EB0CAMPREPLY${Date.now()}${++seq}`;
  await handleBaileysEvent({ companyId, whatsappId }, "messages.upsert", {
    type: "notify",
    messages: [{ key: { fromMe: false, remoteJid: `${contact.number}@s.whatsapp.net`, id }, message: { conversation: body }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: contact.name }],
  });
  const ticketId = await getActiveTicketId(companyId, whatsappId, contact.id);
  const ticket = ticketId ? await getTicketItem(companyId, ticketId, true) : null;
  if (!ticket) throw new Error("the reply opened no ticket");
  return { ticket };
}
