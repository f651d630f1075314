/**
 * Contacts' listener (docs/product/contacts.md#last-interaction, the Contacts page's "Última interação"): every `message.created`
 * (ingest and outbound alike) moves the ticket's contact's `lastInteractionAt` to the message's WhatsApp time through
 * `touchLastInteraction` (one conditional write, at most one a minute per contact) and, when it moved, dispatches
 * `contact.updated` so open Contacts pages show it live. No scan: the event names the contact.
 */
import { dispatch } from "../events/dispatch.ts";
import "./events.ts";
import type { Listener } from "../events/registry.ts";
import { touchLastInteraction } from "./repository.ts";
import type {} from "../messages/events.ts"; // the messages events handled here (types only)

export const lastInteractionListener: Listener = {
  name: "contacts.lastInteraction",
  async handle(event) {
    if (event.type !== "message.created") return;
    const contact = await touchLastInteraction(event.companyId, event.ticket.contactId, event.message.waTimestamp || event.message.createdAt);
    if (contact) await dispatch({ type: "contact.updated", companyId: event.companyId, contact, changed: ["lastInteractionAt"] });
  },
};
