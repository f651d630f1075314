/**
 * The automatic notices of the agent-side transitions and the timers: transfer notices, and one helper
 * that sends any automatic text in the company's time zone (`{{ms}}`, `{{hora}}` are rendered there).
 * Wordings are the old system's (its closing, transfer and accept texts; docs/product/messages.md#automatic-messages).
 */
import { getCompany } from "../companies/service.ts";
import type { MessageView } from "../messages/schema.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { sendAutomatic } from "./automatic.ts";

/**
 * The transfer notice (setting `sendMsgTransfTicket`) for a ticket that moved to queue `queueName` and/or agent
 * `userName` (null = that side did not change). Null when neither changed.
 */
export function transferNotice(queueName: string | null, userName: string | null): string | null {
  const tail = "\naguarde, já vamos te atender!";
  if (queueName != null && userName != null) {
    return `*Mensagem automática*:\nVocê foi transferido para o departamento *${queueName}* e contará com a presença de *${userName}*${tail}`;
  }
  if (queueName != null) return `*Mensagem automática*:\nVocê foi transferido para o departamento *${queueName}*${tail}`;
  if (userName != null) return `*Mensagem automática*:\nFoi transferido para o atendente *${userName}*${tail}`;
  return null;
}

/**
 * Sends `body` to the ticket's contact as an automatic message (`sendAutomatic`), variables rendered in the company's
 * time zone. Blank bodies send nothing (null). Returns the stored message, or null when nothing was sent or the send
 * failed visibly (ack -1).
 */
export async function notify(companyId: number, ticket: TicketItem, body: string | null | undefined): Promise<MessageView | null> {
  if (!body?.trim()) return null;
  const company = await getCompany(companyId);
  return sendAutomatic(companyId, ticket, body, { timeZone: company?.timezone });
}
