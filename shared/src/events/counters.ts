/**
 * The counters listener: applies the outbox entries of each counted event right after the domain write
 * (see `./outbox.ts` for the exactly-once argument), grouped per counter item set while a transaction is in flight. The mapping event → entry is the SAME pure function the
 * repository used to write the outbox item, so both sides name the same item.
 */
import { addMessagesInLive, applyOutboxes, companyZone, counterFacts, countsInDay, localDayHour, type OutboxEntry } from "./outbox.ts";
import type { DomainEvent, Listener } from "./registry.ts";
// Type-only: brings the `ticket.rated` event declaration (automation/rating.ts) into every program that compiles this file.
import type {} from "../automation/rating.ts";
import type {} from "../messages/events.ts"; // the messages events handled here (types only)
import type {} from "../tickets/events.ts"; // the tickets events handled here (types only)
import type {} from "../contacts/events.ts"; // the contacts events handled here (types only)

/** The outbox entries an event's writes carried (none when the event counts nothing). */
export function outboxEntriesOf(event: DomainEvent): OutboxEntry[] {
  const out: (OutboxEntry | null)[] = [];
  switch (event.type) {
    case "message.created":
      if (event.ticketCreated) out.push(counterFacts.ticket(null, event.ticket));
      out.push(counterFacts.message(event.message));
      break;
    case "ticket.created":
      out.push(counterFacts.ticket(null, event.ticket));
      break;
    case "ticket.updated":
      if (event.previous && event.created) out.push(counterFacts.ticket(null, event.previous));
      if (event.previous) out.push(counterFacts.ticket(event.previous, event.ticket));
      break;
    case "ticket.deleted":
      out.push(counterFacts.ticketDeleted(event.ticket));
      break;
    case "contact.created":
      out.push(counterFacts.contact(event.contact));
      break;
    case "contact.deleted":
      out.push(counterFacts.contactDeleted(event.contact));
      break;
    case "ticket.rated":
      out.push(counterFacts.rating(event.rating));
      break;
  }
  return out.filter((e): e is OutboxEntry => !!e);
}

/** Most entries one counters transaction applies: their Deletes plus two Updates stay under DynamoDB's 100 items. */
const MAX_GROUP = 40;

interface Waiting {
  entry: OutboxEntry;
  done: () => void;
  fail: (err: unknown) => void;
}

/** Entries waiting per counter item set (company, day, user) while that set's transaction runs. */
const buckets = new Map<string, { waiting: Waiting[]; running: boolean }>();

/**
 * Group commit (for the ingest rate): an event's entries are applied at once when nothing for its (company, day, user) is in
 * flight; otherwise it waits and goes with the others that arrived meanwhile in ONE transaction (`applyOutboxes`:
 * every outbox Delete conditional, the summed ADDs, item by item when any was already applied). Exactly once as
 * before; a burst of messages costs one counters transaction per batch instead of one per message. Resolves when the
 * event's entries were applied (or left for the tick); rejects with a batch's error.
 */
async function applyGrouped(entries: OutboxEntry[]): Promise<void> {
  const touched = new Map<string, { waiting: Waiting[]; running: boolean }>();
  const promises = entries.map((entry) => {
    const key = `${entry.companyId}|${entry.day}|${entry.userId ?? ""}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { waiting: [], running: false };
      buckets.set(key, bucket);
    }
    const b = bucket;
    touched.set(key, b);
    return new Promise<void>((done, fail) => b.waiting.push({ entry, done, fail }));
  });
  // Started after every entry of the event is queued, so one event's entries share a transaction as before.
  for (const [key, b] of touched) if (!b.running) void drain(key, b);
  await Promise.all(promises);
}

async function drain(key: string, bucket: { waiting: Waiting[]; running: boolean }): Promise<void> {
  bucket.running = true;
  try {
    while (bucket.waiting.length) {
      const batch = bucket.waiting.splice(0, MAX_GROUP);
      try {
        await applyOutboxes(batch.map((w) => w.entry));
        for (const w of batch) w.done();
      } catch (err) {
        for (const w of batch) w.fail(err);
      }
    }
  } finally {
    bucket.running = false;
    if (!bucket.waiting.length && buckets.get(key) === bucket) buckets.delete(key);
  }
}

/**
 * How long the first customer's message of a (company, day, attendant) waits for others before their live count is
 * written: one transaction per window, however many messages it holds.
 */
export const LIVE_WINDOW_MS = 1000;

/** Live counts of customers' messages waiting per (company, day, attendant). */
const live = new Map<string, { companyId: number; day: string; userId: number | null; n: number; written: Promise<void> }>();

/**
 * Counts a customer's stored live message in its day's live count (`MESSAGES_IN_LIVE`), group-committed: the
 * messages of one (company, local day, attendant) within {@link LIVE_WINDOW_MS} go in ONE transaction. Resolves once
 * written. Not durable on purpose: the exact count lives on the ticket (written with the message) and reaches the day
 * item when the day is over (`counterFacts.messagesInDay`); the live count only makes today's figure current.
 */
async function countLive(companyId: number, at: string, userId: number | null): Promise<void> {
  const { day } = localDayHour(at, await companyZone(companyId));
  const key = `${companyId}|${day}|${userId ?? ""}`;
  const waiting = live.get(key);
  if (waiting) {
    waiting.n++;
    return waiting.written;
  }
  const group = { companyId, day, userId, n: 1, written: Promise.resolve() };
  group.written = new Promise<void>((r) => setTimeout(r, LIVE_WINDOW_MS)).then(() => {
    live.delete(key);
    return addMessagesInLive(group.companyId, group.day, group.userId, group.n);
  });
  live.set(key, group);
  return group.written;
}

export const countersListener: Listener = {
  name: "counters",
  /** The caller does not wait: the outbox item already makes the count durable (the tick re-drives it). */
  deferred: true,
  async handle(event) {
    const entries = outboxEntriesOf(event);
    const customer = event.type === "message.created" && countsInDay(event.message) ? countLive(event.companyId, event.message.createdAt, event.ticket.userId) : null;
    await Promise.all([entries.length ? applyGrouped(entries) : null, customer]);
  },
};
