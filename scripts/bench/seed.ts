/**
 * Bulk seeding for the benchmarks: companies with N contacts and N tickets written with
 * BatchWriteItem, many requests in flight, using the product's own item builders — `contactRecord`, `ticketRecord`
 * with the row summaries, `messageRecord` with its indexed words, and the search index's items (`search/writes.ts`:
 * contact grams, the ticket's grams, message words) — so a seeded ticket is the items the services write (proven by
 * `shared/src/search/seeded.test.ts`: list and search return seeded and service-made tickets in the same shape).
 * What the seed leaves out: the message id references and WhatsApp aliases (`/messages/{id}` routes and dedupe; no
 * list or search reads them), the outbox's counters, and the ACTIVE markers (one open ticket per contact is not checked).
 */
import { cycleAfter } from "../../shared/src/tickets/cycles.ts";
import { randomUUID } from "node:crypto";
import { BatchWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { contactRecord } from "../../shared/src/contacts/repository.ts";
import { ContactItem } from "../../shared/src/contacts/schema.ts";
import { messageRecord } from "../../shared/src/messages/repository.ts";
import { MessageItem } from "../../shared/src/messages/schema.ts";
import { contactIndexItems, messageIndexWrites, ticketGramItems, ticketWordItems } from "../../shared/src/search/writes.ts";
import { ticketRecord } from "../../shared/src/tickets/repository.ts";
import { TicketItem, type TicketStatus } from "../../shared/src/tickets/schema.ts";
import { contactSummaryOf, type TicketSummaries } from "../../shared/src/tickets/summaries.ts";

/** What the rows show of a tenant's queues, connection and user (the summaries the product stores on ticket items). */
export interface SeedNames {
  queues: Map<number, { id: number; name: string; color: string }>;
  whatsapp: { id: number; name: string; status: string };
  user: { id: number; name: string };
}

/** The summaries the product would store on a seeded ticket (`tickets/summaries.ts`). */
export function seedSummaries(names: SeedNames | undefined, contact: ContactItem, t: TicketItem): TicketSummaries | undefined {
  if (!names) return undefined;
  return {
    contact: contactSummaryOf(contact),
    queue: t.queueId != null ? (names.queues.get(t.queueId) ?? null) : null,
    whatsapp: names.whatsapp,
    user: t.userId != null ? names.user : null,
    tags: [],
  };
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

/** The tenant a seeded ticket belongs to. */
export interface SeedTenant {
  companyId: number;
  whatsappId: number;
  userId: number;
  queueIds: number[];
  names?: SeedNames;
}

/** One seeded ticket: its contact, status, messages (oldest first) and whether the search index's items are written. */
export interface SeedTicket {
  id: number;
  name: string;
  number: string;
  email?: string;
  status: TicketStatus;
  at: Date;
  bodies: string[];
  index: boolean;
}

/**
 * The items of one seeded ticket, as the services would have written them: the contact (+ its grams), the ticket with
 * its row summaries (+ its grams), each message with its `_sw` words (+ the ticket's word items with their counts).
 * Contact and ticket share the id `s.id`. Open and closed tickets are the tenant user's; pending ones nobody's.
 */
export function seedTicketItems(o: SeedTenant, s: SeedTicket): Record<string, unknown>[] {
  const at = s.at.toISOString();
  const { companyId, whatsappId } = o;
  const contact = ContactItem.parse({ id: s.id, companyId, uuid: randomUUID(), name: s.name, number: s.number, email: s.email ?? "", jids: [`${s.number}@s.whatsapp.net`], createdAt: at, updatedAt: at });
  const lastAt = new Date(s.at.getTime() + Math.max(0, s.bodies.length - 1) * 1000).toISOString();
  const ticket = TicketItem.parse({
    id: s.id, uuid: randomUUID(), companyId, status: s.status, contactId: s.id, whatsappId, queueId: o.queueIds[s.id % o.queueIds.length],
    userId: s.status === "pending" ? null : o.userId, lastMessage: s.bodies.at(-1) ?? "", unreadMessages: s.id % 3, createdAt: at, updatedAt: lastAt,
  });
  Object.assign(ticket, cycleAfter(null, ticket)); // its current service cycle, as the product's create writes it
  const sums = seedSummaries(o.names, contact, ticket);
  const items: Record<string, unknown>[] = [contactRecord(contact), ticketRecord(ticket, sums)];
  if (s.index) items.push(...contactIndexItems(contact), ...ticketGramItems(companyId, ticket.id, contact));
  s.bodies.forEach((body, k) => {
    const ts = new Date(s.at.getTime() + k * 1000).toISOString();
    const m = MessageItem.parse({ id: `B${s.id}M${k}`, ticketId: s.id, companyId, contactId: s.id, whatsappId, remoteJid: `${s.number}@s.whatsapp.net`, body, fromMe: k % 2 === 1, waTimestamp: ts, createdAt: ts, updatedAt: ts });
    items.push({ ...messageRecord(m), ...(s.index ? messageIndexWrites(m).attrs : {}) });
  });
  if (s.index) items.push(...ticketWordItems(companyId, s.id, s.bodies));
  return items;
}

/** Sets the company's contact and ticket id counters to `n`, so ids the product hands out next follow the seeded ones. */
export async function seedCounters(companyId: number, n: number): Promise<void> {
  for (const entity of ["contact", "ticket"]) {
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.counter(companyId, entity), UpdateExpression: "SET #v = :n", ExpressionAttributeNames: { "#v": "value" }, ExpressionAttributeValues: { ":n": n } }));
  }
}

/**
 * Builds `n` tickets with `make(i)` (i = 1..n) and writes them in chunks (memory stays bounded at 100k). Returns the
 * items written.
 */
export async function seedMany(o: SeedTenant, n: number, make: (i: number) => SeedTicket): Promise<number> {
  let written = 0;
  const chunk = 2000;
  for (let from = 1; from <= n; from += chunk) {
    const items: Record<string, unknown>[] = [];
    for (let i = from; i < Math.min(from + chunk, n + 1); i++) items.push(...seedTicketItems(o, make(i)));
    await batchPut(items);
    written += items.length;
  }
  await seedCounters(o.companyId, n);
  return written;
}

/**
 * Seeds `n` contacts and `n` tickets for the tab benchmark (40% open assigned to `userId`, 40% pending, 20% closed;
 * three queues) in a company, one message each. `searchShare` of the contacts are named "Mariana ...". With `status`,
 * every ticket gets that status. With `names`, tickets carry the row summaries the product writes. `index`: also the
 * search index's items (default off: they live in partitions no tab reads, and cost ~25 items per ticket to seed).
 */
export async function seedTickets(opts: SeedTenant & { n: number; searchShare?: number; status?: TicketStatus; index?: boolean }): Promise<number> {
  const share = opts.searchShare ?? 0.05;
  const base = Date.parse("2026-01-01T00:00:00Z");
  return seedMany(opts, opts.n, (i) => {
    const r = i % 5;
    return {
      id: i,
      name: i % Math.round(1 / share) === 0 ? `Mariana ${LAST[i % LAST.length]} ${i}` : `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i}`,
      number: `55119${String(i).padStart(8, "0")}`,
      status: opts.status ?? (r < 2 ? "open" : r < 4 ? "pending" : "closed"),
      at: new Date(base + i * 60000),
      bodies: [`Mensagem ${i}`],
      index: opts.index ?? false,
    };
  });
}
