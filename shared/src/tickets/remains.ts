/**
 * The `ticketRemains` timer kind: finishes removing what a deleted ticket leaves behind (its messages, notes, tag
 * edges, message references and search index items) when the process that deleted it did not
 * (`repository.ts` `deleteTicketItems` writes the timer in the deletion's own transaction and cancels it once done).
 * Loaded by the minute tick.
 */
import { registerTimerKind } from "../timers/index.ts";
import { TICKET_REMAINS } from "../timers/kinds.ts";
import { deleteTicketRemains } from "./repository.ts";

registerTimerKind(TICKET_REMAINS, async (timer) => {
  const contact = (timer.data.contact ?? null) as Parameters<typeof deleteTicketRemains>[2];
  await deleteTicketRemains(timer.companyId, Number(timer.ref), contact);
  return undefined;
});
