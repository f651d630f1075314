/**
 * What answers a customer's message (ratings, chatbot, out-of-hours, refused calls): the ingest calls {@link onInbound} once for every new inbound
 * message it stored (never for own messages, history or redeliveries). Each automation registers one step
 * (`registerInboundStep`); steps run in `order` and the first that answers `true` (it handled the message) stops the
 * rest. Rating answers come before the chatbot. A step that throws is logged: the message is already stored and
 * reached the agents, so nothing is lost; the bot just does not answer that message.
 */
import { log } from "../log.ts";
import { callStep } from "./calls.ts";
import { chatbotStep } from "./chatbot.ts";
import type { ContactItem } from "../contacts/schema.ts";
import type { MessageItem } from "../messages/schema.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { ratingStep } from "./rating.ts";
import { assistantStep } from "../prompts/routing.ts";
import { integrationStep } from "../integrations/runtime.ts";

export interface InboundContext {
  companyId: number;
  whatsappId: number;
  /** The ticket as stored with this message (after the ingest's write). */
  ticket: TicketItem;
  /** true when this message opened the ticket. */
  ticketCreated: boolean;
  message: MessageItem;
  contact: ContactItem;
  /** The time of the message's arrival (tests pass a controlled clock). */
  now: Date;
}

export interface InboundStep {
  name: string;
  /** Lower runs first (rating 10, chatbot 20). */
  order: number;
  /** Returns true when it handled the message (later steps are skipped). */
  handle: (ctx: InboundContext) => Promise<boolean>;
}

const steps: InboundStep[] = [];

/** Registers an automation step (called once, at module load, by the automation's own file). */
export function registerInboundStep(step: InboundStep): void {
  if (steps.some((s) => s.name === step.name)) return;
  steps.push(step);
  steps.sort((a, b) => a.order - b.order);
}

// The steps of this automation, in `order`: calls 5, rating answer 10, chatbot 20 (their modules import only
// types from here, so there is no import cycle at load time).
registerInboundStep(callStep);
registerInboundStep(ratingStep);
registerInboundStep(chatbotStep);
// The AI assistant (order 15): a ticket a prompt answers skips the queue menu and option tree.
registerInboundStep(assistantStep);
// Queue integrations (Typebot, n8n, webhook, Dialogflow), order 15: a connection's or queue's bot answers before the chatbot.
registerInboundStep(integrationStep);

/** Runs the steps for one stored inbound message. Never throws. */
export async function onInbound(ctx: InboundContext): Promise<void> {
  for (const step of steps) {
    try {
      if (await step.handle(ctx)) return;
    } catch (err) {
      log("warn", "automation step failed", { step: step.name, companyId: ctx.companyId, ticketId: ctx.ticket.id, messageId: ctx.message.id, err });
      return;
    }
  }
}
