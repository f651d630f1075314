/**
 * Bulk seeding for the benchmarks: companies with N contacts and N tickets written with BatchWriteItem, many requests
 * in flight, exactly the items the product's own path writes for the same conversations ({@link seedTicketItems};
 * the path itself is {@link seedThroughServices}, and `test/bench-seed.test.ts` seeds through both and finds the
 * same items): contacts with their markers, tickets with row summaries and packed rows, messages with their aliases,
 * references and indexed words, the search index's items, service cycles, ACTIVE markers, kanban entries, the
 * daily and current counters, and the id counters.
 */
import { randomUUID } from "node:crypto";
import { BatchWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { DEFAULT_TIME_ZONE } from "../../shared/src/automation/variables.ts";
import { contactRecord, markerRecord } from "../../shared/src/contacts/repository.ts";
import { ContactItem } from "../../shared/src/contacts/schema.ts";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { openedInHour, userCounter, userDeltas } from "../../shared/src/db/counters.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { counterFacts, countsInDay, inDayKey, localDayHour, messagesInDayPut, type OutboxEntry } from "../../shared/src/events/outbox.ts";
import { MESSAGES_IN_LIVE } from "../../shared/src/db/counters.ts";
import { tallyOf } from "../../shared/src/tickets/tally.ts";
import { laneEntryRecord } from "../../shared/src/kanban/repository.ts";
import { OPEN_LANE } from "../../shared/src/kanban/schema.ts";
import { messageRecord } from "../../shared/src/messages/repository.ts";
import { MessageItem } from "../../shared/src/messages/schema.ts";
import { reportEntryItems } from "../../shared/src/reports/entries.ts";
import { contactIndexItems, messageIndexWrites, ticketGramItems, withKnownWords } from "../../shared/src/search/writes.ts";
import { cycleAfter, finishedCycle } from "../../shared/src/tickets/cycles.ts";
import { activeTicketRecord, isActiveStatus, ticketCycleRecord, ticketRecord } from "../../shared/src/tickets/repository.ts";
import { rowAttributes } from "../../shared/src/tickets/row.ts";
import { TicketItem, type TicketStatus } from "../../shared/src/tickets/schema.ts";
import { contactSummaryOf, type TicketSummaries } from "../../shared/src/tickets/summaries.ts";
import { writeItemsToFile } from "./file-writer.ts";

/** What the rows show of a tenant's queues, connection and user (the summaries the product stores on ticket items). */
export interface SeedNames {
  queues: Map<number, { id: number; name: string; color: string }>;
  whatsapp: { id: number; name: string; status: string };
  user: { id: number; name: string };
}

const FIRST = ["Ana", "Bruno", "Carla", "Diego", "Eduarda", "Felipe", "Gabriela", "Heitor", "Isabela", "João", "Karina", "Lucas", "Natália", "Otávio", "Paula", "Rafael", "Sofia", "Thiago", "Vitória", "Wagner"];
const LAST = ["Silva", "Santos", "Oliveira", "Souza", "Lima", "Pereira", "Costa", "Rodrigues", "Almeida", "Nascimento"];

/** BatchWriteItem requests in flight at once (DynamoDB Local spends its CPU per item; more in flight keeps it busy). */
export const SEED_PARALLEL = 16;

/** Writes items in batches of 25 with `parallel` requests in flight, retrying unprocessed items. */
export async function batchPut(items: Record<string, unknown>[], parallel = SEED_PARALLEL): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (;;) {
        const i = next++;
        if (i >= chunks.length) return;
        let req: Record<string, unknown>[] = chunks[i];
        while (req.length) {
          const out = await ddb().send(new BatchWriteCommand({ RequestItems: { [tableName()]: req.map((Item) => ({ PutRequest: { Item } })) } }));
          req = (out.UnprocessedItems?.[tableName()] ?? []).map((r) => r.PutRequest!.Item as Record<string, unknown>);
        }
      }
    }),
  );
}

/** The tenant a seeded ticket belongs to (`timezone`: the company's, for its daily counters; default the product's). */
export interface SeedTenant {
  companyId: number;
  whatsappId: number;
  userId: number;
  queueIds: number[];
  names?: SeedNames;
  timezone?: string;
}

/**
 * One seeded ticket: its contact (with an email: saved first from the Contacts page, a second before), status,
 * messages (oldest first, one a second from `at`: the customer's, then one sent from the phone, alternately) and
 * whether the search index's items are written.
 */
export interface SeedTicket {
  id: number;
  name: string;
  number: string;
  email?: string;
  status: TicketStatus;
  at: Date;
  bodies: string[];
  index: boolean;
  /** The attendant of an open or closed ticket (default: the tenant's user). */
  user?: { id: number; name: string };
  /** Milliseconds from the last message to each of the agent's moves, in order (default: a second each). */
  moveGapsMs?: number[];
}

/** Counter facts of a seed (`events/outbox.ts` entries), summed as the counters listener applies them. */
export class SeedCounters {
  private readonly items = new Map<string, Record<string, unknown>>();
  constructor(private readonly timezone = DEFAULT_TIME_ZONE) {}

  private add(key: { PK: string; SK: string }, deltas: Record<string, number>) {
    const id = `${key.PK}|${key.SK}`;
    const item = this.items.get(id) ?? { ...key };
    for (const [k, v] of Object.entries(deltas)) item[k] = Number(item[k] ?? 0) + v;
    this.items.set(id, item);
  }

  /** Counts one fact (null: nothing counts). */
  count(e: OutboxEntry | null): void {
    if (!e) return;
    const { day, hour } = localDayHour(e.at, this.timezone);
    const deltas = e.deltas as Record<string, number>;
    if (Object.keys(deltas).length) {
      const user = e.userId != null ? userDeltas(e.userId, deltas) : {};
      this.add(keys.stats(e.companyId, day), { ...deltas, ...(deltas.ticketsOpened ? { [openedInHour(hour)]: deltas.ticketsOpened } : {}), ...user });
    }
    if (Object.values(e.gauges ?? {}).some((v) => v !== 0)) this.add(keys.statsNow(e.companyId), e.gauges as Record<string, number>);
    for (const [sk, moves] of Object.entries(e.tally ?? {})) this.add(keys.ticketCount(e.companyId, sk), moves as Record<string, number>);
  }

  /** A customer's live message of local day `day` in the live counts (`counters.ts` `countLive`), company and attendant. */
  countLive(companyId: number, day: string, userId: number | null): void {
    this.add(keys.stats(companyId, day), { [MESSAGES_IN_LIVE]: 1, ...(userId != null ? { [userCounter(userId, MESSAGES_IN_LIVE)]: 1 } : {}) });
  }

  /** The company's time zone the counts are kept in. */
  get zone(): string {
    return this.timezone;
  }

  /** The counter items (whole: the seed writes them with Put). */
  records(): Record<string, unknown>[] {
    return [...this.items.values()];
  }
}

/**
 * The items of one seeded ticket, as the product's own path leaves them ({@link seedThroughServices}, proven by
 * `test/bench-seed.test.ts`), built with the product's item builders: the contact with its phone and JID markers and
 * search grams; the ticket (uuid alias, ticket grams, row summaries, the packed row as the runner's last message wrote
 * it, `rev` and `version` as the writes moved them, its service cycle and the finished one of a closed ticket); each
 * message with its WhatsApp alias, id reference and indexed words (+ the ticket's word items); the ACTIVE marker and
 * kanban "Em aberto" entry of an open or pending ticket. The counter facts go to `counters`. Contact and ticket share
 * the id `s.id`. Open and closed tickets are the tenant user's; pending ones nobody's.
 */
export function seedTicketItems(o: SeedTenant, s: SeedTicket, counters = new SeedCounters(o.timezone)): Record<string, unknown>[] {
  const { companyId, whatsappId } = o;
  const t0 = s.at.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const at = iso(t0);
  const jid = `${s.number}@s.whatsapp.net`;
  const items: Record<string, unknown>[] = [];

  // The contact: saved from the Contacts page (phone marker) and learnt by the ingest (JID marker), or created by it.
  const saved = s.email ? iso(t0 - 1000) : at;
  const contact = ContactItem.parse({
    id: s.id, companyId, uuid: randomUUID(), name: s.name, number: s.number, email: s.email ?? "", profilePicUrl: "", isGroup: false,
    jids: [jid], createdAt: saved, updatedAt: at, lastInteractionAt: at,
  });
  counters.count(counterFacts.contact(contact));
  items.push(contactRecord(contact), markerRecord(companyId, s.id, { kind: "phone", value: s.number }), markerRecord(companyId, s.id, { kind: "jid", value: jid }));
  if (s.index) items.push(...contactIndexItems(contact));

  // The ticket the first message starts (pending, no queue), then each message stored on the runner's copy.
  let ticket = TicketItem.parse({ id: s.id, uuid: randomUUID(), companyId, status: "pending", contactId: s.id, whatsappId, queueId: null, userId: null, isGroup: false, version: 0, createdAt: at, updatedAt: at });
  Object.assign(ticket, cycleAfter(null, ticket));
  counters.count(counterFacts.ticket(null, ticket));
  ticket.tally = tallyOf(ticket); // the tab counts' state (`tickets/tally.ts`), as `createTicketItem` stores it
  let sums: TicketSummaries = { contact: contactSummaryOf(contact), queue: null, user: null, whatsapp: o.names?.whatsapp ?? null, tags: [] };
  items.push({ ...keys.ticketUuid(companyId, ticket.uuid), _type: "ticketUuid", ticketId: s.id });
  if (s.index) items.push(...ticketGramItems(companyId, s.id, contact));
  // The search index's word items, last write winning. The runner knows the words its copy of the ticket was written
  // with only across consecutive customer's messages (one sent from the phone is stored on a fresh read): those
  // messages skip the words already written (`search/writes.ts` `knownWords`).
  const words = new Map<string, Record<string, unknown>>();
  let known: ReadonlySet<string> | undefined;
  s.bodies.forEach((body, k) => {
    const ts = iso(t0 + k * 1000);
    const fromMe = k % 2 === 1;
    const m = MessageItem.parse({ id: messageIdOf(s.id, k), ticketId: s.id, companyId, contactId: s.id, whatsappId, remoteJid: jid, body, fromMe, read: fromMe, ack: fromMe ? 1 : 0, quotedMsg: null, waTimestamp: ts, createdAt: ts, updatedAt: ts });
    const sk = keys.message(companyId, s.id, ts, m.id).SK;
    const index = messageIndexWrites(m, fromMe ? undefined : known);
    for (const put of index.items) {
      const item = (put as { Put: { Item: Record<string, unknown> } }).Put.Item;
      words.set(String(item.PK), item);
    }
    known = fromMe ? undefined : withKnownWords(known, index.words);
    items.push(
      { ...messageRecord(m), ...(s.index ? index.attrs : {}) },
      { ...keys.messageAlias(companyId, m.id, whatsappId, jid), _type: "messageAlias", ticketId: s.id, messageSK: sk, fromMe, createdAt: ts, attemptToken: randomUUID(), ticketCreated: k === 0 },
    );
    const counted = fromMe ? "messagesOut" : "messagesIn";
    let inDays = ticket.inDays;
    if (countsInDay(m)) {
      // The day's count on the ticket, its hand-over item with the key's first message, and the live count.
      const day = localDayHour(ts, counters.zone).day;
      const key = inDayKey(day, ticket.userId);
      if (!inDays?.[key]) items.push(messagesInDayPut(counterFacts.messagesInDay({ companyId, ticketId: s.id, userId: ticket.userId, day, at: ts, tz: counters.zone })).Put.Item);
      inDays = { ...inDays, [key]: (inDays?.[key] ?? 0) + 1 };
      counters.countLive(companyId, day, ticket.userId);
    }
    ticket = { ...ticket, lastMessage: body, updatedAt: ts, unreadMessages: ticket.unreadMessages + (fromMe ? 0 : 1), [counted]: ticket[counted] + 1, ...(inDays ? { inDays } : {}), rev: ticket.rev + 1 };
  });
  if (s.index) items.push(...words.values());
  // The packed row as the last message wrote it; later writes move `rev` and leave it for a list read to re-pack.
  const row = rowAttributes(ticketRecord(ticket, sums));

  // The agent's moves (`writeTicketTransition`), a second apart after the last message.
  let moveAt = t0 + (s.bodies.length - 1) * 1000;
  transitionsOf(o, s).forEach((patch, j) => {
    const prev = ticket;
    moveAt += s.moveGapsMs?.[j] ?? 1000;
    const next: TicketItem = { ...prev, ...patch, updatedAt: iso(moveAt), version: prev.version + 1, rev: prev.rev + 1 };
    Object.assign(next, cycleAfter(prev, next));
    next.tally = tallyOf(next);
    const cycle = finishedCycle(prev, next);
    if (cycle) cycle.contact = { name: contact.name, number: contact.number }; // as the closing transaction stores it
    if (cycle) items.push(ticketCycleRecord(cycle), ...reportEntryItems(cycle, next.tagIds));
    counters.count(counterFacts.ticket(prev, next));
    sums = { ...sums, queue: next.queueId != null ? (o.names?.queues.get(next.queueId) ?? null) : null, user: next.userId != null ? (s.user ?? o.names?.user ?? null) : null };
    ticket = next;
  });
  items.push({ ...ticketRecord(ticket, o.names ? sums : undefined), ...row });
  if (isActiveStatus(ticket.status)) items.push(activeTicketRecord(ticket), laneEntryRecord(ticket, OPEN_LANE));
  return items;
}

/** Sets the company's contact and ticket id counters to `n`, so ids the product hands out next follow the seeded ones. */
export async function seedCounters(companyId: number, n: number): Promise<void> {
  for (const entity of ["contact", "ticket"]) {
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.counter(companyId, entity), UpdateExpression: "SET #v = :n", ExpressionAttributeNames: { "#v": "value" }, ExpressionAttributeValues: { ":n": n } }));
  }
}

/** DynamoDB Local's database file the seeds write into ({@link seedIntoFile}); BatchWriteItem when unset. */
let seedFile: string | undefined;
/** Runs a write into {@link seedFile} (the bench stops DynamoDB Local around it). */
let aroundFileWrite: <T>(write: () => Promise<T>) => Promise<T> = (write) => write();

/**
 * Makes {@link seedMany} write straight into DynamoDB Local's database file `dbFile` (`<dataDir>/shared-local-instance.db`
 * of a DynamoDB Local started with `-dbPath`: the bench's `--keepDb`) instead of BatchWriteItem: about 0.07 ms of CPU
 * per item instead of 0.6 (`file-writer.ts`). `undefined`: BatchWriteItem again. `around` runs each write into the
 * file: the bench stops DynamoDB Local before and starts it again after.
 */
export function seedIntoFile(dbFile: string | undefined, around?: <T>(write: () => Promise<T>) => Promise<T>): void {
  seedFile = dbFile;
  aroundFileWrite = around ?? ((write) => write());
}

/** Writes `items` into the seeds' database file ({@link seedIntoFile}; `expectedRows`: about how many). */
export function writeSeedFile(items: Iterable<Record<string, unknown>>, expectedRows: number): Promise<{ rows: number; writerCpuMs: number }> {
  if (!seedFile) throw new Error("writeSeedFile: no database file (seedIntoFile)");
  const file = seedFile;
  return aroundFileWrite(() => writeItemsToFile(file, tableName(), items, { expectedRows }));
}

/** The DynamoDB Local database file the seeds write into ({@link seedIntoFile}), or undefined (BatchWriteItem). */
export function seedFileTarget(): string | undefined {
  return seedFile;
}

/**
 * Builds `n` tickets with `make(i)` (i = 1..n) and writes them in chunks (memory stays bounded at 100k), then the
 * company's counter items and id counters. Returns the items written. Into DynamoDB Local's file when
 * {@link seedIntoFile} named one (streamed: one pass, memory bounded), else with BatchWriteItem.
 */
export async function seedMany(o: SeedTenant, n: number, make: (i: number) => SeedTicket): Promise<number> {
  if (seedFile) {
    const counters = new SeedCounters(o.timezone);
    function* all() {
      for (let i = 1; i <= n; i++) yield* seedTicketItems(o, make(i), counters);
      yield* counters.records();
    }
    const perTicket = seedTicketItems(o, make(1), new SeedCounters(o.timezone)).length;
    const out = await writeSeedFile(all(), n * perTicket);
    await seedCounters(o.companyId, n);
    return out.rows;
  }
  let written = 0;
  const chunk = 2000;
  const counters = new SeedCounters(o.timezone);
  for (let from = 1; from <= n; from += chunk) {
    const items: Record<string, unknown>[] = [];
    for (let i = from; i < Math.min(from + chunk, n + 1); i++) items.push(...seedTicketItems(o, make(i), counters));
    await batchPut(items);
    written += items.length;
  }
  const totals = counters.records();
  await batchPut(totals);
  await seedCounters(o.companyId, n);
  return written + totals.length;
}

/**
 * The same tickets through the product's own path, one at a time, each step at the seed's times (`clock(at)` sets
 * the clock the product reads; the equivalence test fakes `Date`): a contact with an email first saved from the
 * Contacts page (`createContact`), each message as the session runner hands it to the ingest (`messages.upsert`:
 * the customer's messages and the ones sent from the phone, alternately), then the agent's moves
 * (`writeTicketTransition` and its `ticket.updated`): the queue for a pending ticket; accepted for an open one;
 * accepted and closed for a closed one. Slow (tens of DynamoDB calls per ticket): the bulk seed's reference.
 */
export async function seedThroughServices(o: SeedTenant, tickets: SeedTicket[], clock: (at: Date) => void): Promise<void> {
  const { handleBaileysEvent } = await import("../../shared/src/ingest/index.ts");
  const { createContact } = await import("../../shared/src/contacts/service.ts");
  const { writeTicketTransition, getTicketItem } = await import("../../shared/src/tickets/repository.ts");
  const { dispatch } = await import("../../shared/src/events/index.ts");
  const ctx = { companyId: o.companyId, whatsappId: o.whatsappId };
  for (const s of tickets) {
    const t0 = s.at.getTime();
    if (s.email) {
      clock(new Date(t0 - 1000));
      await createContact(o.companyId, { name: s.name, number: s.number, email: s.email } as never);
    }
    for (const [k, body] of s.bodies.entries()) {
      clock(new Date(t0 + k * 1000));
      const fromMe = k % 2 === 1;
      const key = { remoteJid: `${s.number}@s.whatsapp.net`, fromMe, id: messageIdOf(s.id, k) };
      await handleBaileysEvent(ctx, "messages.upsert", { type: "notify", messages: [{ key, message: { conversation: body }, messageTimestamp: (t0 + k * 1000) / 1000, ...(fromMe ? {} : { pushName: s.name }) }] });
    }
    const moves = transitionsOf(o, s);
    for (const [j, patch] of moves.entries()) {
      const at = new Date(t0 + (s.bodies.length + j) * 1000);
      clock(at);
      const prev = await getTicketItem(o.companyId, s.id, true);
      if (!prev) throw new Error(`service seed: ticket ${s.id} not found`);
      const next = await writeTicketTransition(prev, { ...patch, updatedAt: at.toISOString() });
      await dispatch({ type: "ticket.updated", companyId: o.companyId, ticket: next, previous: prev });
    }
  }
}

/** The seeded message `k` of ticket `id`: its WhatsApp id. */
const messageIdOf = (id: number, k: number) => `B${id}M${k}`;

/** The agent's moves of a seeded ticket, in order: the queue (pending); accepted (open); accepted, then closed. */
function transitionsOf(o: SeedTenant, s: SeedTicket): Partial<Pick<TicketItem, "status" | "userId" | "queueId">>[] {
  const queueId = o.queueIds[s.id % o.queueIds.length];
  if (s.status === "pending") return [{ status: "pending", userId: null, queueId }];
  const userId = s.user?.id ?? o.userId;
  const accept = { status: "open" as const, userId, queueId };
  return s.status === "open" ? [accept] : [accept, { status: "closed", userId, queueId }];
}

/** What a tab seed's tickets are: `searchShare` of the contacts named "Mariana ..."; every ticket `status`; `index` items. */
export interface TabSeedOptions {
  searchShare?: number;
  status?: TicketStatus;
  index?: boolean;
}

/** Ticket `i` of the tab seed (contact and ticket id `i`, one customer's message). */
export function tabTicket(i: number, opts: TabSeedOptions = {}): SeedTicket {
  const share = opts.searchShare ?? 0.05;
  const r = i % 5;
  return {
    id: i,
    name: i % Math.round(1 / share) === 0 ? `Mariana ${LAST[i % LAST.length]} ${i}` : `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i}`,
    number: `55119${String(i).padStart(8, "0")}`,
    status: opts.status ?? (r < 2 ? "open" : r < 4 ? "pending" : "closed"),
    at: new Date(TAB_BASE + i * 60000),
    bodies: [`Mensagem ${i}`],
    index: opts.index ?? false,
  };
}
const TAB_BASE = Date.parse("2026-01-01T00:00:00Z");

/**
 * Seeds `n` contacts and `n` tickets for the tab benchmark (40% open assigned to `userId`, 40% pending, 20% closed;
 * three queues) in a company, one message each ({@link tabTicket}). With `names`, tickets carry the row summaries the
 * product writes. `index`: also the search index's items (default off: they live in partitions no tab reads, and cost
 * ~25 items per ticket to seed; the only items of the product's path the tab seed leaves out).
 */
export async function seedTickets(opts: SeedTenant & TabSeedOptions & { n: number }): Promise<number> {
  return seedMany(opts, opts.n, (i) => tabTicket(i, opts));
}
