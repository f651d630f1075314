/**
 * Contact lists in DynamoDB (docs/architecture.md §3): the list `C#<cid>` / `CLIST#<id>` with its exact
 * `contactsCount`; the list's own partition `C#<cid>#CLIST#<listId>` with one item `CLI#<id>` and one number marker
 * `NUM#<digits>` per person; the id → list ref `C#<cid>#CLITEM#<id>`. Every write that adds or removes an item moves
 * `contactsCount` in the same transaction, so the count is always the number of items.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName, transactWrite, type TxItem } from "../db/client.ts";
import { appliedUnlessChanged, failedConditionAt, isConditionFailed, withConflictRetry } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { batchGetRaw, batchWriteAll } from "../db/batch.ts";
import { queryAllByPrefix, queryPagesFrom } from "../db/query.ts";
import { AppError } from "../errors.ts";
import "./errors.ts";
import { ContactListItemRow, ContactListRow } from "./schema.ts";

const T = () => tableName();

/** One contact list of the company (strongly consistent), or `undefined`. */
export async function getContactList(companyId: number, id: number): Promise<ContactListRow | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: T(), Key: keys.contactList(companyId, id), ConsistentRead: true }));
  return out.Item ? parseStored(ContactListRow, out.Item) : undefined;
}

/** Every contact list of the company, in id order (strongly consistent). */
export async function listContactLists(companyId: number): Promise<ContactListRow[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.contactListPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(ContactListRow, it));
}

/** Writes a new contact list (its id must be fresh). */
export async function putNewContactList(row: ContactListRow): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: T(), Item: { ...keys.contactList(row.companyId, row.id), _type: "contactList", ...row }, ConditionExpression: "attribute_not_exists(PK)" }),
  );
}

/** Renames a list; the list as stored after it, or null when it is gone. */
export async function renameContactList(companyId: number, id: number, name: string, now: string): Promise<ContactListRow | null> {
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: T(),
        Key: keys.contactList(companyId, id),
        UpdateExpression: "SET #n = :n, updatedAt = :u",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: { "#n": "name" },
        ExpressionAttributeValues: { ":n": name, ":u": now },
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseStored(ContactListRow, out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}

/** Deletes the list item (false when already gone), then every item, marker and ref of its partition. */
export async function deleteContactListAll(companyId: number, id: number): Promise<boolean> {
  const gone = await appliedUnlessChanged(() =>
    ddb().send(new DeleteCommand({ TableName: T(), Key: keys.contactList(companyId, id), ConditionExpression: "attribute_exists(PK)" })),
  );
  if (!gone) return false;
  const pk = keys.contactListItemsPK(companyId, id);
  for await (const page of queryPagesFrom({ KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": pk }, ProjectionExpression: "PK, SK, id" }, undefined, () => 500)) {
    const deletes = page.items.flatMap((it) => {
      const own = { DeleteRequest: { Key: { PK: it.PK as string, SK: it.SK as string } } };
      const isItem = String(it.SK).startsWith(keys.contactListItemPrefix);
      return isItem ? [own, { DeleteRequest: { Key: keys.contactListItemRef(companyId, Number(it.id)) } }] : [own];
    });
    await batchWriteAll(deletes);
  }
  return true;
}

/** The list an item id belongs to (from its ref), or undefined. */
export async function listOfItem(companyId: number, itemId: number): Promise<number | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: T(), Key: keys.contactListItemRef(companyId, itemId), ConsistentRead: true }));
  return out.Item ? Number(out.Item.contactListId) : undefined;
}

/** One item of a list (strongly consistent), or undefined. */
export async function getContactListItem(companyId: number, contactListId: number, id: number): Promise<ContactListItemRow | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: T(), Key: keys.contactListItem(companyId, contactListId, id), ConsistentRead: true }));
  return out.Item ? parseStored(ContactListItemRow, out.Item) : undefined;
}

/** Every item of a list, in id order (strongly consistent). */
export async function listContactListItems(companyId: number, contactListId: number): Promise<ContactListItemRow[]> {
  const raw = await queryAllByPrefix(keys.contactListItemsPK(companyId, contactListId), keys.contactListItemPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(ContactListItemRow, it));
}

/**
 * The items of a list in id order, page by page (`pageSize` items per read, strongly consistent): a list of any size
 * read without holding it whole.
 */
export async function* contactListItemPages(companyId: number, contactListId: number, pageSize: number): AsyncGenerator<ContactListItemRow[]> {
  const input = {
    KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
    ExpressionAttributeValues: { ":pk": keys.contactListItemsPK(companyId, contactListId), ":sk": keys.contactListItemPrefix },
    ConsistentRead: true,
  };
  for await (const page of queryPagesFrom(input, undefined, () => pageSize)) {
    if (page.items.length) yield page.items.map((it) => parseStored(ContactListItemRow, it));
  }
}

type Condition = { ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> };
const itemRecord = (row: ContactListItemRow) => ({ ...keys.contactListItem(row.companyId, row.contactListId, row.id), _type: "contactListItem", ...row });
const itemPut = (row: ContactListItemRow, condition?: Condition): TxItem => ({
  Put: { TableName: T(), Item: itemRecord(row), ...condition },
});
const markerPut = (row: ContactListItemRow): TxItem => ({
  Put: { TableName: T(), Item: { ...keys.contactListNumber(row.companyId, row.contactListId, row.number), itemId: row.id }, ConditionExpression: "attribute_not_exists(PK)" },
});
const refPut = (row: ContactListItemRow): TxItem => ({
  Put: { TableName: T(), Item: { ...keys.contactListItemRef(row.companyId, row.id), contactListId: row.contactListId } },
});
const countMove = (companyId: number, contactListId: number, by: number, now: string): TxItem => ({
  Update: {
    TableName: T(),
    Key: keys.contactList(companyId, contactListId),
    UpdateExpression: "ADD contactsCount :by SET updatedAt = :u",
    ConditionExpression: "attribute_exists(PK)",
    ExpressionAttributeValues: { ":by": by, ":u": now },
  },
});
const unchanged = (before: ContactListItemRow): Condition => ({ ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } });

/**
 * Adds one item: the item, its number marker, its ref and the list's count + 1, in one transaction.
 * @throws AppError `ERR_CONTACT_LIST_ITEM_DUPLICATED` when the list holds the number, `ERR_NO_CONTACT_LIST_FOUND` when the list is gone.
 */
export async function addContactListItem(row: ContactListItemRow): Promise<void> {
  try {
    await transactWrite([
      itemPut(row, { ConditionExpression: "attribute_not_exists(PK)" }),
      markerPut(row),
      refPut(row),
      countMove(row.companyId, row.contactListId, 1, row.updatedAt),
    ]);
  } catch (err) {
    if (failedConditionAt(err, 1)) throw new AppError("ERR_CONTACT_LIST_ITEM_DUPLICATED");
    if (failedConditionAt(err, 3)) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
    throw err;
  }
}

/**
 * Replaces an item with `after` (moving its number marker when the number changed); false when it changed since
 * `before` was read. @throws AppError `ERR_CONTACT_LIST_ITEM_DUPLICATED` when the new number is taken in the list.
 */
export async function replaceContactListItem(before: ContactListItemRow, after: ContactListItemRow): Promise<boolean> {
  if (before.number === after.number) return appliedUnlessChanged(() => ddb().send(new PutCommand({ TableName: T(), Item: itemRecord(after), ...unchanged(before) })));
  try {
    await transactWrite([
      itemPut(after, unchanged(before)),
      markerPut(after),
      { Delete: { TableName: T(), Key: keys.contactListNumber(before.companyId, before.contactListId, before.number) } },
    ]);
    return true;
  } catch (err) {
    if (failedConditionAt(err, 1)) throw new AppError("ERR_CONTACT_LIST_ITEM_DUPLICATED");
    if (failedConditionAt(err, 0)) return false;
    throw err;
  }
}

/** Deletes an item as read, its marker and ref, and moves the count − 1; false when it changed or was already gone. */
export async function deleteContactListItemRow(before: ContactListItemRow, now: string): Promise<boolean> {
  try {
    await transactWrite([
      { Delete: { TableName: T(), Key: keys.contactListItem(before.companyId, before.contactListId, before.id), ...unchanged(before) } },
      { Delete: { TableName: T(), Key: keys.contactListNumber(before.companyId, before.contactListId, before.number) } },
      { Delete: { TableName: T(), Key: keys.contactListItemRef(before.companyId, before.id) } },
      countMove(before.companyId, before.contactListId, -1, now),
    ]);
    return true;
  } catch (err) {
    if (failedConditionAt(err, 0) || failedConditionAt(err, 3)) return false;
    throw err;
  }
}

/** Most actions of one import transaction (DynamoDB takes 100). */
const TX_MAX = 99;

/**
 * Writes one chunk of an import: new items (item, marker, ref each) and changed ones (`after` over `before`), with the
 * list's count moved by the number added, in transactions of at most {@link TX_MAX} actions each. A transaction
 * refused (a number taken meanwhile, an item changed) is reported back as false, nothing of it written; the caller
 * re-reads and retries those rows one by one.
 */
export async function writeImportChunk(companyId: number, contactListId: number, adds: ContactListItemRow[], updates: { before: ContactListItemRow; after: ContactListItemRow }[], now: string): Promise<boolean> {
  const actions: TxItem[] = [];
  for (const a of adds) actions.push(itemPut(a, { ConditionExpression: "attribute_not_exists(PK)" }), markerPut(a), refPut(a));
  for (const u of updates) actions.push(itemPut(u.after, unchanged(u.before)));
  if (actions.length + 1 > TX_MAX + 1) throw new Error("writeImportChunk: chunk too large");
  if (!actions.length) return true;
  if (adds.length) actions.push(countMove(companyId, contactListId, adds.length, now));
  try {
    await withConflictRetry(() => transactWrite(actions));
    return true;
  } catch (err) {
    if (err && (err as Error).name === "TransactionCanceledException") {
      if (adds.length && failedConditionAt(err, actions.length - 1)) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
      return false;
    }
    throw err;
  }
}

/** How many import actions one row costs: 3 for a new item, 1 for a changed one (see {@link writeImportChunk}). */
export const importActions = (kind: "add" | "update") => (kind === "add" ? 3 : 1);
/** Actions one import transaction may carry besides the count. */
export const IMPORT_TX_ACTIONS = TX_MAX - 1;

/** The item holding `number` in the list, through its marker, or undefined. */
export async function itemIdOfNumber(companyId: number, contactListId: number, number: string): Promise<number | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: T(), Key: keys.contactListNumber(companyId, contactListId, number), ConsistentRead: true }));
  return out.Item ? Number(out.Item.itemId) : undefined;
}

/**
 * The items of a list holding each of `numbers`, by number (numbers the list does not hold are absent): two batched
 * strongly consistent reads, the number markers then their items.
 */
export async function itemsOfNumbers(companyId: number, contactListId: number, numbers: string[]): Promise<Map<string, ContactListItemRow>> {
  const markers = await batchGetRaw(numbers.map((n) => keys.contactListNumber(companyId, contactListId, n)), true);
  const ids = [...markers.values()].map((m) => Number(m.itemId));
  const items = await batchGetRaw(ids.map((id) => keys.contactListItem(companyId, contactListId, id)), true);
  const out = new Map<string, ContactListItemRow>();
  for (const raw of items.values()) {
    const row = parseStored(ContactListItemRow, raw);
    out.set(row.number, row);
  }
  return out;
}

/** Records a WhatsApp check of one item (`valid`, at `at`); the item as stored after it, or null when it is gone. */
export async function setWhatsappValid(companyId: number, contactListId: number, id: number, valid: boolean, at: string): Promise<ContactListItemRow | null> {
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: T(),
        Key: keys.contactListItem(companyId, contactListId, id),
        UpdateExpression: "SET isWhatsappValid = :v, whatsappCheckedAt = :at",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeValues: { ":v": valid, ":at": at },
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseStored(ContactListItemRow, out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}
