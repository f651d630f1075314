/**
 * Search-index backfill: indexes the contacts and messages a company stored before the word index existed
 * (contact grams `keys.searchGram`, each ticket's grams `keys.searchTicketGram`, message words `keys.searchWord` with
 * `_sw` on the message). Walks by keys only:
 * the company's contacts on their name index (GSI1 `C#<cid>#CONTACTS`), then its tickets per status (GSI1
 * `C#<cid>#S#<status>`) and each ticket's messages (`M#` in its partition). Never a table scan.
 *
 * - Idempotent: contact grams are Puts of the same items; a message is indexed only when it has no `_sw`, through
 *   `reindexMessage`, whose transaction is conditioned on `_sw` still being absent (a message indexed meanwhile, or
 *   twice at once, counts once).
 * - Resumable and bounded: a run examines at most `budget` contacts + messages (default {@link BACKFILL_BUDGET}) and
 *   stores where it stopped in the company's progress item `keys.searchBackfill(cid)`; the next run continues there.
 *   A finished backfill is a no-op (`done`), until `restart`.
 */
import { GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { batchWriteAll } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { ContactItem } from "../contacts/schema.ts";
import type { ContactFields } from "./tokens.ts";
import { contactIndexItems, reindexMessage, ticketGramItems } from "./writes.ts";

/** Contacts + messages examined per run by default. */
export const BACKFILL_BUDGET = 1000;

type Key = Record<string, unknown>;
/** Where a run stopped: phase (contacts or a ticket status), the index position, and inside a ticket its message position. */
type Cursor = { p: "contacts" | "open" | "pending" | "closed"; k?: Key; t?: { pk: string; k?: Key } };
const PHASES: Cursor["p"][] = ["contacts", "open", "pending", "closed"];

/** What a run did, and what the progress item holds after it. */
export interface BackfillResult {
  /** Contacts whose grams were written in this run. */
  contacts: number;
  /** Messages examined in this run / indexed in this run (those without `_sw`). */
  messagesSeen: number;
  messagesIndexed: number;
  /** True when the whole company has been walked. */
  done: boolean;
}

/** The company's stored backfill progress (one consistent GetItem): where the last run stopped, and whether it is done. */
export async function readProgress(companyId: number): Promise<{ cursor?: Cursor; done: boolean }> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.searchBackfill(companyId), ConsistentRead: true }));
  return { cursor: out.Item?.cursor as Cursor | undefined, done: out.Item?.done === true };
}

/**
 * The progress item of a company born with the index (created after it existed: every write of it indexes itself),
 * as a `Put` for the company's creation transaction: done, so deploys and local starts never schedule its backfill.
 */
export function bornIndexedPut(companyId: number) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.searchBackfill(companyId), _type: "searchBackfill", companyId, cursor: null, done: true, bornIndexed: true, updatedAt: new Date().toISOString() },
    },
  };
}

async function writeProgress(companyId: number, cursor: Cursor | undefined, done: boolean, run: BackfillResult): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.searchBackfill(companyId), _type: "searchBackfill", companyId, cursor: cursor ?? null, done, lastRun: run, updatedAt: new Date().toISOString() },
    }),
  );
}

const query = (params: { index?: string; pkName: string; pk: string; skPrefix?: string; skName?: string; start?: Key; limit: number; projection?: string; names?: Record<string, string> }) =>
  ddb().send(
    new QueryCommand({
      TableName: tableName(),
      ...(params.index ? { IndexName: params.index } : {}),
      KeyConditionExpression: `${params.pkName} = :pk${params.skPrefix ? ` AND begins_with(${params.skName}, :sp)` : ""}`,
      ExpressionAttributeValues: { ":pk": params.pk, ...(params.skPrefix ? { ":sp": params.skPrefix } : {}) },
      ...(params.projection ? { ProjectionExpression: params.projection, ExpressionAttributeNames: params.names } : {}),
      ExclusiveStartKey: params.start,
      Limit: params.limit,
    }),
  );

/**
 * One bounded run of the company's backfill (see the module doc): continues from the stored progress, examines at most
 * `budget` contacts and messages, stores the new progress and returns what it did. `restart`: start over from the
 * first contact (after a change of the index's rules). Errors of DynamoDB propagate (the progress of the run so far
 * is not stored; the next run repeats that part, which is harmless).
 */
export async function backfillSearchIndex(companyId: number, opts: { budget?: number; restart?: boolean } = {}): Promise<BackfillResult> {
  let budget = Math.max(1, opts.budget ?? BACKFILL_BUDGET);
  const run: BackfillResult = { contacts: 0, messagesSeen: 0, messagesIndexed: 0, done: false };
  const progress = opts.restart ? { cursor: undefined, done: false } : await readProgress(companyId);
  if (progress.done) return { ...run, done: true };
  let cur: Cursor = progress.cursor ?? { p: "contacts" };

  while (budget > 0) {
    if (cur.p === "contacts") {
      const page = await query({ index: "GSI1", pkName: "GSI1PK", pk: keys.contactsIndexPK(companyId), skPrefix: keys.contactNamePrefix(""), skName: "GSI1SK", start: cur.k, limit: Math.min(budget, 50) });
      const writes = [];
      for (const raw of page.Items ?? []) {
        const c = ContactItem.safeParse(raw);
        if (!c.success) continue;
        for (const Item of contactIndexItems(c.data)) writes.push({ PutRequest: { Item } });
        run.contacts++;
      }
      await batchWriteAll(writes);
      budget -= Math.max(1, page.Items?.length ?? 0);
      cur = page.LastEvaluatedKey ? { p: "contacts", k: page.LastEvaluatedKey } : { p: "open" };
      continue;
    }
    if (cur.t) {
      // Inside one ticket: its messages, oldest first.
      const page = await query({
        pkName: "PK",
        pk: cur.t.pk,
        skPrefix: keys.messagePrefix,
        skName: "SK",
        start: cur.t.k,
        limit: Math.min(budget, 100),
        projection: "PK, SK, companyId, ticketId, body, isDeleted, #sw",
        names: { "#sw": "_sw" },
      });
      for (const raw of page.Items ?? []) {
        run.messagesSeen++;
        if (typeof raw._sw === "string") continue;
        await reindexMessage(raw, { body: true });
        run.messagesIndexed++;
      }
      budget -= Math.max(1, page.Items?.length ?? 0);
      cur = page.LastEvaluatedKey ? { ...cur, t: { pk: cur.t.pk, k: page.LastEvaluatedKey } } : { p: cur.p, k: cur.k };
      continue;
    }
    // The next ticket of this status (one at a time, so the cursor is exact).
    const page = await query({ index: "GSI1", pkName: "GSI1PK", pk: keys.ticketStatusPK(companyId, cur.p), start: cur.k, limit: 1, projection: "PK, SK, GSI1PK, GSI1SK, id, contactId, sumContact" });
    const t = page.Items?.[0];
    if (t) {
      // The ticket-side grams of its contact (Puts of the same items: idempotent).
      let contact = t.sumContact as ContactFields & { id: number } | undefined;
      if (!contact || contact.id !== Number(t.contactId)) {
        const got = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.contact(companyId, Number(t.contactId)) }));
        const parsed = got.Item ? ContactItem.safeParse(got.Item) : undefined;
        contact = parsed?.success ? parsed.data : undefined;
      }
      await batchWriteAll(ticketGramItems(companyId, Number(t.id), contact).map((Item) => ({ PutRequest: { Item } })));
      cur = { p: cur.p, k: { PK: t.PK, SK: t.SK, GSI1PK: t.GSI1PK, GSI1SK: t.GSI1SK }, t: { pk: String(t.PK) } };
      continue;
    }
    const next = PHASES[PHASES.indexOf(cur.p) + 1];
    if (!next) {
      run.done = true;
      await writeProgress(companyId, undefined, true, run);
      return run;
    }
    cur = { p: next };
  }
  await writeProgress(companyId, cur, false, run);
  return run;
}
