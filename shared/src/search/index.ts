/**
 * Search (docs/product/search.md): the {@link Search} port and its DynamoDB adapter {@link search}.
 *
 * ## What is found
 * A query is split into normalized tokens (accents and case ignored, see `tokens.ts`; a text that looks like a phone
 * number is one digits token). A **contact** matches when every token matches it: a word of its name or email starts
 * with the token, or — a run of ≥ 4 digits — its number contains the token. A **ticket** matches when its contact
 * matches every token, or when its messages contain the longest token as a whole word and every other token is a word
 * of its messages or matches its contact ("pedido 4521", "Lima reembolso"). Deleted messages and a message's text before
 * an edit are not found. Queries with no token long enough to be indexed (every word under 3 characters, or a number
 * under 4 digits) fall back to the old prefix keys: contacts whose whole normalized name, or whose number, starts with
 * the text.
 *
 * ## Index items (one table, keys from `keys.ts`, no GSI)
 * - Contact grams `C#<cid>#SG#<gram>` / `N#<normalized name>#<contactId>`: every 4-digit run of the number and the
 *   3-8 character prefixes of each name and email word (≤ 44 per contact, ~30 typical). Written in the contact's own
 *   transaction (create, edit, identity merge, delete), diffed against the previous state, so a renamed contact is no
 *   longer found by the old name. A query reads the partition of its longest token's gram (alphabetical), reads the
 *   contacts in one BatchGet and checks every token on them.
 * - Ticket grams `C#<cid>#STG#<gram>` / `T#<ticketId>`: the same grams as the contact's, once per ticket of the contact,
 *   with `ticketId`, `contactId` and the fields a query checks. Written in the ticket's creation transaction (≤ 44
 *   more actions: 16 for a contact without email, 28 with one, in the bench's seed) and moved, with the ticket's
 *   `sumContact`, by the summaries listener on `contact.updated` (one transaction per ticket, bounded like the
 *   summaries). So a ticket search by name, number or
 *   email reads ONE partition, newest ticket first, and the candidates in one BatchGet: two requests a round,
 *   however many contacts share the word (it was one Query per matching contact).
 * - Message words `C#<cid>#SW#<word>` / `T#<ticketId>`: one item per word and ticket: the ticket holds the word, and
 *   `s`, the text around the word in a message holding it, which the list shows for a ticket found by it (no read).
 *   Written in the message's own transaction (≤ 40 words, stop words and 1-letter words left out), only for the words
 *   the writer does not know the ticket to hold already (the runner knows its open ticket's words: `knownWords` in
 *   `writes.ts`); the items a message adds are measured by `npm run bench`. Edits and deletes add the new words and
 *   remove those no other message of the ticket holds (conditioned on `_sw`, the words stored on the message, and on
 *   the ticket's `rev`). A query reads the partition of its longest word, newest ticket first, so each ticket appears once.
 *
 * ## Pages
 * Ticket search: first the tickets whose contact matches (ticket grams, newest ticket first; queries with no indexable
 * token use the old prefix keys: contacts alphabetically, each contact's tickets newest first), then the tickets found
 * by message words (newest ticket first) whose contact did not match (checked on the ticket's `sumContact`); each kept only when
 * the caller's `accept` (access rule and list filters) says so. Pages hold `limit` tickets (40 in the API); a page reads
 * at most 8 index pages, so a rare match after many refused candidates may give a short page with a cursor. Cursors are
 * opaque and name their index partition, which must belong to the caller's company (else 400 `ERR_INVALID_CURSOR`).
 *
 * ## What a page reads
 * The candidates' rows (`tickets/row.ts`) are the page's one cost per ticket (a BatchGet key each), so a page reads only
 * as many as it can still show: all accepted, a page of 40 reads 40 rows beside its index Query. By message words, the
 * other tokens are checked before any row: one Query of each token's word partition over the candidates' id range,
 * then one of its ticket-gram partition over the range of those not holding the word (both `T#<ticketId>`; a Query
 * costs little per item, a BatchGet a key per ticket), so a candidate that holds none of them is never read; a range
 * longer than 200 items is checked by key.
 *
 * ## Data stored before the index
 * `backfill.ts` `backfillSearchIndex(companyId)` indexes a company's older contacts and messages: idempotent,
 * resumable (progress item `keys.searchBackfill`), bounded per run; walks by keys only.
 *
 * ## Another engine
 * None is built. An OpenSearch adapter would implement the same two methods (documents: contacts with name/email/number
 * n-grams; messages with ticketId, queueId, userId, status), push `accept`'s rules down as filters and answer with the
 * rows themselves (this adapter reads them by key, one BatchGet key per ticket); callers would not change.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetRaw } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { decodeCursor, encodeCursor, startKeyOf } from "../db/cursor.ts";
import { pagesFrom, queryPagesFrom } from "../db/query.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { batchGetContacts, queryContactsByName, queryContactsByNumber } from "../contacts/repository.ts";
import type { ContactItem } from "../contacts/schema.ts";
import { batchGetTickets, queryTicketIndex } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { summariesOf } from "../tickets/summaries.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { holdsWord } from "./writes.ts";
import { contactMatchesAll, gramOf, isIndexedWord, queryTokens, type ContactFields, type QueryToken } from "./tokens.ts";

/** The search engine behind `GET /api/contacts?searchParam=` and `GET /api/tickets?searchParam=`. */
export interface Search {
  /** Contacts matching `term` (see the module doc), `limit` per page, alphabetical. */
  contacts(companyId: number, term: string, opts: { limit: number; cursor?: string }): Promise<{ contacts: ContactItem[]; nextCursor?: string }>;
  /**
   * Tickets matching `term`, `limit` per page, each once; `accept` is the caller's rule (access and list filters):
   * refused tickets are skipped, not counted. `snippets`: for tickets found by a message word, the text around that
   * word in a message holding it (ticket id → text), carried by the index item itself (no read of the message).
   */
  tickets(
    companyId: number,
    term: string,
    opts: { limit: number; cursor?: string; accept: (t: TicketItem) => boolean },
  ): Promise<{ tickets: TicketItem[]; nextCursor?: string; snippets?: Map<number, string> }>;
}

type Key = Record<string, unknown>;
type Plan = { kind: "gram"; gram: string; toks: QueryToken[] } | { kind: "name"; prefix: string } | { kind: "number"; digits: string };

/** Rounds of index reads a page may take. */
const MAX_ROUNDS = 8;
/** Tickets read per matching contact (GSI4, newest first). */
const TICKETS_PER_CONTACT = 100;

/** How the contact side of a query is served: the longest token's gram, else the old prefix keys. */
function planOf(term: string, toks: QueryToken[]): Plan {
  const drivers = toks.filter((t) => gramOf(t) !== null).sort((a, b) => gramOf(b)!.length - gramOf(a)!.length || b.text.length - a.text.length);
  if (drivers.length) return { kind: "gram", gram: gramOf(drivers[0])!, toks };
  if (toks.length === 1 && toks[0].digits) return { kind: "number", digits: toks[0].text };
  return { kind: "name", prefix: normalizeName(term) };
}

/** True when the contact is one the plan lists. */
function contactListed(plan: Plan, c: ContactFields): boolean {
  if (plan.kind === "gram") return contactMatchesAll(c, plan.toks);
  if (plan.kind === "number") return (c.number ?? "").startsWith(plan.digits);
  return normalizeName(c.name).startsWith(plan.prefix);
}

/** The cursor key of a listed contact in the plan's index. */
function contactKey(plan: Plan, companyId: number, c: ContactItem, gramKey?: Key): Key {
  if (plan.kind === "gram") return gramKey!;
  const base = keys.contact(companyId, c.id);
  if (plan.kind === "number") return { ...base, ...keys.contactNumberIndex(companyId, c.number, c.id) };
  return { ...base, ...keys.contactNameIndex(companyId, normalizeName(c.name), c.id) };
}

/** Rejects a contact-side cursor key that is not in the plan's partition of this company. */
function checkContactKey(plan: Plan, companyId: number, k: unknown): Key | undefined {
  if (plan.kind === "gram") return startKeyOf(k, companyId, { pk: keys.searchGramPK(companyId, plan.gram) });
  return startKeyOf(k, companyId, {
    pk: keys.contactsIndexPK(companyId),
    index: plan.kind === "name" ? "GSI1" : "GSI2",
    pkPrefix: keys.contactPartitionPrefix(companyId),
  });
}

/** A listed contact: its id, its cursor key and (when asked for, or free) the contact. */
type Row = { contactId: number; key: Key; contact?: ContactItem };

/**
 * One read of the contact side from `start`: the listed contacts in index order with their cursor keys, and the
 * index's next start, `lastKey` (undefined when exhausted). Gram items carry the fields a query checks, so non-matching
 * candidates cost no read of the contact; `hydrate` reads the matching contacts (one BatchGet).
 */
async function readContacts(companyId: number, plan: Plan, start: Key | undefined, limit: number, hydrate: boolean): Promise<{ rows: Row[]; lastKey?: Key }> {
  if (plan.kind === "gram") {
    const out = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.searchGramPK(companyId, plan.gram) },
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    const rows: Row[] = (out.Items ?? [])
      .filter((it) => contactMatchesAll({ name: String(it.w ?? ""), number: String(it.d ?? "") }, plan.toks))
      .map((it) => ({ contactId: Number(it.contactId), key: { PK: it.PK, SK: it.SK } }));
    if (hydrate && rows.length) {
      const got = await batchGetContacts(companyId, rows.map((r) => r.contactId));
      return { rows: rows.filter((r) => (r.contact = got.get(r.contactId))), lastKey: out.LastEvaluatedKey };
    }
    return { rows, lastKey: out.LastEvaluatedKey };
  }
  const page =
    plan.kind === "number"
      ? await queryContactsByNumber(companyId, { digits: plan.digits, limit, startKey: start })
      : await queryContactsByName(companyId, { prefix: plan.prefix, limit, startKey: start });
  return { rows: page.items.map((c) => ({ contactId: c.id, contact: c, key: contactKey(plan, companyId, c) })), lastKey: page.lastKey };
}

type ContactsCursor = { k?: Key };
/** Ticket search cursor: phase `c` (contacts; `s` tickets of the contact after `k` already given) or `m` (message words). */
type TicketsCursor = { p: "c"; k?: Key; s?: number } | { p: "m"; k?: Key };

/** The message-side word a query is served by: its longest indexable token (null: the query has none). */
function wordOf(toks: QueryToken[]): string | null {
  const ws = toks.filter((t) => isIndexedWord(t.text)).sort((a, b) => b.text.length - a.text.length);
  return ws[0]?.text ?? null;
}

/** DynamoDB adapter of {@link Search} (see the module doc for the items it reads). */
export const search: Search = {
  async contacts(companyId, term, opts) {
    const toks = queryTokens(term);
    if (!toks.length) return { contacts: [] };
    const plan = planOf(term, toks);
    const cur = decodeCursor<ContactsCursor>(opts.cursor) ?? {};
    let start = checkContactKey(plan, companyId, cur.k);
    const out: ContactItem[] = [];
    // At most MAX_ROUNDS reads; a page that runs out of rounds resumes after the last contact index page read.
    const pages = pagesFrom((startKey, round) => (round < MAX_ROUNDS ? readContacts(companyId, plan, startKey, Math.max(opts.limit - out.length, 20), true) : null), start);
    for await (const r of pages) {
      for (const row of r.rows) {
        out.push(row.contact!);
        if (out.length === opts.limit) return { contacts: out, nextCursor: encodeCursor({ k: row.key }) };
      }
      if (!r.lastKey) return { contacts: out };
      start = r.lastKey;
    }
    return { contacts: out, nextCursor: encodeCursor({ k: start }) };
  },

  async tickets(companyId, term, opts) {
    const toks = queryTokens(term);
    if (!toks.length) return { tickets: [] };
    const plan = planOf(term, toks);
    const word = wordOf(toks);
    const raw = decodeCursor<TicketsCursor>(opts.cursor) ?? ({ p: "c" } as TicketsCursor);
    if (raw.p !== "c" && raw.p !== "m") throw new AppError("ERR_INVALID_CURSOR");
    const out: TicketItem[] = [];
    const snippets = new Map<number, string>();
    const done = (k: TicketsCursor) => ({ tickets: out, nextCursor: encodeCursor(k as unknown as Key), snippets });
    let rounds = 0;

    if (raw.p === "c" && plan.kind === "gram") {
      // The contact side in ONE partition: the ticket-side grams of the longest token (newest ticket first), checked
      // against every token on the item itself, then the candidate tickets in one BatchGet. Two requests per round,
      // however many contacts match.
      const pk = keys.searchTicketGramPK(companyId, plan.gram);
      let start = startKeyOf(raw.k, companyId, { pk });
      let spent = false;
      // A first round sized to the page; later rounds (many candidates refused) read more at once.
      const pages = queryPagesFrom(newestFirst(pk), start, () => {
        spent = rounds >= MAX_ROUNDS;
        return spent ? null : rounds++ === 0 ? Math.max(opts.limit - out.length, 10) + 5 : 100;
      });
      for await (const page of pages) {
        const hits = page.items.filter((it) => contactMatchesAll({ name: String(it.w ?? ""), number: String(it.d ?? "") }, plan.toks));
        for (const chunk of roomChunks(hits, () => opts.limit - out.length)) {
          const tickets = await batchGetTickets(companyId, chunk.map((it) => Number(it.ticketId)));
          for (const it of chunk) {
            const t = tickets.get(Number(it.ticketId));
            // A gram of a deleted ticket, or of a contact the ticket no longer belongs to, is skipped.
            if (!t || t.contactId !== Number(it.contactId) || !opts.accept(t)) continue;
            out.push(t);
            if (out.length === opts.limit) return done({ p: "c", k: { PK: it.PK, SK: it.SK } });
          }
        }
        start = page.lastKey;
      }
      if (spent) return done({ p: "c", k: start });
    } else if (raw.p === "c") {
      let skip = typeof raw.s === "number" && raw.s > 0 ? raw.s : 0;
      let last: Key | undefined = checkContactKey(plan, companyId, raw.k);
      let spent = false;
      const pages = pagesFrom((startKey) => {
        spent = rounds++ >= MAX_ROUNDS;
        return spent ? null : readContacts(companyId, plan, startKey, Math.max(opts.limit - out.length, 20), false);
      }, last);
      for await (const r of pages) {
        // The contacts' tickets, read for as many contacts at a time as the page still has room for.
        for (let from = 0; from < r.rows.length; ) {
          const batch = r.rows.slice(from, from + Math.max(opts.limit - out.length, 1));
          from += batch.length;
          const lists = await Promise.all(
            batch.map((row) => queryTicketIndex("GSI4", keys.contactTicketsPK(companyId, row.contactId), { limit: TICKETS_PER_CONTACT, skPrefix: keys.ticketEdgePrefix })),
          );
          for (let i = 0; i < batch.length; i++) {
            const accepted = lists[i].items.filter((t) => opts.accept(t));
            let given = 0;
            for (const t of accepted) {
              if (given++ < skip) continue;
              out.push(stripTicket(t));
              if (out.length === opts.limit) {
                // Page full: resume inside this contact, or after it.
                return given < accepted.length ? done({ p: "c", k: last, s: given }) : done({ p: "c", k: batch[i].key });
              }
            }
            skip = 0;
            last = batch[i].key;
          }
        }
        if (r.lastKey) last = r.lastKey;
      }
      if (spent) return done({ p: "c", k: last, s: skip });
    }

    if (!word) return { tickets: out };
    const pk = keys.searchWordPK(companyId, word);
    let start = raw.p === "m" ? startKeyOf(raw.k, companyId, { pk }) : undefined;
    const others = toks.filter((t) => t.text !== word);
    let spent = false;
    const pages = queryPagesFrom(newestFirst(pk), start, () => {
      spent = rounds++ >= MAX_ROUNDS;
      return spent ? null : Math.max(opts.limit - out.length, 10);
    });
    for await (const page of pages) {
      let hits = page.items.filter((it) => holdsWord(it));
      const ids = hits.map((it) => Number(it.ticketId));
      // Each other token, over the candidates' id range: the tickets whose messages hold it, and those whose contact
      // matches it (undefined: not read that way). Tickets failing a token both ways are not read at all.
      const passes = await Promise.all(others.map((tok) => tokenHolders(companyId, tok, ids)));
      hits = hits.filter((it) => passes.every((p) => !p.words || !p.contacts || p.words.has(Number(it.ticketId)) || p.contacts.has(Number(it.ticketId))));
      for (const chunk of roomChunks(hits, () => opts.limit - out.length)) {
        const chunkIds = chunk.map((it) => Number(it.ticketId));
        const tickets = await batchGetTickets(companyId, chunkIds);
        // The contact as the ticket's row summary holds it; read only for tickets stored without one.
        const contacts = new Map<number, ContactFields>();
        for (const t of tickets.values()) {
          const sc = summariesOf(t)?.contact;
          if (sc && sc.id === t.contactId) contacts.set(t.contactId, sc);
        }
        const unread = [...tickets.values()].map((t) => t.contactId).filter((id) => !contacts.has(id));
        if (unread.length) for (const [id, c] of await batchGetContacts(companyId, unread)) contacts.set(id, c);
        // Word items of the tokens whose partition range was too long to read: by key (one BatchGet).
        const wordKeys = others.flatMap((tok, i) => (isIndexedWord(tok.text) && !passes[i].words ? chunkIds.map((id) => keys.searchWord(companyId, tok.text, id)) : []));
        const wordItems = wordKeys.length ? await batchGetRaw(wordKeys) : new Map<string, Key>();
        const hasWord = (i: number, id: number) => {
          if (passes[i].words) return passes[i].words.has(id);
          const k = keys.searchWord(companyId, others[i].text, id);
          return holdsWord(wordItems.get(`${k.PK}|${k.SK}`));
        };
        for (const it of chunk) {
          const t = tickets.get(Number(it.ticketId));
          if (!t) continue; // a deleted ticket's words
          const c = contacts.get(t.contactId);
          if (c && contactListed(plan, c)) continue; // already given by the contact side
          // Other tokens: a word of the ticket's messages or a match on its contact.
          const ok = others.every((tok, i) => !isIndexedWord(tok.text) || hasWord(i, t.id) || !!passes[i].contacts?.has(t.id) || (c ? contactMatchesAll(c, [tok]) : false));
          if (!ok || !opts.accept(t)) continue;
          out.push(t);
          if (typeof it.s === "string" && it.s) snippets.set(t.id, it.s);
          if (out.length === opts.limit) return done({ p: "m", k: { PK: it.PK, SK: it.SK } });
        }
      }
      start = page.lastKey;
    }
    return spent ? done({ p: "m", k: start }) : { tickets: out, snippets };
  },
};

/** Items of an index partition read at most per token and page to learn which candidates hold the token. */
const RANGE_MAX = 200;
/** Fewest candidates read per BatchGet once the page is nearly full (a refused candidate then costs no lone read). */
const MIN_CHUNK = 10;

/**
 * `items` in consecutive chunks, each as long as the room the page still has (`room()`, asked before each chunk; at
 * least {@link MIN_CHUNK}): a page whose candidates are all accepted reads exactly as many tickets as it shows.
 */
function* roomChunks<T>(items: T[], room: () => number): Generator<T[]> {
  for (let from = 0; from < items.length; ) {
    const chunk = items.slice(from, from + Math.max(room(), MIN_CHUNK));
    from += chunk.length;
    yield chunk;
  }
}

/**
 * The ticket ids of index partition `pk` (items `T#<ticketId>`, newest first) between the smallest and largest of
 * `ids` that `keep` keeps, reading only `ticketId` and `attributes` (what `keep` checks) of each item: one Query of that
 * range (cheap per item, unlike a BatchGet per key), or undefined when the range holds more than {@link RANGE_MAX}
 * items (not read further).
 */
async function idsInRange(pk: string, ids: number[], keep: (it: Key) => boolean, attributes: string): Promise<Set<number> | undefined> {
  if (!ids.length) return new Set();
  // Word and ticket-gram items alike are keyed `T#<padded ticket id>`.
  const sk = keys.searchTicketSK;
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "PK = :pk AND SK BETWEEN :lo AND :hi",
      ExpressionAttributeValues: { ":pk": pk, ":lo": sk(Math.min(...ids)), ":hi": sk(Math.max(...ids)) },
      ProjectionExpression: `ticketId, ${attributes}`,
      ScanIndexForward: false,
      Limit: RANGE_MAX,
    }),
  );
  if (out.LastEvaluatedKey) return undefined;
  return new Set((out.Items ?? []).filter(keep).map((it) => Number(it.ticketId)));
}

/**
 * Which of the candidate tickets `ids` a query token other than the driving word holds: `words`, the tickets whose
 * messages hold it (its word partition); `contacts`, of the candidates not in `words`, those whose contact matches it
 * (its ticket-gram partition, checked on the gram items' fields as the contact side does; not read when every
 * candidate holds the word). Each undefined when not known that way (a token too short for grams, not an indexed
 * word, or a range too long to read): the caller then checks that way on the tickets.
 */
async function tokenHolders(companyId: number, tok: QueryToken, ids: number[]): Promise<{ words?: Set<number>; contacts?: Set<number> }> {
  if (!isIndexedWord(tok.text)) return {};
  const gram = gramOf(tok);
  const words = await idsInRange(keys.searchWordPK(companyId, tok.text), ids, holdsWord, "n");
  if (!gram) return { words };
  // The contact side only for the candidates the word side left: none left, nothing to read.
  const rest = words ? ids.filter((id) => !words.has(id)) : ids;
  const contacts = await idsInRange(keys.searchTicketGramPK(companyId, gram), rest, (it) => contactMatchesAll({ name: String(it.w ?? ""), number: String(it.d ?? "") }, [tok]), "w, d");
  return { words, contacts };
}

/** A ticket of `queryTicketIndex` as a plain ticket (its index position is not enumerable: nothing to strip). */
const stripTicket = (t: TicketItem): TicketItem => t;


/** The Query of index partition `pk`, newest first (paged by {@link queryPagesFrom}). */
function newestFirst(pk: string) {
  return { KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": pk }, ScanIndexForward: false };
}
