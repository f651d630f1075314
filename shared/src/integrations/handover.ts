/**
 * The ticket side of the integrations (docs/product/integrations.md#handing-over): every change a bot asks for is a
 * version-checked ticket transition (re-read and decided again when a customer's next message or an agent changed
 * the ticket first), followed by `ticket.updated`. Handing over turns the bot off for the ticket (`useIntegration`
 * false, `integrationId` kept: the connection's bot does not take it again in this cycle) and, for an error, leaves
 * a note for the agents: a bot never stops silently.
 */
import { laterIso, nowIso } from "../common.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import "../tickets/events.ts";
import { log } from "../log.ts";
import { putNote } from "../notes/repository.ts";
import { NoteItem } from "../notes/schema.ts";
import { getTicketItem, writeTicketTransition } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { cancelTimer } from "../timers/index.ts";
import { deleteBotSession } from "./repository.ts";
import type { IntegrationItem } from "./schema.ts";

/** Timer kind of a Typebot session's expiry (ref = ticket id; data `{lastAt}`). */
export const TYPEBOT_EXPIRES = "typebotExpires";
/** The signature of the notes integrations leave (no user wrote them). */
export const INTEGRATION_NOTE_AUTHOR = "Integração";

type Patch = Partial<Pick<TicketItem, "status" | "userId" | "queueId" | "useIntegration" | "integrationId" | "chatbot" | "queueOptionId" | "updatedAt">>;

/**
 * Applies `decide(current ticket)` (null: nothing to do) as a transition and dispatches `ticket.updated`. Returns the
 * new ticket, or null when nothing was written (nothing to do, the ticket vanished, or another open ticket of the
 * contact holds the connection). Errors: DynamoDB errors propagate.
 */
export async function transitionTicket(companyId: number, ticketId: number, decide: (t: TicketItem) => Patch | null): Promise<TicketItem | null> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const t = await getTicketItem(companyId, ticketId, true);
    if (!t) return null;
    const patch = decide(t);
    if (!patch || !Object.entries(patch).some(([k, v]) => t[k as keyof TicketItem] !== v)) return null;
    try {
      const next = await writeTicketTransition(t, patch);
      await dispatch({ type: "ticket.updated", companyId, ticket: next, previous: t });
      return next;
    } catch (err) {
      if (err instanceof AppError && err.code === "ERR_CONFLICT") continue;
      if (err instanceof AppError && err.code === "ERR_OTHER_OPEN_TICKET") return null;
      throw err;
    }
  }
  return null;
}

/** Ends the ticket's bot session and its expiry timer. */
export async function endBotSession(companyId: number, ticketId: number): Promise<void> {
  await Promise.all([deleteBotSession(companyId, ticketId), cancelTimer(companyId, TYPEBOT_EXPIRES, ticketId)]);
}

/** Leaves a note on the ticket for its agents, signed {@link INTEGRATION_NOTE_AUTHOR}. */
export async function integrationNote(companyId: number, ticket: Pick<TicketItem, "id" | "contactId">, note: string): Promise<void> {
  await putNote(
    NoteItem.parse({
      id: await nextId(companyId, "note"),
      companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      note,
      userId: 0,
      user: { name: INTEGRATION_NOTE_AUTHOR },
      createdAt: nowIso(),
    }),
  );
}

/** Turns the bot off for the ticket (it stays where it is, for people). Returns the ticket as it is now. */
export async function stopBot(companyId: number, ticketId: number, integration: IntegrationItem): Promise<TicketItem | null> {
  await endBotSession(companyId, ticketId);
  const next = await transitionTicket(companyId, ticketId, () => ({ useIntegration: false, integrationId: integration.id, chatbot: false }));
  return next ?? (await getTicketItem(companyId, ticketId, true));
}

/**
 * Hands the ticket to people after a failure of its bot: the bot off ({@link stopBot}) and a note
 * `Integração "<name>": <reason>. O atendimento segue com a equipe.` Never throws (a failure is logged).
 */
export async function handOverTicket(companyId: number, ticketId: number, integration: IntegrationItem, reason: string): Promise<void> {
  try {
    const t = await stopBot(companyId, ticketId, integration);
    if (t) await integrationNote(companyId, t, `Integração "${integration.name}": ${reason}. O atendimento segue com a equipe.`);
  } catch (err) {
    log("error", "integration hand-over failed", { companyId, ticketId, integrationId: integration.id, err });
  }
}

/**
 * Moves the ticket to queue `queueId` (pending, for that queue's agents) or, with `userId`, to that agent (open);
 * the bot off. Returns the new ticket or null when nothing was written.
 */
export async function transferTicket(companyId: number, ticketId: number, integration: IntegrationItem, queueId: number, userId: number | null): Promise<TicketItem | null> {
  await endBotSession(companyId, ticketId);
  return transitionTicket(companyId, ticketId, (t) => ({
    queueId,
    userId,
    status: userId != null ? "open" : "pending",
    useIntegration: false,
    integrationId: integration.id,
    chatbot: false,
    queueOptionId: null,
    updatedAt: laterIso(t.updatedAt),
  }));
}

/** Closes the ticket (the customer typed the integration's finish keyword). */
export async function closeTicket(companyId: number, ticketId: number, integration: IntegrationItem): Promise<TicketItem | null> {
  await endBotSession(companyId, ticketId);
  return transitionTicket(companyId, ticketId, (t) => ({ status: "closed", useIntegration: false, integrationId: integration.id, chatbot: false, updatedAt: laterIso(t.updatedAt) }));
}
