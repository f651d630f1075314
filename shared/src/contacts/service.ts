/**
 * Contact rules (docs/product/contacts.md; the create-contact write with its uniqueness markers, docs/architecture.md#3-the-table).
 *
 * - {@link findOrCreateContactByIdentity}: the ingest path (WhatsApp JIDs + phone digits → one contact per person).
 * - {@link createContact} / {@link updateContact} / {@link deleteContact}: the Contacts page (`ERR_DUPLICATED_CONTACT` via the phone marker).
 * - {@link listContacts}: `GET /api/contacts` (search through the `Search` port of `search/index.ts`, cursors).
 * Every change publishes `company-{id}-contact` `{action, contact}` (delete: `{action:"delete", contactId}`).
 */
import { randomUUID } from "node:crypto";
import { laterIso, nowIso } from "../common.ts";
import { decodeCursor, encodeCursor, startKeyOf } from "../db/cursor.ts";
import { nextId, readCurrentCounts } from "../db/counters.ts";
import { cancellationReasons, isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { pendingRunPuts } from "../events/durable.ts";
import "./events.ts";
import { search } from "../search/index.ts";
import { digitsOf, looksLikeNumber, normalizeName } from "./normalize.ts";
import {
  addMarkersAndSave,
  batchGetContacts,
  deleteContactWithMarkers,
  deleteMarkerIfOwned,
  getContactItem,
  markerKey,
  putContactWithMarkers,
  queryContactsByName,
  queryContactsByNumber,
  readMarker,
  readMarkers,
  saveContact,
  type Marker,
} from "./repository.ts";
import { type ContactBody, ContactItem } from "./schema.ts";

export { laterIso } from "../common.ts";

export { contactView } from "./views.ts";

/** `user:device@server` → `user@server` (a device suffix never identifies a different person). */
export function normalizeJid(jid: string): string {
  return jid.trim().replace(/:\d+@/, "@");
}

export interface ContactIdentity {
  /** WhatsApp JIDs of the person or group: `5511...@s.whatsapp.net`, `...@lid`, `...@g.us`. */
  jids: string[];
  /** Digits only with country code (E.164 without `+`); for groups the group id digits. */
  number?: string;
  name: string;
  isGroup: boolean;
  profilePicUrl?: string;
}

/**
 * Finds the company's contact for a WhatsApp identity, creating it when unknown (its JID and phone markers keep it unique).
 *
 * Looks up every JID marker and the phone marker. None → creates the contact (name from `name`, else the number)
 * with all markers in ONE transaction. Found → adds the markers still missing (a LID learnt for a known phone, or the
 * reverse). When markers point to two different contacts, the older contact wins: the younger one's markers are
 * re-pointed to it (its tickets are NOT moved; it stays readable). Race-safe: a lost transaction re-reads and converges,
 * so concurrent calls for a new person yield one contact. Publishes `contact` `create` on creation, `update` when
 * markers/number/picture changed. Throws `ERR_VALIDATION` (400) when the identity has neither a JID nor a number.
 */
export async function findOrCreateContactByIdentity(companyId: number, identity: ContactIdentity): Promise<ContactItem> {
  const jids = [...new Set(identity.jids.map(normalizeJid).filter(Boolean))];
  const number = identity.number ? digitsOf(identity.number) : "";
  const markers: Marker[] = [...jids.map((j) => ({ kind: "jid", value: j }) as Marker), ...(number ? [{ kind: "phone", value: number } as Marker] : [])];
  if (!markers.length) throw new AppError("ERR_VALIDATION");

  for (let attempt = 0; attempt < 8; attempt++) {
    const found = await readMarkers(companyId, markers);
    const ids = [...new Set(found.values())];

    if (!ids.length) {
      const now = nowIso();
      const id = await nextId(companyId, "contact");
      const contact = ContactItem.parse({
        id,
        companyId,
        uuid: randomUUID(),
        name: identity.name?.trim() || number || jids[0].split("@")[0],
        number,
        profilePicUrl: identity.profilePicUrl ?? "",
        isGroup: identity.isGroup,
        jids,
        createdAt: now,
        updatedAt: now,
      });
      try {
        await putContactWithMarkers(contact, markers);
      } catch (err) {
        if (cancellationReasons(err)) {
          await backoff(attempt);
          continue; // someone else created it (or part of it): re-read the winner
        }
        throw err;
      }
      await dispatch({ type: "contact.created", companyId, contact: contact });
      return contact;
    }

    const contacts = await Promise.all(ids.map((id) => getContactItem(companyId, id, true)));
    const live = contacts.filter((c): c is ContactItem => !!c);
    if (live.length < ids.length) {
      // Stale markers of a deleted contact: drop them and look again.
      const dead = new Set(ids.filter((id) => !live.some((c) => c.id === id)));
      await Promise.all(
        markers
          .filter((m) => dead.has(found.get(keyOf(companyId, m)) ?? -1))
          .map((m) => deleteMarkerIfOwned(companyId, m, found.get(keyOf(companyId, m))!)),
      );
      continue;
    }
    live.sort((a, b) => (a.createdAt === b.createdAt ? a.id - b.id : a.createdAt < b.createdAt ? -1 : 1));
    const winner = live[0];
    const missing = markers.filter((m) => !found.has(keyOf(companyId, m)));
    const repoint = markers
      .filter((m) => {
        const owner = found.get(keyOf(companyId, m));
        return owner != null && owner !== winner.id;
      })
      .map((m) => ({ marker: m, fromContactId: found.get(keyOf(companyId, m))! }));
    // Markers of the losing contacts that this identity did not name also move to the winner.
    for (const loser of live.slice(1)) {
      const theirs: Marker[] = [...(loser.number ? [{ kind: "phone", value: loser.number } as Marker] : []), ...loser.jids.map((j) => ({ kind: "jid", value: j }) as Marker)];
      for (const m of theirs) {
        if (!repoint.some((r) => keyOf(companyId, r.marker) === keyOf(companyId, m)) && !markers.some((x) => keyOf(companyId, x) === keyOf(companyId, m))) {
          repoint.push({ marker: m, fromContactId: loser.id });
        }
      }
    }
    const movedJids = repoint.filter((r) => r.marker.kind === "jid").map((r) => r.marker.value);
    const nextJids = [...new Set([...winner.jids, ...jids, ...movedJids])];
    const nextNumber = winner.number || number;
    const nextPic = identity.profilePicUrl && identity.profilePicUrl !== winner.profilePicUrl ? identity.profilePicUrl : winner.profilePicUrl;
    const changed = missing.length > 0 || repoint.length > 0 || nextJids.length !== winner.jids.length || nextNumber !== winner.number || nextPic !== winner.profilePicUrl;
    if (!changed) return winner;
    const next: ContactItem = { ...winner, jids: nextJids, number: nextNumber, profilePicUrl: nextPic, updatedAt: laterIso(winner.updatedAt) };
    // A marker whose value equals the winner's own number must not be "added" twice (already covered by found).
    const event = { type: "contact.updated", companyId, contact: next } as const;
    try {
      await addMarkersAndSave(next, winner.updatedAt, missing, repoint, pendingRunPuts(event));
    } catch (err) {
      if (cancellationReasons(err)) {
        await backoff(attempt);
        continue;
      }
      throw err;
    }
    await dispatch(event);
    return next;
  }
  throw new AppError("ERR_CONFLICT");
}

const keyOf = (companyId: number, m: Marker) => {
  const k = markerKey(companyId, m);
  return `${k.PK}|${k.SK}`;
};

const backoff = (attempt: number) => new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));

/** Reads a contact of the caller's company; 404 `ERR_NO_CONTACT_FOUND` when absent (other companies' ids included). */
export async function getContact(companyId: number, contactId: number): Promise<ContactItem> {
  const c = await getContactItem(companyId, contactId);
  if (!c) throw new AppError("ERR_NO_CONTACT_FOUND");
  return c;
}

/** Reads many contacts at once (ticket lists, message views). */
export { batchGetContacts };

/** The contact id that owns a phone number (digits), or null. */
export async function findContactIdByNumber(companyId: number, number: string): Promise<number | null> {
  const digits = digitsOf(number);
  if (!digits) return null;
  return readMarker(companyId, { kind: "phone", value: digits });
}

function withExtraInfoIds(extra: ContactInput["extraInfo"]): ContactItem["extraInfo"] {
  let max = Math.max(0, ...extra.map((e) => e.id ?? 0));
  return extra.map((e) => ({ id: e.id ?? ++max, name: e.name, value: e.value }));
}

export type ContactInput = import("zod").infer<typeof ContactBody>;

function requireDigits(number: string): string {
  const digits = digitsOf(number);
  if (digits.length < 8 || digits.length > 20) {
    throw new AppError("ERR_VALIDATION", { fields: [{ path: "number", message: digits.length < 8 ? "Too Short!" : "Too Long!" }] });
  }
  return digits;
}

/**
 * Creates a contact from the Contacts page (docs/product/contacts.md#fields): number stored as digits; 409 `ERR_DUPLICATED_CONTACT`
 * when the company already has that number. Publishes `contact` `create`.
 */
export async function createContact(companyId: number, input: ContactInput): Promise<ContactItem> {
  const digits = requireDigits(input.number);
  // Checked before the id counter (a refused contact takes no id); the phone marker still settles a race.
  if (await findContactIdByNumber(companyId, digits)) throw new AppError("ERR_DUPLICATED_CONTACT");
  const now = nowIso();
  const contact = ContactItem.parse({
    id: await nextId(companyId, "contact"),
    companyId,
    uuid: randomUUID(),
    name: input.name,
    number: digits,
    email: input.email ?? "",
    disableBot: input.disableBot ?? false,
    extraInfo: withExtraInfoIds(input.extraInfo ?? []),
    createdAt: now,
    updatedAt: now,
  });
  try {
    await putContactWithMarkers(contact, [{ kind: "phone", value: digits }]);
  } catch (err) {
    if (cancellationReasons(err)?.[1]?.Code === "ConditionalCheckFailed") throw new AppError("ERR_DUPLICATED_CONTACT");
    throw err;
  }
  await dispatch({ type: "contact.created", companyId, contact: contact });
  return contact;
}

/**
 * Edits a contact (name, number, email, disableBot, extraInfo; the ingest also sets profilePicUrl). A new number moves the phone marker in the same
 * transaction; 409 `ERR_DUPLICATED_CONTACT` when another contact has it; 404 `ERR_NO_CONTACT_FOUND`. Publishes `update`.
 */
export async function updateContact(companyId: number, contactId: number, input: Partial<ContactInput> & { profilePicUrl?: string }): Promise<ContactItem> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const prev = await getContact(companyId, contactId);
    const next: ContactItem = {
      ...prev,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.number !== undefined ? { number: requireDigits(input.number) } : {}),
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.disableBot !== undefined ? { disableBot: input.disableBot } : {}),
      ...(input.extraInfo !== undefined ? { extraInfo: withExtraInfoIds(input.extraInfo) } : {}),
      ...(input.profilePicUrl !== undefined ? { profilePicUrl: input.profilePicUrl } : {}),
      updatedAt: laterIso(prev.updatedAt),
    };
    const event = { type: "contact.updated", companyId, contact: next } as const;
    try {
      await saveContact(prev, next, pendingRunPuts(event));
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (reasons?.[1]?.Code === "ConditionalCheckFailed" && prev.number !== next.number) throw new AppError("ERR_DUPLICATED_CONTACT");
      if (reasons?.[0]?.Code === "ConditionalCheckFailed" || reasons?.some((r) => r.Code === "TransactionConflict")) continue;
      throw err;
    }
    await dispatch(event);
    return next;
  }
  throw new AppError("ERR_CONFLICT");
}

/** Deletes a contact and its markers (admin: permission `contacts-page:deleteContact`). Its tickets stay. Publishes `delete`. */
export async function deleteContact(companyId: number, contactId: number): Promise<void> {
  const read = await getContact(companyId, contactId);
  const c = { ...read, updatedAt: laterIso(read.updatedAt) }; // the deletion time (the contacts count's fact)
  try {
    await deleteContactWithMarkers(c);
  } catch (err) {
    if (cancellationReasons(err)?.[0]?.Code === "ConditionalCheckFailed" || isConditionFailed(err)) throw new AppError("ERR_NO_CONTACT_FOUND");
    throw err;
  }
  await dispatch({ type: "contact.deleted", companyId, contact: c });
}

// ---------------------------------------------------------------------------------------------
// Listing and search

/** Cursor of a contact listing: the last key of each source (`null` = source exhausted). */
type ContactCursor = { n?: Record<string, unknown> | null; p?: Record<string, unknown> | null };

/**
 * The Contacts page's listing: `term` is raw user text (searched through the `Search` port of `search/index.ts`, which
 * OpenSearch can serve later); an empty term lists by name.
 */
export interface ContactSearch {
  search(companyId: number, term: string, opts: { limit: number; cursor?: string }): Promise<{ contacts: ContactItem[]; nextCursor?: string }>;
}

/** The cursor's start keys rebuilt in this company's name (GSI1) and number (GSI2) listings; else 400 `ERR_INVALID_CURSOR`. */
function checkCursorPartition(companyId: number, raw: Record<string, unknown>): ContactCursor {
  const place = (index: "GSI1" | "GSI2") => ({ pk: keys.contactsIndexPK(companyId), index, pkPrefix: keys.contactPartitionPrefix(companyId) });
  const own = (k: unknown, index: "GSI1" | "GSI2") => (k === null ? null : startKeyOf(k, companyId, place(index)));
  const extra = Object.keys(raw).some((k) => k !== "n" && k !== "p");
  if (extra) throw new AppError("ERR_INVALID_CURSOR");
  return { n: own(raw.n, "GSI1"), p: own(raw.p, "GSI2") };
}

/**
 * {@link ContactSearch} as the Contacts page uses it: a search text goes to the `Search` port (`search/index.ts`: name
 * and email words by prefix, number fragments of ≥ 4 digits, accent- and case-insensitive, alphabetical); an empty text
 * lists every contact by normalized name over GSI1.
 */
export const contactSearch: ContactSearch = {
  async search(companyId, term, opts) {
    if (term.trim()) return search.contacts(companyId, term, opts);
    const cur = checkCursorPartition(companyId, decodeCursor<Record<string, unknown>>(opts.cursor) ?? {});
    const name = normalizeName(term);
    const digits = looksLikeNumber(term) ? digitsOf(term) : "";
    const out: ContactItem[] = [];
    const next: ContactCursor = {};
    // Source 1: names.
    if (cur.n !== null) {
      const page = await queryContactsByName(companyId, { prefix: name, limit: opts.limit, startKey: cur.n ?? undefined });
      out.push(...page.items);
      next.n = page.lastKey ?? null;
    } else next.n = null;
    // Source 2: numbers (only once names are exhausted, so pages stay ordered and cursors exact).
    if (digits && next.n === null && out.length < opts.limit && cur.p !== null) {
      const page = await queryContactsByNumber(companyId, { digits, limit: opts.limit - out.length, startKey: cur.p ?? undefined });
      for (const c of page.items) if (!out.some((x) => x.id === c.id)) out.push(c);
      next.p = page.lastKey ?? null;
    } else if (!digits) next.p = null;
    else next.p = cur.p === null ? null : (cur.p ?? undefined);
    const done = next.n === null && next.p === null;
    return { contacts: out, nextCursor: done ? undefined : encodeCursor(next as Record<string, unknown>) };
  },
};

/**
 * `GET /api/contacts`: 20 per page by name; `searchParam` of 3+ characters searches name and email words (prefix) and
 * number fragments (see `search/index.ts`).
 * Accepts an opaque `cursor`; with only `pageNumber` walks pages server-side (at most 50).
 * Returns `{contacts, count, hasMore, nextCursor}`: without a search `count` is the company's number of contacts (its
 * counter item, docs/product/contacts.md#total), with one the number found up to and including this page.
 */
export async function listContacts(
  companyId: number,
  opts: { searchParam?: string; pageNumber?: number; cursor?: string; limit?: number },
): Promise<{ contacts: ContactItem[]; count: number; hasMore: boolean; nextCursor?: string }> {
  const limit = opts.limit ?? 20;
  const term = opts.searchParam && opts.searchParam.trim().length >= 3 ? opts.searchParam.trim() : "";
  let cursor = opts.cursor;
  let skipped = 0;
  if (!cursor && (opts.pageNumber ?? 1) > 1) {
    const pages = Math.min((opts.pageNumber ?? 1) - 1, 50);
    for (let i = 0; i < pages; i++) {
      const p = await contactSearch.search(companyId, term, { limit, cursor });
      skipped += p.contacts.length;
      cursor = p.nextCursor;
      if (!cursor) return { contacts: [], count: skipped, hasMore: false };
    }
  }
  const [page, total] = await Promise.all([contactSearch.search(companyId, term, { limit, cursor }), term ? null : readCurrentCounts(companyId)]);
  const seen = skipped + page.contacts.length;
  return { contacts: page.contacts, count: total ? Math.max(total.contacts, seen) : seen, hasMore: !!page.nextCursor, nextCursor: page.nextCursor };
}
