/**
 * Which webhook events a domain event is, and the payload each carries (docs/product/webhooks.md#events). The
 * payload holds the API's views (ticket, contact, message), never a raw protocol record. Each event's id is derived
 * from the fact it reports (the entity and its version or time), so a listener run again after a failure sends the
 * same id: receivers dedupe on it.
 */
import { createHash } from "node:crypto";
import { contactView } from "../contacts/views.ts";
import type { DomainEvent } from "../events/registry.ts";
import { toMessageView } from "../messages/views.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { toTicketView } from "../tickets/views.ts";
import type { WebhookEventType, WebhookPayload } from "./schema.ts";
// Types only: the events this module reads.
import type {} from "../tickets/events.ts";
import type {} from "../messages/events.ts";
import type {} from "../contacts/events.ts";
import type {} from "../automation/rating.ts";

/** One webhook event a domain event reports: its type, stable id, time and how to build its `data`. */
export interface WebhookEvent {
  type: WebhookEventType;
  id: string;
  at: string;
  data(): Promise<Record<string, unknown>>;
}

/** A stable event id: `evt_` and 32 hex characters of the SHA-256 of what names the fact. */
export const eventIdOf = (fact: string) => `evt_${createHash("sha256").update(fact).digest("hex").slice(0, 32)}`;

/** A contact update the receivers would not care about: only the last interaction time moved. */
const INTERNAL_CONTACT_FIELDS = new Set(["lastInteractionAt"]);

const ev = (type: WebhookEventType, fact: string, at: string, data: () => Promise<Record<string, unknown>>): WebhookEvent => ({ type, id: eventIdOf(`${type}|${fact}`), at, data });

const ticketData = async (companyId: number, ticket: TicketItem) => {
  const view = await toTicketView(companyId, ticket);
  return { ticket: view, contact: view.contact };
};

/**
 * The webhook events `event` reports (none for the others). A ticket transition may report several: a status change
 * (`ticket.closed` when it closes, else `ticket.statusChanged`) and a transfer (the queue changed, or it passed from
 * one agent to another).
 */
export function webhookEventsOf(event: DomainEvent): WebhookEvent[] {
  switch (event.type) {
    case "message.created": {
      const { message: m, ticket: t, companyId } = event;
      const out = [
        ev("message.created", `T${t.id}|M${m.id}`, m.createdAt, async () => {
          const [message, td] = await Promise.all([toMessageView(companyId, m), ticketData(companyId, t)]);
          return { message, ...td };
        }),
      ];
      if (event.ticketCreated) out.unshift(ev("ticket.created", `T${t.id}`, t.createdAt, () => ticketData(companyId, t)));
      return out;
    }
    case "message.updated": {
      const { message: m, ticket: t, companyId } = event;
      return [
        ev("message.updated", `T${t.id}|M${m.id}|${m.updatedAt}|${m.ack}`, m.updatedAt, async () => {
          const [message, td] = await Promise.all([toMessageView(companyId, m), ticketData(companyId, t)]);
          return { message, ...td };
        }),
      ];
    }
    case "ticket.created":
      return [ev("ticket.created", `T${event.ticket.id}`, event.ticket.createdAt, () => ticketData(event.companyId, event.ticket))];
    case "ticket.updated": {
      const { ticket: t, previous: p, companyId } = event;
      if (!p) return [];
      const fact = `T${t.id}|v${t.version}`;
      const data = async () => ({ ...(await ticketData(companyId, t)), previous: { status: p.status, queueId: p.queueId, userId: p.userId } });
      const out: WebhookEvent[] = [];
      if (p.status !== t.status) out.push(ev(t.status === "closed" ? "ticket.closed" : "ticket.statusChanged", fact, t.updatedAt, data));
      if (t.status !== "closed" && (p.queueId !== t.queueId || (p.userId != null && t.userId != null && p.userId !== t.userId))) out.push(ev("ticket.transferred", fact, t.updatedAt, data));
      return out;
    }
    case "ticket.rated": {
      const { ticket: t, rating: r, companyId } = event;
      return [ev("ticket.rated", `T${t.id}|${r.ratingAt}`, r.at, async () => ({ ...(await ticketData(companyId, t)), rating: { rate: r.rate, userId: r.userId, ratingAt: r.ratingAt } }))];
    }
    case "contact.created":
      return [ev("contact.created", `CT${event.contact.id}`, event.contact.createdAt, async () => ({ contact: contactView(event.contact) }))];
    case "contact.updated":
      if (event.changed?.every((f) => INTERNAL_CONTACT_FIELDS.has(f))) return [];
      return [ev("contact.updated", `CT${event.contact.id}|${event.contact.updatedAt}`, event.contact.updatedAt, async () => ({ contact: contactView(event.contact) }))];
    default:
      return [];
  }
}

/** The JSON body of a webhook event for company `companyId`. */
export async function payloadOf(companyId: number, e: Pick<WebhookEvent, "type" | "id" | "at" | "data">): Promise<WebhookPayload> {
  return { id: e.id, type: e.type, timestamp: e.at, companyId, data: await e.data() };
}
