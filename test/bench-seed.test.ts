/**
 * The bench's bulk seed (`scripts/bench/seed.ts`) writes exactly the items the product writes for the same
 * conversations: the same tickets seeded once through the product's own path (the ingest of each Baileys message, the
 * agent's transitions, the counters and durable listeners run as the product runs them) into one company and once
 * with BatchWriteItem into another are the same set of items, ids, uuids, times and the company's number aside.
 * And its file writer (`scripts/bench/file-writer.ts`, for kept seeds) stores the rows DynamoDB Local's own writes
 * store, which DynamoDB Local then serves. And the bench's count of one request's DynamoDB work (`ddbWorkOf`) sees a
 * seeded tab's steady state: the first page re-packs the rows the seed's transitions left stale, the next is one Query.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it, vi } from "vitest";
import { startDynamo } from "../infra/local/src/dynamo.ts";
import { dumpFileRows, writeItemsToFile } from "../scripts/bench/file-writer.ts";
import { SeedCounters, seedMany, seedTicketItems, seedThroughServices, tabTicket, type SeedNames, type SeedTenant } from "../scripts/bench/seed.ts";
import { ddbWorkOf, searchTicket } from "../scripts/bench/search.ts";
import { ddb, tableName } from "../shared/src/db/client.ts";
import { createTableInput } from "../shared/src/db/table.ts";
import { redriveDurable } from "../shared/src/events/durable.ts";
import { redriveOutbox } from "../shared/src/events/outbox.ts";
import { settleDeferred } from "../shared/src/events/index.ts";
import { listTickets } from "../shared/src/tickets/list.ts";
import { companyWorld, type World } from "./world.ts";

const QUEUES = ["Vendas", "Suporte", "Financeiro"];
const world = companyWorld({ queues: QUEUES, whatsapp: { name: "Principal" } });

/** Every item of the company: its partitions, and any item elsewhere that names it (outbox, pending runs, due indexes). */
async function itemsOf(cid: number): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: "PK = :c OR begins_with(PK, :p) OR companyId = :cid OR contains(SK, :s)",
        ExpressionAttributeValues: { ":c": `C#${cid}`, ":p": `C#${cid}#`, ":cid": cid, ":s": `#${cid}#` },
        ExclusiveStartKey: start,
      }),
    );
    // (A sort key naming another company's ticket `#<cid>#` is not this company's: its `companyId` says whose; nor is
    // an item in another company's partition whose sort key holds `#<cid>#`, e.g. a message alias's `WA#<wid>#<jid>`.)
    const elsewhere = (pk: string) => /^C#\d+(#|$)/.test(pk) && pk !== `C#${cid}` && !pk.startsWith(`C#${cid}#`);
    out.push(...(page.Items ?? []).filter((i) => !String(i.PK).startsWith("EMAIL#") && i.SK !== "#COMPANY" && !String(i.SK).startsWith("USER#") && (i.companyId == null || i.companyId === cid) && !elsewhere(String(i.PK))));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;

/**
 * An item with what legitimately differs between two companies seeded at different moments replaced by
 * placeholders: the company's number in keys and fields, uuids, and times written at the moment of writing (the
 * messages' own WhatsApp times are the same in both seeds and stay).
 */
function normalise(item: unknown, cid: number): unknown {
  if (typeof item === "string") {
    if (item.startsWith("{") || item.startsWith("[")) {
      try {
        return JSON.stringify(normalise(JSON.parse(item), cid));
      } catch {
        // not JSON: a plain string
      }
    }
    // (An outbox item's sort key is `<due time>#<cid>#<id>`.)
    return item.replaceAll(`C#${cid}#`, "C#<cid>#").replace(new RegExp(`^C#${cid}$`), "C#<cid>").replace(UUID, "<uuid>").replace(ISO, "<time>").replace(new RegExp(`^<time>#${cid}#`), "<time>#<cid>#");
  }
  if (Array.isArray(item)) return item.map((v) => normalise(v, cid));
  if (item && typeof item === "object") {
    return Object.fromEntries(
      Object.entries(item)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, k === "companyId" && v === cid ? "<cid>" : normalise(v, cid)]),
    );
  }
  return item;
}

const sortKey = (i: Record<string, unknown>) => `${i.PK}|${i.SK}|${JSON.stringify(i)}`;

function tenantOf(w: Pick<World, "cid" | "queues" | "wa" | "admin">): SeedTenant & { names: SeedNames } {
  return {
    companyId: w.cid,
    whatsappId: w.wa,
    userId: w.admin.id,
    queueIds: w.queues,
    names: {
      queues: new Map(w.queues.map((id, i) => [id, { id, name: QUEUES[i], color: `#00${id}` }])),
      whatsapp: { id: w.wa, name: "Principal", status: "CONNECTED" },
      user: { id: w.admin.id, name: "Admin" },
    },
  };
}

describe("the bench's bulk seed", () => {
  it("writes the same items as the product's own path for the same tickets", async () => {
    // 20 tickets: every status 4 times or more, an email on every third contact (about 80 s on a loaded 2-core machine).
    const n = 20;
    const bulk = await world.fresh();
    const tickets = Array.from({ length: n }, (_, i) => searchTicket(i + 1));
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await seedThroughServices(tenantOf(world), tickets, (at) => vi.setSystemTime(at));
      await settleDeferred();
      const end = tickets.at(-1)!.at.getTime() + 86_400_000;
      await redriveOutbox(end);
      await redriveDurable(end);
    } finally {
      vi.useRealTimers();
    }
    await seedMany(tenantOf(bulk), n, (i) => tickets[i - 1]);

    const byService = (await itemsOf(world.cid)).map((i) => normalise(i, world.cid) as Record<string, unknown>).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
    const byBulk = (await itemsOf(bulk.cid)).map((i) => normalise(i, bulk.cid) as Record<string, unknown>).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
    expect(byService.length).toBeGreaterThan(n * 20);
    const keyOf = (i: Record<string, unknown>) => `${i.PK}|${i.SK}`;
    expect(byBulk.map(keyOf)).toEqual(byService.map(keyOf));
    expect(byBulk).toEqual(byService);
  }, 600_000);

  it("counts a page's own row repairs, then a seeded tab page is one Query: the repairs stick", async () => {
    // 45 open tickets: their rows are stale after the seed's transitions (accepted after the last message), as the
    // product's path leaves them.
    const t = await world.fresh();
    await seedMany(tenantOf(t), 45, (i) => tabTicket(i, { status: "open" }));
    const actor = { userId: t.admin.id, companyId: t.cid, profile: "admin" as const, name: "Admin", queueIds: t.queues, allTicket: "desabled" as const };
    const page = () => listTickets(actor, { status: "open", showAll: true });
    // The first page reads the 40 stale rows whole and re-packs them (counted with the page, though deferred).
    expect(await ddbWorkOf(page)).toBe("1 Query + 1 BatchGetItem + 40 UpdateItem; 40 queried, 40 keys (writes: 40 UpdateItem C#n#TK#n|#TICKET)");
    // Right after it, the same page: one Query, every row from the index, no repair (none of the first page's).
    expect(await ddbWorkOf(page)).toBe("1 Query; 40 queried, 0 keys");
    expect((await page()).tickets).toHaveLength(40);
  }, 120_000);

  it("writes into DynamoDB Local's database file the rows DynamoDB Local's own writes store, and DynamoDB Local serves them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-file-"));
    const dynamo = await startDynamo({ dataDir: dir, startLimitMs: 180_000 });
    try {
      const raw = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
      const client = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } });
      for (const t of ["viaApi", "viaFile"]) await raw.send(new CreateTableCommand(createTableInput(t)));
      // Every kind of item the seeds write (search and tab tickets of each status, counters), and values of each type.
      const counters = new SeedCounters();
      const o = tenantOf(world);
      const items = [
        ...Array.from({ length: 10 }, (_, i) => [...seedTicketItems(o, searchTicket(i + 1), counters), ...seedTicketItems(o, tabTicket(100 + i, { index: true }), counters)]).flat(),
        ...counters.records(),
        { PK: "X", SK: "values", neg: -1, zero: 0, frac: 1.5, big: -123456.789, round: 100000, small: 0.00012, list: [1, "é", null, true, { q: 2 }], strings: new Set(["p", "q"]), numbers: new Set([3, 40]), empty: "", map: {} },
      ];
      for (let i = 0; i < items.length; i += 25) {
        const out = await client.send(new BatchWriteCommand({ RequestItems: { viaApi: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
        expect(out.UnprocessedItems?.viaApi ?? []).toEqual([]);
      }
      const written = await writeItemsToFile(join(dir, "shared-local-instance.db"), "viaFile", items);
      expect(written.rows).toBe(items.length);

      // Column by column (the item's JSON parsed: its attributes' order is a hash map's).
      const sortedJson = (s: string) => JSON.stringify(JSON.parse(s), (_k, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
      const rowsOf = async (table: string) => (await dumpFileRows(join(dir, "shared-local-instance.db"), table)).map((r) => [...r.split("\t").slice(0, -1), sortedJson(r.split("\t").at(-1)!)]);
      const byApi = await rowsOf("viaApi");
      expect(byApi).toHaveLength(items.length);
      expect(await rowsOf("viaFile")).toEqual(byApi);

      // DynamoDB Local, running while the file was written, answers from those rows: by key, and through an index.
      const query = async (TableName: string) => [
        (await client.send(new QueryCommand({ TableName, KeyConditionExpression: "PK = :p", ExpressionAttributeValues: { ":p": `C#${o.companyId}#SW#pedido` } }))).Items,
        (await client.send(new QueryCommand({ TableName, IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :p", ExpressionAttributeValues: { ":p": `C#${o.companyId}#S#pending` }, ScanIndexForward: false }))).Items,
      ];
      const [words, pending] = await query("viaFile");
      expect(words?.length).toBeGreaterThan(0);
      expect(pending?.length).toBeGreaterThan(0);
      expect([words, pending]).toEqual(await query("viaApi"));
    } finally {
      await dynamo.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
