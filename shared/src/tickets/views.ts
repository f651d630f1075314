/**
 * Ticket views: a ticket as the API returns it, with its contact, queue,
 * connection, user and tags — built from the **summaries stored on the ticket item** (`summaries.ts`) so a page of a
 * list needs no read besides its Query. A summary is used only when it names the ticket's current id (a ticket moved
 * to another queue by a writer that did not refresh it, or tagged since, is not shown with the old one): whatever is
 * missing or does not match is read in ONE BatchGet for the whole page, as before.
 */
import { batchGetRaw, keyId } from "../db/batch.ts";
import { keys } from "../db/keys.ts";
import { ContactItem } from "../contacts/schema.ts";
import type { TicketItem, TicketView } from "./schema.ts";
import {
  contactSummaryOf,
  queueSummaryOf,
  summariesOf,
  tagSummaryOf,
  userSummaryOf,
  whatsappSummaryOf,
  type ContactSummary,
  type NamedColored,
  type TicketSummaries,
} from "./summaries.ts";

const emptyContact = (id: number): ContactSummary => ({ id, name: "", number: "", profilePicUrl: "", email: "", extraInfo: [] });

/**
 * Per-request cache of the small company entities (queues, users, connections, tags) and contacts a page needs when
 * its tickets' summaries are missing or out of date. Tickets with current summaries cost nothing here.
 */
export class TicketDirectory {
  private readonly items = new Map<string, Record<string, unknown> | null>();
  constructor(readonly companyId: number) {}

  /** The keys a ticket needs read: the related items its stored summaries do not cover. */
  private missing(t: TicketItem): { PK: string; SK: string }[] {
    const cid = this.companyId;
    const s = summariesOf(t);
    const out: { PK: string; SK: string }[] = [];
    if (s?.contact?.id !== t.contactId) out.push(keys.contact(cid, t.contactId));
    if (s?.whatsapp === undefined || (s.whatsapp?.id ?? null) !== t.whatsappId) out.push(keys.whatsapp(cid, t.whatsappId));
    if (t.queueId != null && s?.queue?.id !== t.queueId) out.push(keys.queue(cid, t.queueId));
    if (t.userId != null && s?.user?.id !== t.userId) out.push(keys.user(cid, t.userId));
    const have = new Set((s?.tags ?? []).map((g) => g.id));
    for (const tag of t.tagIds) if (!have.has(tag)) out.push(keys.tag(cid, tag));
    return out;
  }

  /** Loads every related item the tickets' summaries do not cover in ONE BatchGet (chunked at 100 keys); none when all are current. */
  async load(tickets: TicketItem[]): Promise<void> {
    const wanted = new Map<string, { PK: string; SK: string }>();
    for (const t of tickets) {
      for (const k of this.missing(t)) {
        const id = keyId(k);
        if (!this.items.has(id)) wanted.set(id, k);
      }
    }
    if (!wanted.size) return;
    const got = await batchGetRaw([...wanted.values()]);
    for (const id of wanted.keys()) this.items.set(id, got.get(id) ?? null);
  }

  private get(k: { PK: string; SK: string }) {
    return this.items.get(keyId(k)) ?? null;
  }

  /**
   * The ticket with its nested contact, queue, whatsapp, user and tags (as the API returns it and realtime frames carry
   * it), without the internal `tally`. Call {@link load} first.
   */
  view(t: TicketItem): TicketView {
    const cid = this.companyId;
    const s: TicketSummaries | undefined = summariesOf(t);
    let contact: ContactSummary;
    if (s?.contact?.id === t.contactId) contact = s.contact;
    else {
      const raw = this.get(keys.contact(cid, t.contactId));
      const parsed = raw ? ContactItem.safeParse(raw) : null;
      contact = parsed?.success ? contactSummaryOf(parsed.data) : emptyContact(t.contactId);
    }
    const pick = <T>(sum: (T & { id: number }) | null | undefined, id: number | null, k: () => { PK: string; SK: string }, of: (r: Record<string, unknown>) => T): T | null => {
      if (id == null) return null;
      if (sum && sum.id === id) return sum;
      const raw = this.get(k());
      return raw ? of(raw) : null;
    };
    const byId = new Map((s?.tags ?? []).map((g) => [g.id, g]));
    const tags: NamedColored[] = [];
    for (const id of t.tagIds) {
      const g = byId.get(id);
      if (g) tags.push(g);
      else {
        const raw = this.get(keys.tag(cid, id));
        if (raw) tags.push(tagSummaryOf(raw));
      }
    }
    // `tally` is the tab counts' own bookkeeping (`tally.ts`): never shown to a client.
    const { tally: _tally, ...fields } = t;
    return {
      ...fields,
      contact,
      queue: pick(s?.queue, t.queueId, () => keys.queue(cid, t.queueId!), queueSummaryOf),
      whatsapp: pick(s?.whatsapp, t.whatsappId, () => keys.whatsapp(cid, t.whatsappId), whatsappSummaryOf),
      user: pick(s?.user, t.userId, () => keys.user(cid, t.userId!), userSummaryOf),
      tags,
    };
  }
}

/** One ticket as the API returns it (nested contact, queue, whatsapp, user, tags); no read when its summaries are current. */
export async function toTicketView(companyId: number, ticket: TicketItem): Promise<TicketView> {
  return (await toTicketViews(companyId, [ticket]))[0];
}

/** Many tickets as the API returns them: from their stored summaries, with ONE BatchGet for whatever those do not cover. */
export async function toTicketViews(companyId: number, tickets: TicketItem[]): Promise<TicketView[]> {
  const dir = new TicketDirectory(companyId);
  await dir.load(tickets);
  return tickets.map((t) => dir.view(t));
}
