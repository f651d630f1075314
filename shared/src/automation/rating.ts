/**
 * The customer's rating of the attendance (docs/product/ratings.md: asked when a ticket is resolved with `userRating`
 * enabled, scale 1 to 3). Done better than the old system: the ticket does not vanish
 * from the agents' lists, any text is not taken as a rating, and an unanswered prompt does not stay open forever.
 *
 * 1. An agent resolves an open, assigned, non-group ticket while `userRating` is enabled ({@link ratingApplies}): the
 *    ticket STAYS `open` with `ratingAt` set (realtime `ticket` update carries it: the lists show "awaiting rating"),
 *    the connection's `ratingMessage` plus the 1-3 prompt is sent ({@link startRating}) and the rating wait is
 *    scheduled: timer `ratingWait` / ticket id, due `ratingAt + ratingWaitMinutes` (connection field, default 1440).
 * 2. The customer's next message is read by the inbound step (order 10, before the chatbot): `1`, `2` or `3` is stored
 *    as the attendant's rating of that ticket (item `keys.ticketRating(cid, tid, ratingAt)` + counters' outbox item
 *    `ratings`/`ratingSum` for the day and the user, written in the SAME transaction that closes the ticket) and
 *    event `ticket.rated` is dispatched; anything else re-prompts once (flag `reprompted` on the timer, set once); a
 *    second wrong answer closes without a rating. Then the connection's `complationMessage`, and the ticket is closed.
 * 3. No answer by the due time: the timer closes the ticket without a rating and sends `complationMessage`.
 * Every close is the version-checked transition conditioned on the same `ratingAt`: whichever comes first (answer,
 * timer, an agent closing it) wins; the others change nothing.
 */
import { nowIso } from "../common.ts";
import { AppError } from "../errors.ts";
import { defineEvents, dispatch } from "../events/index.ts";
import "../tickets/events.ts";
import { counterFacts, outboxPut } from "../events/outbox.ts";
import { log } from "../log.ts";
import { getSetting } from "../settings/service.ts";
import { getTicketItem, ticketRatingPut, writeTicketTransition } from "../tickets/repository.ts";
import { TicketItem } from "../tickets/schema.ts";
import { cancelTimer, registerTimerKind, scheduleTimer, setTimerFlagOnce } from "../timers/index.ts";
import { RATING_WAIT } from "../timers/kinds.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { getContactItem } from "../contacts/repository.ts";
import { laterIso } from "../contacts/service.ts";
import { z } from "zod";
import type { InboundContext, InboundStep } from "./inbound.ts";
import { notify } from "./notices.ts";

/** The timer kind of the rating wait (ref = ticket id; data `{ratingAt, reprompted?}`). */
export { RATING_WAIT };

/** The 1-3 prompt sent after the connection's `ratingMessage` (the original system's wording). */
export const RATING_PROMPT = "Digite de 1 à 3 para qualificar nosso atendimento:\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_";

/** The whole rating message: the connection's `ratingMessage` (when set), a blank line, the prompt. */
export const ratingPromptBody = (ratingMessage: string) => (ratingMessage.trim() ? `${ratingMessage.trim()}\n\n${RATING_PROMPT}` : RATING_PROMPT);

/** A stored rating (one per ticket cycle). */
export const TicketRating = z.object({
  companyId: z.number().int(),
  ticketId: z.number().int(),
  /** The rated attendant (the ticket's user when it was resolved). */
  userId: z.number().int(),
  rate: z.number().int().min(1).max(3),
  /** When the prompt was sent (the ticket's `ratingAt`): identifies the cycle. */
  ratingAt: z.string(),
  /** When the customer answered. */
  at: z.string(),
});
export type TicketRating = z.infer<typeof TicketRating>;

declare module "../events/registry.ts" {
  interface EventMap {
    /** A customer rated the attendant of a ticket (counted per user per day by the counters listener). */
    "ticket.rated": { type: "ticket.rated"; companyId: number; ticket: TicketItem; rating: TicketRating };
  }
}
defineEvents({
  "ticket.rated": z.object({ type: z.literal("ticket.rated"), companyId: z.number().int(), ticket: TicketItem, rating: TicketRating }),
});

/**
 * True when resolving `prev` should ask the customer for a rating: setting `userRating` enabled, the ticket open with
 * an attendant, not a group, not already awaiting a rating, the contact not marked `disableBot`.
 */
export async function ratingApplies(companyId: number, prev: TicketItem): Promise<boolean> {
  if (prev.isGroup || prev.status !== "open" || prev.userId == null || prev.ratingAt != null) return false;
  if ((await getSetting(companyId, "userRating")) !== "enabled") return false;
  const contact = await getContactItem(companyId, prev.contactId);
  return !!contact && !contact.disableBot;
}

/**
 * After the transition that set `ticket.ratingAt`: sends `ratingMessage` + the 1-3 prompt and schedules the rating
 * wait (`ratingWaitMinutes` of the connection after `ratingAt`).
 */
export async function startRating(companyId: number, ticket: TicketItem): Promise<void> {
  if (!ticket.ratingAt) return;
  const wa = await getWhatsappItem(companyId, ticket.whatsappId);
  const minutes = wa?.ratingWaitMinutes ?? 1440;
  await scheduleTimer(companyId, RATING_WAIT, ticket.id, Date.parse(ticket.ratingAt) + minutes * 60_000, { ratingAt: ticket.ratingAt });
  await notify(companyId, ticket, ratingPromptBody(wa?.ratingMessage ?? ""));
}

/**
 * Ends the rating of ticket `ticketId` started at `ratingAt`: with `rate` (1-3) the rating is stored with its counters
 * in the transaction that closes the ticket; without, the ticket closes unrated. Then `complationMessage`. Returns
 * false (nothing done) when the ticket no longer awaits that rating (answered, closed or reopened meanwhile).
 */
export async function finishRating(companyId: number, ticketId: number, ratingAt: string, rate: number | null): Promise<boolean> {
  const prev = await getTicketItem(companyId, ticketId, true);
  if (prev?.status !== "open" || prev.ratingAt !== ratingAt) return false;
  const at = nowIso();
  const rating = rate != null && prev.userId != null ? TicketRating.parse({ companyId, ticketId, userId: prev.userId, rate, ratingAt, at }) : null;
  const extra = rating
    ? [
        ticketRatingPut(rating),
        ...outboxPut(counterFacts.rating(rating)),
      ]
    : [];
  let next: TicketItem;
  try {
    next = await writeTicketTransition(prev, { status: "closed", ratingAt: null, updatedAt: laterIso(prev.updatedAt) }, extra, rating ? { rate: rating.rate, ratedAt: rating.at } : undefined);
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_CONFLICT") return false; // someone else ended it first
    throw err;
  }
  await cancelTimer(companyId, RATING_WAIT, ticketId);
  await dispatch({ type: "ticket.updated", companyId, ticket: next, previous: prev });
  if (rating) await dispatch({ type: "ticket.rated", companyId, ticket: next, rating });
  const wa = await getWhatsappItem(companyId, next.whatsappId);
  await notify(companyId, next, wa?.complationMessage);
  return true;
}

/** Reads a rating answer: exactly `1`, `2` or `3` (spaces and a trailing dot allowed), else null. */
export function parseRate(body: string): number | null {
  const m = /^\s*\*?([1-3])\*?\.?\s*$/.exec(body);
  return m ? Number(m[1]) : null;
}

/**
 * The inbound step (order 10): a customer's message on a ticket awaiting a rating is the answer. Always handles it
 * (the chatbot must not answer a rating), even when a concurrent answer already ended the rating.
 */
export const ratingStep: InboundStep = {
  name: "rating",
  order: 10,
  async handle(ctx: InboundContext): Promise<boolean> {
    const t = ctx.ticket;
    if (t.status !== "open" || !t.ratingAt) return false;
    const rate = parseRate(ctx.message.body);
    if (rate != null) {
      await finishRating(ctx.companyId, t.id, t.ratingAt, rate);
      return true;
    }
    if (await setTimerFlagOnce(ctx.companyId, RATING_WAIT, t.id, "reprompted")) {
      await notify(ctx.companyId, t, RATING_PROMPT);
      return true;
    }
    await finishRating(ctx.companyId, t.id, t.ratingAt, null);
    return true;
  },
};

/** The rating wait's timer: no answer in time closes the ticket without a rating. */
registerTimerKind(RATING_WAIT, async (timer) => {
  const ratingAt = String(timer.data.ratingAt ?? "");
  const done = await finishRating(timer.companyId, Number(timer.ref), ratingAt, null);
  if (!done) log("debug", "rating wait: ticket no longer awaits this rating", { companyId: timer.companyId, ticketId: timer.ref });
  return undefined;
});
