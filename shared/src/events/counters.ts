/**
 * The counters listener (issue 7 §1): applies the outbox entries of each counted event right after the domain write
 * (see `./outbox.ts` for the exactly-once argument). The mapping event → entry is the SAME pure function the
 * repository used to write the outbox item, so both sides name the same item.
 */
import { applyOutboxes, counterFacts, type OutboxEntry } from "./outbox.ts";
import type { DomainEvent, Listener } from "./registry.ts";
// Type-only: brings the `ticket.rated` event declaration (automation/rating.ts) into every program that compiles this file.
import type {} from "../automation/rating.ts";

/** The outbox entries an event's writes carried (none when the event counts nothing). */
export function outboxEntriesOf(event: DomainEvent): OutboxEntry[] {
  const out: (OutboxEntry | null)[] = [];
  switch (event.type) {
    case "message.created":
      if (event.ticketCreated) out.push(counterFacts.ticket(null, event.ticket));
      out.push(counterFacts.message(event.message, event.ticket));
      break;
    case "ticket.created":
      out.push(counterFacts.ticket(null, event.ticket));
      break;
    case "ticket.updated":
      if (event.previous && event.created) out.push(counterFacts.ticket(null, event.previous));
      if (event.previous) out.push(counterFacts.ticket(event.previous, event.ticket));
      break;
    case "contact.created":
      out.push(counterFacts.contact(event.contact));
      break;
    case "ticket.rated":
      out.push(counterFacts.rating(event.rating));
      break;
  }
  return out.filter((e): e is OutboxEntry => !!e);
}

export const countersListener: Listener = {
  name: "counters",
  /** The caller does not wait: the outbox item already makes the count durable (the tick re-drives it). */
  deferred: true,
  async handle(event) {
    const entries = outboxEntriesOf(event);
    if (entries.length) await applyOutboxes(entries);
  },
};
