/**
 * Bulk seeding for the benchmarks: companies with N contacts and N tickets written with BatchWrite, using the
 * repositories' own item builders (`contactRecord`, `ticketRecord`), so the items are exactly what the product writes.
 */
import { randomUUID } from "node:crypto";
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { contactRecord } from "../../shared/src/contacts/repository.ts";
import { ContactItem } from "../../shared/src/contacts/schema.ts";
import { ticketRecord } from "../../shared/src/tickets/repository.ts";
import { TicketItem } from "../../shared/src/tickets/schema.ts";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { keys } from "../../shared/src/db/keys.ts";
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

/** Writes items in batches of 25 with `parallel` requests in flight, retrying unprocessed items. */
export async function batchPut(items: Record<string, unknown>[], parallel = 8): Promise<void> {
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

/**
 * Seeds `n` contacts and `n` tickets (40% open assigned to `userId`, 40% pending, 20% closed; three queues) in a
 * company. `searchShare` of the contacts are named "Mariana ..." so a search for "mariana" matches that share.
 * With `status`, every ticket gets that status (open and closed ones assigned to `userId`). With `names`, tickets carry
 * the row summaries the product writes (as tickets created through it do).
 */
export async function seedTickets(opts: { companyId: number; whatsappId: number; userId: number; queueIds: number[]; n: number; searchShare?: number; status?: "open" | "pending" | "closed"; names?: SeedNames }) {
  const { companyId, whatsappId, userId, queueIds, n } = opts;
  const share = opts.searchShare ?? 0.05;
  const base = Date.parse("2026-01-01T00:00:00Z");
  const items: Record<string, unknown>[] = [];
  for (let i = 1; i <= n; i++) {
    const at = new Date(base + i * 60000).toISOString();
    const name = i % Math.round(1 / share) === 0 ? `Mariana ${LAST[i % LAST.length]} ${i}` : `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i}`;
    const number = `55119${String(i).padStart(8, "0")}`;
    const contact = ContactItem.parse({ id: i, companyId, uuid: randomUUID(), name, number, jids: [`${number}@s.whatsapp.net`], createdAt: at, updatedAt: at });
    items.push(contactRecord(contact));
    const r = i % 5;
    const status = opts.status ?? (r < 2 ? "open" : r < 4 ? "pending" : "closed");
    const ticket = TicketItem.parse({
      id: i, uuid: randomUUID(), companyId, status, contactId: i, whatsappId, queueId: queueIds[i % queueIds.length],
      userId: status === "pending" ? null : userId, lastMessage: `Mensagem ${i}`, unreadMessages: i % 3, createdAt: at, updatedAt: at,
    });
    items.push(ticketRecord(ticket, seedSummaries(opts.names, contact, ticket)));
  }
  await batchPut(items);
  // Keep the id counters ahead of the seeded ids.
  for (const entity of ["contact", "ticket"]) {
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.counter(companyId, entity), UpdateExpression: "SET #v = :n", ExpressionAttributeNames: { "#v": "value" }, ExpressionAttributeValues: { ":n": n } }));
  }
}
