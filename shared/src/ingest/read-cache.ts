/**
 * The inbound path's short-lived, per-process read cache (for the ingest rate). A customer's
 * text on an open ticket used to read its contact, the ACTIVE marker, the ticket, the connection, the company and its
 * settings every time; here the reads that rarely change are kept briefly:
 *
 * - the connection item (`whatsapp/repository.ts` `getWhatsappItem`) and the company's settings map, for
 *   `readCacheOptions.ttlMs` (10 s): the automation seam reads them for every customer message;
 * - resolved contacts, for a minute (`store.ts` `resolveContact`, which also says what keeps them fresh);
 * - the ticket open for (connection, contact), as last read or written by this process with its revision `rev`
 *   (`tickets/revision.ts`): a customer's text is stored with a transaction conditioned on that `rev`, so the copy is
 *   used without a read and a ticket another process changed (closed, moved, read, retagged) is never used stale:
 *   the condition fails, nothing is stored, and the message is taken again from a fresh read (`store.ts`).
 *
 * Invalidation: {@link readCacheListener} (wired in `events/wiring.ts`) drops an entry as soon as this process
 * dispatches the event that changes it (`whatsapp.updated|session|deleted`, `setting.updated`, `contact.updated|deleted`,
 * `ticket.updated|deleted`: the ticket copy is dropped, its new `rev` being unknown; its id stays while it is open). A change
 * made by another process (an HTTP Lambda) reaches this one within the TTL. Only what was found is kept: a missing
 * item is read again next time. Sizes are bounded (cleared when full).
 */
import type { ContactItem } from "../contacts/schema.ts";
import { isActiveStatus } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import type { DomainEvent, Listener } from "../events/registry.ts";
import { readSettings, type SettingsMap } from "../settings/repository.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import type { WhatsappItem } from "../whatsapp/schema.ts";
import type {} from "../whatsapp/events.ts"; // the whatsapp events handled here (types only)
import type {} from "../settings/events.ts"; // the settings events handled here (types only)
import type {} from "../contacts/events.ts"; // the contacts events handled here (types only)
import type {} from "../tickets/events.ts"; // the tickets events handled here (types only)

/** How long a connection or a settings map is reused (ms). Tests may shorten it. */
export const readCacheOptions = { ttlMs: 10_000, maxEntries: 5_000 };

/** A map of values that expire after `readCacheOptions.ttlMs`; concurrent misses of one key share one read. */
class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private readonly inflight = new Map<string, Promise<V | null>>();

  async get(key: string, read: () => Promise<V | null>): Promise<V | null> {
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const running = this.inflight.get(key);
    if (running) return running;
    const p = read()
      .then((value) => {
        // Only what exists is kept, and only if no invalidation came while it was read.
        if (value != null && this.inflight.get(key) === p) {
          if (this.entries.size >= readCacheOptions.maxEntries) this.entries.clear();
          this.entries.set(key, { value, until: Date.now() + readCacheOptions.ttlMs });
        }
        return value;
      })
      .finally(() => {
        if (this.inflight.get(key) === p) this.inflight.delete(key);
      });
    this.inflight.set(key, p);
    return p;
  }

  delete(key: string): void {
    this.entries.delete(key);
    this.inflight.delete(key);
  }

  /** Drops every key starting with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const k of [...this.entries.keys(), ...this.inflight.keys()]) if (k.startsWith(prefix)) this.delete(k);
  }

  clear(): void {
    this.entries.clear();
    this.inflight.clear();
  }
}

const connections = new TtlCache<WhatsappItem>();
const settings = new TtlCache<SettingsMap>();

/** The connection item (see `getWhatsappItem`), reused for a few seconds; null when it does not exist. */
export function cachedConnection(companyId: number, whatsappId: number): Promise<WhatsappItem | null> {
  return connections.get(`${companyId}|${whatsappId}`, () => getWhatsappItem(companyId, whatsappId));
}

/** The company's settings map (see `readSettings`: defaults filled in), reused for a few seconds. */
export async function cachedSettings(companyId: number): Promise<SettingsMap> {
  return (await settings.get(String(companyId), () => readSettings(companyId))) as SettingsMap;
}

/**
 * The open ticket per `<cid>|<wid>|<contactId>`: its id, and the item exactly as stored at its `rev` when known (a
 * fresh read, or a write conditioned on the `rev` it had; confirmed by the next write's condition, never trusted
 * alone). After a write whose resulting `rev` is not known exactly only the id is left: one read by key, no marker.
 */
const openTickets = new Map<string, { id: number; ticket: TicketItem | null }>();

const openTicketKey = (companyId: number, whatsappId: number, contactId: number) => `${companyId}|${whatsappId}|${contactId}`;

/** What this process knows of the ticket last seen open for (connection, contact): its id and its exact copy, if any. */
export function openTicketCopy(companyId: number, whatsappId: number, contactId: number): { id: number; ticket: TicketItem | null } | undefined {
  return openTickets.get(openTicketKey(companyId, whatsappId, contactId));
}

/**
 * Remembers `ticket` as the open ticket of its (connection, contact): with `exact`, the item as stored at its `rev`;
 * otherwise only its id (its stored `rev` has moved past the copy's).
 */
export function keepOpenTicket(ticket: TicketItem, exact = true): void {
  if (openTickets.size >= readCacheOptions.maxEntries) openTickets.clear();
  openTickets.set(openTicketKey(ticket.companyId, ticket.whatsappId, ticket.contactId), { id: ticket.id, ticket: exact ? ticket : null });
}

/** Forgets the open ticket of (connection, contact). */
export function forgetOpenTicket(companyId: number, whatsappId: number, contactId: number): void {
  openTickets.delete(openTicketKey(companyId, whatsappId, contactId));
}

/**
 * Resolved contacts by `<cid>|<jids>|<number>` (`store.ts` `resolveContact`): kept a minute, dropped when this process
 * updates or deletes the contact.
 */
export const contactCache = new Map<string, { contact: ContactItem; until: number }>();

/** Forgets everything (tests that write items behind the services' back). */
export function clearReadCache(): void {
  contactCache.clear();
  connections.clear();
  settings.clear();
  openTickets.clear();
}

/** Drops the entries an event of this process changed (see the module doc). */
export const readCacheListener: Listener = {
  name: "ingestReadCache",
  async handle(event: DomainEvent) {
    const cid = event.companyId;
    switch (event.type) {
      case "whatsapp.updated":
      case "whatsapp.session":
        connections.delete(`${cid}|${event.whatsapp.id}`);
        break;
      case "whatsapp.deleted":
        connections.delete(`${cid}|${event.whatsappId}`);
        break;
      case "contact.updated":
      case "contact.deleted": {
        const { id } = event.contact;
        // A change of "Última interação" alone keeps the entry, with the new item.
        const keep = event.type === "contact.updated" && event.changed?.every((f) => f === "lastInteractionAt");
        for (const [k, v] of contactCache) {
          if (v.contact.companyId !== cid || v.contact.id !== id) continue;
          if (keep) contactCache.set(k, { ...v, contact: event.contact });
          else contactCache.delete(k);
        }
        break;
      }
      case "setting.updated":
        settings.delete(String(cid));
        break;
      case "ticket.updated":
      case "ticket.deleted": {
        // The write moved its `rev` to a value this event does not carry exactly: read it again next time (by id while it
        // is open). A copy left under the connection a ticket moved away from fails its next write's condition.
        const t = event.ticket;
        const key = openTicketKey(cid, t.whatsappId, t.contactId);
        if (openTickets.get(key)?.id !== t.id) break;
        if (event.type === "ticket.updated" && isActiveStatus(t.status)) openTickets.set(key, { id: t.id, ticket: null });
        else openTickets.delete(key);
        break;
      }
    }
  },
};
