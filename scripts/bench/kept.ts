/**
 * Seeds kept between bench runs (`--keepDb=<dir>`, or `--dynamoEndpoint` of a DynamoDB Local left running): one table
 * `bench`, and a marker item per seeded tenant, so a large seed (search at 100k tickets: about 6M items) is written
 * once and measured by later runs. The marker names the seed's format ({@link seedFormat}).
 */
import { createHash } from "node:crypto";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { signAccessToken } from "../../shared/src/auth/tokens.ts";
import { reportCycleItems } from "./reports.ts";
import { searchTicket } from "./search.ts";
import { SeedCounters, seedTicketItems, tabTicket, type SeedNames } from "./seed.ts";

/** A ticket of every kind of item the product writes (contact, ticket with row summaries, grams, messages, words) and the counter items they leave. */
function ticketSample(): Record<string, unknown>[] {
  const names: SeedNames = { queues: new Map([[7, { id: 7, name: "Suporte", color: "#1565c0" }]]), whatsapp: { id: 3, name: "Principal", status: "CONNECTED" }, user: { id: 5, name: "Admin" } };
  const o = { companyId: 1, whatsappId: 3, userId: 5, queueIds: [7], names };
  const counters = new SeedCounters();
  const items = [
    seedTicketItems(o, { id: 42, name: "João Lima", number: "5511999990042", email: "joao@exemplo.com.br", status: "open", at: new Date("2026-01-01T00:00:00Z"), bodies: ["Meu pedido 4521 ainda não chegou", "Quero o reembolso"], index: true }, counters),
    // What the seeds' generators make (names, numbers, texts, statuses): the first tickets of each, and one at 100k.
    ...[1, 2, 3, 4, 5, 6, 50, 99_999].flatMap((i) => [seedTicketItems(o, searchTicket(i), counters), seedTicketItems(o, tabTicket(i, { index: true }), counters)]),
  ];
  return [...items.flat(), ...counters.records()];
}

/** The reports seed's items of its first attendances (`bench/reports.ts`: cycle, report entries, contact). */
function reportSample(): Record<string, unknown>[] {
  return [...reportCycleItems({ companyId: 1, whatsappId: 3, queueIds: [7, 8], admin: { id: 5 } }, 3, Date.parse("2026-01-01T00:00:00.000Z"))];
}

/**
 * The format a seed of `kind` is written with: a hash of the items the seeds of that kind write now for sample
 * tickets (random uuids left out): the reports seed's attendances; every other seed's tickets (the tabs', the
 * search's, the dashboard's: contacts, rows, grams, words, messages, counters). A change to what a kind writes seeds
 * that kind again instead of measuring items the product no longer writes, and leaves the other kinds' seeds kept;
 * any other change (the bench's cases, comments) keeps every seed.
 */
export function seedFormat(kind: string): string {
  const h = createHash("sha256");
  h.update(JSON.stringify(kind === "reports" ? reportSample() : ticketSample()).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "uuid"));
  return h.digest("hex").slice(0, 16);
}

/** A seeded tenant as the bench uses it: ids, names and the admin's token. */
export interface KeptTenant {
  companyId: number;
  whatsappId: number;
  queueIds: number[];
  names: SeedNames;
  admin: { id: number; token: string };
}

type Marker = Omit<KeptTenant, "admin" | "names"> & { adminId: number; names: Omit<SeedNames, "queues"> & { queues: [number, SeedNames["queues"] extends Map<number, infer V> ? V : never][] }; items: number; seedSeconds: number };

const markerKey = (kind: string, n: number) => ({ PK: "BENCH#SEED", SK: `${kind}#${n}#${seedFormat(kind)}` });

/**
 * The tenant seeded earlier for `kind` at `n` tickets in this table with the current format, with a fresh admin token
 * (tokens are signed with this run's secret); null when none.
 */
export async function keptSeed(kind: string, n: number): Promise<(KeptTenant & { items: number; seedSeconds: number }) | null> {
  const got = await ddb().send(new GetCommand({ TableName: tableName(), Key: markerKey(kind, n), ConsistentRead: true }));
  if (!got.Item) return null;
  const m = got.Item as unknown as Marker;
  const token = await signAccessToken({ id: m.adminId, companyId: m.companyId, tokenVersion: 0, profile: "admin" });
  return {
    companyId: m.companyId,
    whatsappId: m.whatsappId,
    queueIds: m.queueIds,
    names: { ...m.names, queues: new Map(m.names.queues) },
    admin: { id: m.adminId, token },
    items: m.items,
    seedSeconds: m.seedSeconds,
  };
}

/** Records that `t` holds the complete seed of `kind` at `n` tickets (written last, so an interrupted seed is redone). */
export async function keepSeed(kind: string, n: number, t: KeptTenant, items: number, seedSeconds: number): Promise<void> {
  const marker: Marker = {
    companyId: t.companyId,
    whatsappId: t.whatsappId,
    queueIds: t.queueIds,
    adminId: t.admin.id,
    names: { ...t.names, queues: [...t.names.queues] },
    items,
    seedSeconds,
  };
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...markerKey(kind, n), ...marker } }));
}
