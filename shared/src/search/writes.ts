/**
 * The search index's writes, added by the contact and message repositories to their own transactions:
 * - {@link contactIndexWrites}: the gram items of a contact (`keys.searchGram`), diffed against its previous state;
 * - {@link ticketGramWrites}: the ticket-side grams of a ticket (`keys.searchTicketGram`): its contact's grams once per
 *   ticket, written with the ticket's creation and moved when the contact's name, email or number change;
 * - {@link messageIndexWrites}: the word items of a new message (`keys.searchWord`, one per word and ticket: the ticket
 *   holds the word), only for the words the writer does not know the ticket to hold already ({@link knownWords}), plus
 *   `_sw` (the words indexed, space-separated) stored on the message item;
 * - {@link reindexMessage}: after an edit or a delete-for-everyone, adds the new body's words and removes the words no
 *   other message of the ticket holds, in one transaction conditioned on `_sw` (exactly once, even when the change is
 *   delivered twice) and, when it removes any, on the ticket's `rev` (which it moves, so no copy still knowing the word
 *   skips writing it again).
 * Layout and costs: see the `Search` port in `./index.ts`.
 */
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { cancellationReasons, withConflictRetry } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { atRev, bumpRev } from "../tickets/revision.ts";
import { log } from "../log.ts";
import { contactGrams, digitsOnly, messageWords, snippetOf, sortName, words, type ContactFields } from "./tokens.ts";

/** One action of a `TransactWriteItems` request (the document client's shape). */
export type TransactItem = Record<string, unknown>;

/** A contact as far as the index is concerned. */
export type IndexedContact = ContactFields & { id: number; companyId: number };

const gramKeys = (c: IndexedContact) => contactGrams(c).map((g) => keys.searchGram(c.companyId, g, sortName(c.name), c.id));
const kid = (k: { PK: string; SK: string }) => `${k.PK}|${k.SK}`;
/** What a gram item holds besides its key: the contact id and the fields a query checks (`w`: name and email words, `d`: number digits). */
const gramBody = (c: IndexedContact) => ({ _type: "searchGram", contactId: c.id, w: [...words(c.name), ...words(c.email ?? "")].join(" "), d: digitsOnly(c.number ?? "") });
const sameFields = (a: IndexedContact | null, b: IndexedContact | null) =>
  !!a && !!b && a.name === b.name && (a.email ?? "") === (b.email ?? "") && digitsOnly(a.number ?? "") === digitsOnly(b.number ?? "");

/** The gram items of a contact as stored (for bulk loaders such as the bench's seeder): `{PK, SK, _type, contactId, w, d}`. */
export function contactIndexItems(c: IndexedContact): Record<string, unknown>[] {
  const body = gramBody(c);
  return gramKeys(c).map((k) => ({ ...k, ...body }));
}

/**
 * The index actions to add to a contact write: Put every gram of `next` (each holds the fields a query checks), Delete
 * the grams of `prev` that `next` lacks. `prev` null: a new contact, or a write whose previous state the caller does
 * not hold (Puts are idempotent). `next` null: the contact is deleted. At most 2 × 44 actions (a contact whose name,
 * email and number all changed); none when name, email and number did not change.
 */
export function contactIndexWrites(prev: IndexedContact | null, next: IndexedContact | null): TransactItem[] {
  const before = new Map((prev ? gramKeys(prev) : []).map((k) => [kid(k), k]));
  const after = new Map((next ? gramKeys(next) : []).map((k) => [kid(k), k]));
  const out: TransactItem[] = [];
  if (sameFields(prev, next)) return out;
  const body = next ? gramBody(next) : {};
  for (const k of after.values()) out.push({ Put: { TableName: tableName(), Item: { ...k, ...body } } });
  for (const [id, k] of before) if (!after.has(id)) out.push({ Delete: { TableName: tableName(), Key: k } });
  return out;
}

/**
 * The ticket-side grams (`keys.searchTicketGram`): the grams of the ticket's contact, one item per gram and ticket,
 * holding `ticketId`, `contactId` and the fields a query checks (as the contact's own grams). `contact` null: none.
 */
export function ticketGramItems(companyId: number, ticketId: number, contact: (ContactFields & { id: number }) | null | undefined): Record<string, unknown>[] {
  if (!contact) return [];
  const c = { ...contact, companyId };
  const body = { ...gramBody(c), _type: "searchTicketGram", ticketId };
  return contactGrams(c).map((g) => ({ ...keys.searchTicketGram(companyId, g, ticketId), ...body }));
}

/**
 * The actions that move a ticket's grams from contact state `prev` to `next` (either null: none): Put every gram of
 * `next`, Delete the grams of `prev` that `next` lacks. None when name, email and number are the same. At most 88
 * actions (2 × {@link MAX_CONTACT_GRAMS}); written in the ticket's own transaction (creation) or with the summary
 * refresh of a contact change (`tickets/summaries.ts`), so the ticket is found by its contact's current words.
 */
export function ticketGramWrites(
  companyId: number,
  ticketId: number,
  prev: (ContactFields & { id: number }) | null | undefined,
  next: (ContactFields & { id: number }) | null | undefined,
): TransactItem[] {
  const asIndexed = (c: (ContactFields & { id: number }) | null | undefined) => (c ? { ...c, companyId } : null);
  if (sameFields(asIndexed(prev), asIndexed(next)) && prev?.id === next?.id) return [];
  const after = ticketGramItems(companyId, ticketId, next);
  const keep = new Set(after.map((it) => `${it.PK}|${it.SK}`));
  const out: TransactItem[] = after.map((Item) => ({ Put: { TableName: tableName(), Item } }));
  for (const it of ticketGramItems(companyId, ticketId, prev)) {
    if (!keep.has(`${it.PK}|${it.SK}`)) out.push({ Delete: { TableName: tableName(), Key: { PK: it.PK, SK: it.SK } } });
  }
  return out;
}

/** The fields of a message the index reads. */
export interface IndexedMessage {
  companyId: number;
  ticketId: number;
  body: string;
  isDeleted?: boolean;
}

const wordsOf = (m: IndexedMessage) => (m.isDeleted ? [] : messageWords(m.body));

/**
 * A word item: the ticket holds the word (`n` > 0; items written before presence semantics counted the messages, and
 * readers skip the ones a count left at 0) and `s`, the text around it in a message that holds it (`snippetOf`), which
 * the list shows for a ticket found by the word without reading the message. A Put: idempotent.
 */
const wordPut = (companyId: number, ticketId: number, word: string, body: string): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...keys.searchWord(companyId, word, ticketId), _type: "searchWord", ticketId, n: 1, s: snippetOf(body, word) } },
});

/** True when a stored word item says its ticket holds the word (see {@link wordPut}). */
export const holdsWord = (item: Record<string, unknown> | undefined): boolean => !!item && (item.n === undefined || Number(item.n) > 0);

/**
 * The words a ticket copy is known to hold in the index: set by the writer that stored a message at the copy's exact
 * `rev` (`messages/repository.ts` `ingestMessage` with `atRev`). Removing a word item moves the ticket's `rev`
 * ({@link reindexMessage}), so a write conditioned on the copy's `rev` never relies on a word since removed. Keyed by
 * the copy object itself: a fresh read knows nothing and writes every word. At most {@link MAX_KNOWN_WORDS} a ticket.
 */
export const knownWords = new WeakMap<object, ReadonlySet<string>>();
/** Words remembered per ticket copy (a long conversation stops growing the set; words past it are written again). */
export const MAX_KNOWN_WORDS = 400;

/**
 * For a new message: `attrs` to spread into the message item (`_sw`, the words indexed), `words` (all of them) and
 * `items`, one Put per word the ticket is not `known` to hold already, to add to the message's own transaction — so
 * the index moves exactly when the message is stored (a duplicate delivery cancels both). At most 40 actions.
 */
export function messageIndexWrites(m: IndexedMessage, known?: ReadonlySet<string>): { attrs: { _sw: string }; words: string[]; items: TransactItem[] } {
  const ws = wordsOf(m);
  return { attrs: { _sw: ws.join(" ") }, words: ws, items: ws.filter((w) => !known?.has(w)).map((w) => wordPut(m.companyId, m.ticketId, w, m.body)) };
}

/** `known` plus `words`, as the words of the copy written next (bounded by {@link MAX_KNOWN_WORDS}). */
export function withKnownWords(known: ReadonlySet<string> | undefined, words: string[]): ReadonlySet<string> {
  if (known && words.every((w) => known.has(w))) return known;
  const out = new Set(known);
  for (const w of words) if (out.size < MAX_KNOWN_WORDS) out.add(w);
  return out;
}

/** The word items of a whole ticket's messages as stored (bulk loaders): one per distinct word with its count `n` and the snippet of its first message. */
export function ticketWordItems(companyId: number, ticketId: number, bodies: string[]): Record<string, unknown>[] {
  const counts = new Map<string, { n: number; body: string }>();
  for (const b of bodies) for (const w of messageWords(b)) counts.set(w, { n: (counts.get(w)?.n ?? 0) + 1, body: counts.get(w)?.body ?? b });
  return [...counts].map(([w, c]) => ({ ...keys.searchWord(companyId, w, ticketId), _type: "searchWord", ticketId, n: c.n, s: snippetOf(c.body, w) }));
}

/**
 * Brings the index up to date with a stored message after a change of its body or `isDeleted` (`raw`: the message item
 * as stored now, with its `PK`, `SK` and `_sw`). One transaction: sets `_sw` (conditioned on `_sw` being what was
 * read; a lost race stops, the winner applied the same change), Puts the words that came, and Deletes the words that
 * left and no other message of the ticket holds (read from their `_sw`), moving the ticket's `rev` under the condition
 * that it is the one read with them (a message stored meanwhile retries, up to 3 times; after that the words are left:
 * a ticket found by a word it no longer holds, never one missed). No-op unless `changed` (the patch just applied) names
 * `body` or `isDeleted`, or when the indexed words did not change. Never throws: the message is already stored; a
 * failure is logged (`search reindex failed`).
 */
export async function reindexMessage(raw: Record<string, unknown> | undefined, changed: object): Promise<void> {
  if (!raw || !("body" in changed || "isDeleted" in changed)) return;
  try {
    await reindex(raw);
  } catch (err) {
    log("error", "search reindex failed", { companyId: raw.companyId, ticketId: raw.ticketId, err });
  }
}

/** Tries to remove words whose other holders moved on (see {@link reindexMessage}). */
const REINDEX_TRIES = 3;

async function reindex(raw: Record<string, unknown>): Promise<void> {
  const companyId = Number(raw.companyId);
  const ticketId = Number(raw.ticketId);
  const had = typeof raw._sw === "string" ? raw._sw : undefined;
  const before = had ? had.split(" ") : [];
  const now = wordsOf({ companyId, ticketId, body: String(raw.body ?? ""), isDeleted: raw.isDeleted === true });
  const gone = before.filter((w) => !now.includes(w));
  const came = now.filter((w) => !before.includes(w));
  if (!gone.length && !came.length && had !== undefined) return;
  for (let attempt = 1; ; attempt++) {
    const drop = gone.length && attempt <= REINDEX_TRIES ? await wordsNoOtherMessageHolds(companyId, ticketId, String(raw.SK), gone) : { words: [], rev: 0, held: new Map<string, string>() };
    const revAt = atRev(drop.rev);
    try {
      await withConflictRetry(() => ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: { PK: raw.PK, SK: raw.SK },
                UpdateExpression: "SET #sw = :now",
                ConditionExpression: had === undefined ? "attribute_not_exists(#sw)" : "#sw = :had",
                ExpressionAttributeNames: { "#sw": "_sw" },
                ExpressionAttributeValues: { ":now": now.join(" "), ...(had === undefined ? {} : { ":had": had }) },
              },
            },
            ...came.map((w) => wordPut(companyId, ticketId, w, String(raw.body ?? ""))),
            // Words that left this message but another still holds: their snippet is taken from that one.
            ...[...drop.held].map(([w, body]) => wordPut(companyId, ticketId, w, body)),
            ...drop.words.map((w) => ({ Delete: { TableName: tableName(), Key: keys.searchWord(companyId, w, ticketId) } })),
            ...(drop.words.length
              ? [{ Update: bumpRev({ TableName: tableName(), Key: keys.ticket(companyId, ticketId), UpdateExpression: "", ConditionExpression: `attribute_exists(PK) AND ${revAt.condition}`, ExpressionAttributeValues: revAt.values }) }]
              : []),
          ],
        }),
      ));
      return;
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (reasons?.[0]?.Code === "ConditionalCheckFailed") return;
      // The ticket moved (a message stored meanwhile may hold a word that left): read again.
      if (drop.words.length && reasons?.at(-1)?.Code === "ConditionalCheckFailed") continue;
      throw err;
    }
  }
}

/**
 * Of `gone` (words message `sk` no longer holds), those no other message of the ticket holds (from their `_sw`), the
 * others with the body of a message that holds them (`held`, for their snippet), and the ticket's `rev` read before
 * them (so a message stored after the read moves it).
 */
async function wordsNoOtherMessageHolds(
  companyId: number,
  ticketId: number,
  sk: string,
  gone: string[],
): Promise<{ words: string[]; rev: number; held: Map<string, string> }> {
  const t = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.ticket(companyId, ticketId), ConsistentRead: true, ProjectionExpression: "#rev", ExpressionAttributeNames: { "#rev": "rev" } }));
  const rev = Number(t.Item?.rev ?? 0);
  const left = new Set(gone);
  const held = new Map<string, string>();
  for await (const page of queryPages({
    KeyConditionExpression: "PK = :pk AND begins_with(SK, :m)",
    ExpressionAttributeValues: { ":pk": keys.ticketPartition(companyId, ticketId), ":m": keys.messagePrefix },
    ProjectionExpression: "SK, #sw, body",
    ExpressionAttributeNames: { "#sw": "_sw" },
    ConsistentRead: true,
  })) {
    for (const it of page) {
      if (it.SK === sk || typeof it._sw !== "string") continue;
      for (const w of it._sw.split(" ")) {
        if (left.delete(w)) held.set(w, String(it.body ?? ""));
      }
    }
    if (!left.size) break;
  }
  return { words: [...left], rev, held };
}
