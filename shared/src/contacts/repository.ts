/**
 * Contacts in DynamoDB (docs/architecture.md#3-the-table): item `C#<cid>#CT#<id>`/`#CONTACT` with GSI1 (normalized name) and GSI2
 * (number digits) for listing and prefix search, plus uniqueness markers `C#<cid>#PHONE#<digits>` and
 * `C#<cid>#JID#<jid>` that hold `contactId`. Every key comes from `keys.ts`; every item read is parsed with `ContactItem`.
 */
import { counterFacts, outboxPut } from "../events/outbox.ts";
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetRaw, batchWriteAll, keyId } from "../db/batch.ts";
import { countQuery } from "../db/query.ts";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { ContactItem, PhoneBookEntry, type ReplyWait } from "./schema.ts";
import { normalizeName } from "./normalize.ts";
import { contactIndexWrites } from "../search/writes.ts";
import { parseStored } from "../db/items.ts";

/** The stored item for a contact: entity attributes plus its keys and index keys (number index only when it has digits). */
export function contactRecord(c: ContactItem): Record<string, unknown> {
  return {
    ...c,
    ...keys.contact(c.companyId, c.id),
    ...keys.contactNameIndex(c.companyId, normalizeName(c.name), c.id),
    ...(c.number ? keys.contactNumberIndex(c.companyId, c.number, c.id) : {}),
    _type: "contact",
  };
}

/** Parses a stored item (keys dropped). */
export const parseContact = (raw: Record<string, unknown>): ContactItem => parseStored(ContactItem, raw);

/** Reads one contact of the company, or null. */
export async function getContactItem(companyId: number, contactId: number, consistent = false): Promise<ContactItem | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.contact(companyId, contactId), ConsistentRead: consistent }));
  return out.Item ? parseContact(out.Item) : null;
}

/** Reads many contacts of the company in one batch; returns them by id (missing ids absent). */
export async function batchGetContacts(companyId: number, ids: number[]): Promise<Map<number, ContactItem>> {
  const raw = await batchGetRaw([...new Set(ids)].map((id) => keys.contact(companyId, id)));
  const out = new Map<number, ContactItem>();
  for (const it of raw.values()) {
    const c = parseContact(it);
    out.set(c.id, c);
  }
  return out;
}

/**
 * Reads contacts of any companies in batches (100 keys a request, e.g. the contacts of the scheduled messages a tick
 * claimed); returns them by `<companyId>#<contactId>` (missing ones absent). Each ref names its own company.
 */
export async function batchGetContactsOf(refs: { companyId: number; contactId: number }[]): Promise<Map<string, ContactItem>> {
  const raw = await batchGetRaw(refs.map((r) => keys.contact(r.companyId, r.contactId)));
  const out = new Map<string, ContactItem>();
  for (const it of raw.values()) {
    const c = parseContact(it);
    out.set(`${c.companyId}#${c.id}`, c);
  }
  return out;
}

/** A uniqueness marker: a phone (digits) or a JID. */
export type Marker = { kind: "phone"; value: string } | { kind: "jid"; value: string };

/** The key of a marker. */
export const markerKey = (companyId: number, m: Marker) =>
  m.kind === "phone" ? keys.contactPhone(companyId, m.value) : keys.contactJid(companyId, m.value);

/** Reads markers (strongly consistent); returns `contactId` by marker key id (`PK|SK`). */
export async function readMarkers(companyId: number, markers: Marker[]): Promise<Map<string, number>> {
  if (!markers.length) return new Map();
  const raw = await batchGetRaw(markers.map((m) => markerKey(companyId, m)), true);
  const out = new Map<string, number>();
  for (const [k, it] of raw) out.set(k, Number(it.contactId));
  return out;
}

/** The `contactId` a marker points to, or null. */
export async function readMarker(companyId: number, m: Marker): Promise<number | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: markerKey(companyId, m), ConsistentRead: true }));
  return out.Item ? Number(out.Item.contactId) : null;
}

/** The stored item of a contact's phone or JID marker. */
export const markerRecord = (companyId: number, contactId: number, m: Marker) => ({ ...markerKey(companyId, m), _type: m.kind === "phone" ? "contactPhone" : "contactJid", contactId });

const markerPut = (companyId: number, contactId: number, m: Marker) => ({
  Put: {
    TableName: tableName(),
    Item: markerRecord(companyId, contactId, m),
    ConditionExpression: "attribute_not_exists(PK)",
  },
});

/**
 * Creates the contact and all its markers in ONE transaction (each `attribute_not_exists`).
 * Throws the SDK's `TransactionCanceledException` when a marker already exists (index i+1 = markers[i]).
 */
export async function putContactWithMarkers(c: ContactItem, markers: Marker[]): Promise<void> {
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: contactRecord(c), ConditionExpression: "attribute_not_exists(PK)" } },
        ...markers.map((m) => markerPut(c.companyId, c.id, m)),
        ...outboxPut(counterFacts.contact(c)),
        ...contactIndexWrites(null, c),
      ],
    }),
  );
}

/**
 * Adds markers to an existing contact and writes its new state (jids/number/...) in one transaction.
 * `repoint` markers currently owned by another contact are moved (condition: still owned by `fromContactId`).
 * The contact write is conditioned on `prevUpdatedAt` (no lost update between two concurrent identity merges).
 * `extra`: more items of the same transaction (the pending runs of its `contact.updated`, `events/durable.ts`).
 * Throws `TransactionCanceledException` when a new marker appeared meanwhile.
 */
export async function addMarkersAndSave(
  c: ContactItem,
  prevUpdatedAt: string,
  add: Marker[],
  repoint: { marker: Marker; fromContactId: number }[] = [],
  extra: TxItem[] = [],
): Promise<void> {
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: contactRecord(c),
            ConditionExpression: "attribute_exists(PK) AND updatedAt = :prev",
            ExpressionAttributeValues: { ":prev": prevUpdatedAt },
          },
        },
        ...add.map((m) => markerPut(c.companyId, c.id, m)),
        ...repoint.map(({ marker, fromContactId }) => ({
          Put: {
            TableName: tableName(),
            Item: { ...markerKey(c.companyId, marker), _type: marker.kind === "phone" ? "contactPhone" : "contactJid", contactId: c.id },
            ConditionExpression: "contactId = :from",
            ExpressionAttributeValues: { ":from": fromContactId },
          },
        })),
        ...contactIndexWrites(null, c),
        ...extra,
      ],
    }),
  );
}

/**
 * Saves an edited contact; when the number changes, moves the phone marker in the same transaction
 * (Delete old marker if it is ours + Put new marker `attribute_not_exists`). Index 1 of the cancellation reasons
 * is the new marker when `newDigits` is given. Condition on `updatedAt` of the previous state (no lost update).
 * `extra`: more items of the same transaction, last (the pending runs of its `contact.updated`, `events/durable.ts`).
 */
export async function saveContact(prev: ContactItem, next: ContactItem, extra: TxItem[] = []): Promise<void> {
  const items: TxItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: contactRecord(next),
        ConditionExpression: "attribute_exists(PK) AND updatedAt = :prev",
        ExpressionAttributeValues: { ":prev": prev.updatedAt },
      },
    },
  ];
  if (prev.number !== next.number) {
    if (next.number) items.push(markerPut(next.companyId, next.id, { kind: "phone", value: next.number }));
    if (prev.number) {
      items.push({
        Delete: {
          TableName: tableName(),
          Key: keys.contactPhone(prev.companyId, prev.number),
          ConditionExpression: "attribute_not_exists(PK) OR contactId = :id",
          ExpressionAttributeValues: { ":id": prev.id },
        },
      });
    }
  }
  await ddb().send(new TransactWriteCommand({ TransactItems: [...items, ...contactIndexWrites(prev, next), ...extra] }));
}

/** Deletes a contact and the markers that still point to it, in one transaction with its counters' outbox item (`c.updatedAt`: the deletion time). */
export async function deleteContactWithMarkers(c: ContactItem): Promise<void> {
  const markers: Marker[] = [...(c.number ? [{ kind: "phone", value: c.number } as Marker] : []), ...c.jids.map((j) => ({ kind: "jid", value: j }) as Marker)];
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: keys.contact(c.companyId, c.id), ConditionExpression: "attribute_exists(PK)" } },
        ...markers.map((m) => ({
          Delete: {
            TableName: tableName(),
            Key: markerKey(c.companyId, m),
            ConditionExpression: "attribute_not_exists(PK) OR contactId = :id",
            ExpressionAttributeValues: { ":id": c.id },
          },
        })),
        ...contactIndexWrites(c, null),
        ...outboxPut(counterFacts.contactDeleted(c)), // it leaves the company's contacts count
      ],
    }),
  );
}

/** Deletes one marker if it still points to `contactId` (best-effort cleanup). */
export async function deleteMarkerIfOwned(companyId: number, m: Marker, contactId: number): Promise<void> {
  await ddb()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: markerKey(companyId, m),
        ConditionExpression: "contactId = :id",
        ExpressionAttributeValues: { ":id": contactId },
      }),
    )
    .catch(() => undefined);
}

/** Sets a few attributes of a contact without touching its keys (presence, profile picture, lastInteractionAt). */
export async function patchContact(companyId: number, contactId: number, patch: Partial<Pick<ContactItem, "presence" | "profilePicUrl" | "lastInteractionAt" | "active">>): Promise<ContactItem | null> {
  const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
  if (!entries.length) return getContactItem(companyId, contactId);
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.contact(companyId, contactId),
        UpdateExpression: `SET ${entries.map((_e, i) => `#k${i} = :v${i}`).join(", ")}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#k${i}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
        ConditionExpression: "attribute_exists(PK)",
        ReturnValues: "ALL_NEW",
      }),
    );
    return out.Attributes ? parseContact(out.Attributes) : null;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return null;
    throw err;
  }
}

/**
 * The transaction action marking `wait` on the contact for connection `whatsappId` (`campaignWaits`, read by the
 * ingest with the contact it resolves anyway: docs/product/campaigns.md#replies), written in the same transaction as
 * the campaign shipping that waits. Replaces an older wait of that connection; leaves `updatedAt` alone. `mapExists`
 * chooses the form: set the connection's entry in the map, or create the map holding it; a wrong guess fails the
 * action's condition (as does a contact that is gone), so the caller retries with the other form.
 */
export function contactReplyWaitAction(companyId: number, contactId: number, whatsappId: number, wait: ReplyWait, mapExists: boolean): TxItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.contact(companyId, contactId),
      ...(mapExists
        ? {
            UpdateExpression: "SET campaignWaits.#w = :w",
            ConditionExpression: "attribute_exists(PK) AND attribute_exists(campaignWaits)",
            ExpressionAttributeNames: { "#w": String(whatsappId) },
            ExpressionAttributeValues: { ":w": wait },
          }
        : {
            UpdateExpression: "SET campaignWaits = :m",
            ConditionExpression: "attribute_exists(PK) AND attribute_not_exists(campaignWaits)",
            ExpressionAttributeValues: { ":m": { [String(whatsappId)]: wait } },
          }),
    },
  };
}

/** Clears the contact's wait on connection `whatsappId` when it is still `wait` (a newer wait stays). */
export async function clearContactReplyWait(companyId: number, contactId: number, whatsappId: number, wait: ReplyWait): Promise<void> {
  await ddb()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.contact(companyId, contactId),
        UpdateExpression: "REMOVE campaignWaits.#w",
        ConditionExpression: "campaignWaits.#w.campaignId = :c AND campaignWaits.#w.seq = :s",
        ExpressionAttributeNames: { "#w": String(whatsappId) },
        ExpressionAttributeValues: { ":c": wait.campaignId, ":s": wait.seq },
      }),
    )
    .catch((err: Error) => {
      if (err.name !== "ConditionalCheckFailedException") throw err;
    });
}

/**
 * Moves a contact's `lastInteractionAt` (ISO) forward to `at` (docs/product/contacts.md#last-interaction):
 * one conditional UpdateItem that succeeds only when the stored time is unset or more than `stepMs`
 * (ms, default 60 s) older, so a burst of messages costs one write a minute (and, known here, no call in between). `updatedAt` is left alone (it guards the
 * contact's own edits). Returns the new contact, or null when nothing changed (recent enough, or no such contact).
 */
export async function touchLastInteraction(companyId: number, contactId: number, at: string, stepMs = 60_000): Promise<ContactItem | null> {
  const before = new Date(Date.parse(at) - stepMs).toISOString();
  const memo = `${companyId}|${contactId}`;
  // The stored time only moves forward: when it is known to be at least `before`, the condition below would refuse.
  const known = knownInteraction.get(memo);
  if (known && known >= before) return null;
  const remember = (value: unknown) => {
    if (typeof value !== "string") return;
    if (knownInteraction.size >= 10_000) knownInteraction.clear();
    if (!knownInteraction.has(memo) || knownInteraction.get(memo)! < value) knownInteraction.set(memo, value);
  };
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.contact(companyId, contactId),
        UpdateExpression: "SET #at = :at",
        ConditionExpression: "attribute_exists(PK) AND (attribute_not_exists(#at) OR attribute_type(#at, :null) OR #at < :before)",
        ExpressionAttributeNames: { "#at": "lastInteractionAt" },
        ExpressionAttributeValues: { ":at": at, ":before": before, ":null": "NULL" },
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    remember(at);
    return out.Attributes ? parseContact(out.Attributes) : null;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") {
      // The old item comes back raw (`{S: "…"}`): the document client does not convert error payloads.
      const old = (err as { Item?: Record<string, { S?: string } | string | undefined> }).Item?.lastInteractionAt;
      remember(typeof old === "object" ? old?.S : old);
      return null;
    }
    throw err;
  }
}

/**
 * Per process: a time each contact's stored `lastInteractionAt` is known to be at or after (it never moves back), so
 * {@link touchLastInteraction} skips the write its condition would refuse (for the ingest rate: one call a minute per
 * contact instead of one per message).
 */
const knownInteraction = new Map<string, string>();

/** One page of an index query over the company's contacts. */
export interface ContactPage {
  items: ContactItem[];
  lastKey?: Record<string, unknown>;
}

/**
 * Contacts ordered by normalized name (GSI1), optionally only those whose normalized name starts with `prefix`
 * (already normalized). `Limit` items from `startKey`.
 */
export async function queryContactsByName(companyId: number, opts: { prefix?: string; limit: number; startKey?: Record<string, unknown> }): Promise<ContactPage> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: "GSI1",
      KeyConditionExpression: "GSI1PK = :pk AND begins_with(GSI1SK, :p)",
      ExpressionAttributeValues: { ":pk": keys.contactsIndexPK(companyId), ":p": keys.contactNamePrefix(opts.prefix ?? "") },
      Limit: opts.limit,
      ExclusiveStartKey: opts.startKey,
    }),
  );
  return { items: (out.Items ?? []).map(parseContact), lastKey: out.LastEvaluatedKey };
}

/** Contacts whose number starts with `digits` (GSI2), ordered by number. */
export async function queryContactsByNumber(companyId: number, opts: { digits: string; limit: number; startKey?: Record<string, unknown> }): Promise<ContactPage> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: "GSI2",
      KeyConditionExpression: "GSI2PK = :pk AND begins_with(GSI2SK, :p)",
      ExpressionAttributeValues: { ":pk": keys.contactsIndexPK(companyId), ":p": keys.contactNumberPrefix(opts.digits) },
      Limit: opts.limit,
      ExclusiveStartKey: opts.startKey,
    }),
  );
  return { items: (out.Items ?? []).map(parseContact), lastKey: out.LastEvaluatedKey };
}

export { keyId };

// ---- a connection's phone book -------------------------------------------------------------------

/** Stores phone book entries of connection `whatsappId` (BatchWriteItem, 25 a call; an entry replaces the one of its JID). */
export async function putPhoneBookEntries(companyId: number, whatsappId: number, entries: PhoneBookEntry[]): Promise<void> {
  await batchWriteAll(entries.map((e) => ({ PutRequest: { Item: { ...keys.phoneBookEntry(companyId, whatsappId, e.jid), _type: "phoneBookEntry", ...e } } })));
}

/** How many entries the connection's phone book holds (a COUNT query). */
export function countPhoneBook(companyId: number, whatsappId: number): Promise<number> {
  return countQuery({ KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": keys.phoneBookPartition(companyId, whatsappId) } });
}

/** One page of at most `limit` phone book entries from `startKey`, with the key the next page starts at. */
export async function phoneBookPage(
  companyId: number,
  whatsappId: number,
  opts: { limit: number; startKey?: Record<string, unknown> },
): Promise<{ entries: PhoneBookEntry[]; lastKey?: Record<string, unknown> }> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "PK = :pk",
      ExpressionAttributeValues: { ":pk": keys.phoneBookPartition(companyId, whatsappId) },
      Limit: opts.limit,
      ExclusiveStartKey: opts.startKey,
    }),
  );
  return { entries: (out.Items ?? []).map((it) => parseStored(PhoneBookEntry, it)), lastKey: out.LastEvaluatedKey };
}
