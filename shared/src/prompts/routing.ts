/**
 * Where the assistant joins the chatbot's routing (docs/product/prompts.md#the-assistant): one inbound step (order
 * 15: after rating answers, before the queue menu and option tree) that takes a customer's message when a prompt
 * answers the ticket, and hands it to the durable assistant listener (`./assistant.ts`) by dispatching
 * `assistant.requested`: the model is never called inline in the ingest.
 *
 * A prompt answers a ticket when no agent holds it (pending, no user, the bot not silenced for this cycle), it is not
 * a group, the contact's bot is not disabled, and its connection has a prompt while the ticket has no queue yet, or
 * its queue has one.
 */
import { nowIso } from "../common.ts";
import { dispatch } from "../events/index.ts";
import { cachedConnection } from "../ingest/read-cache.ts";
import { getQueue } from "../queues/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import type { InboundStep } from "../automation/inbound.ts";
import "./events.ts";
import { getPrompt } from "./repository.ts";
import type { PromptItem } from "./schema.ts";

/** The prompt that answers `ticket` now, or null (an agent holds it, a group, no prompt on its connection or queue). */
export async function promptForTicket(companyId: number, ticket: TicketItem): Promise<PromptItem | null> {
  if (ticket.isGroup || ticket.status !== "pending" || ticket.userId != null) return null;
  if (ticket.botSilentUntil && ticket.botSilentUntil > nowIso()) return null;
  const promptId =
    ticket.queueId == null ? ((await cachedConnection(companyId, ticket.whatsappId))?.promptId ?? null) : ((await getQueue(companyId, ticket.queueId))?.promptId ?? null);
  if (promptId == null) return null;
  return (await getPrompt(companyId, promptId)) ?? null;
}

/** The inbound step: takes the message (true) when a prompt answers the ticket, after asking the assistant listener. */
export const assistantStep: InboundStep = {
  name: "assistant",
  order: 15,
  handle: async (ctx) => {
    if (ctx.contact.disableBot || ctx.message.fromMe || ctx.message.mediaType === "call_log") return false;
    const prompt = await promptForTicket(ctx.companyId, ctx.ticket);
    if (!prompt) return false;
    await dispatch({ type: "assistant.requested", companyId: ctx.companyId, ticketId: ctx.ticket.id, messageId: ctx.message.id, promptId: prompt.id });
    return true;
  },
};
