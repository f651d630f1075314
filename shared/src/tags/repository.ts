/**
 * Tags in DynamoDB (docs/architecture.md#3-the-table). Every key comes from `db/keys.ts`:
 * - tag item `C#<cid>` / `TAG#<id>` (a small, bounded collection in the company partition) and its name marker
 *   `C#<cid>` / `TNAME#<name>` (lower case, holds `tagId`), written in the same transaction as the tag so two tags of
 *   a company never share a name;
 * - tag edge `C#<cid>#TK#<tid>` / `TAG#<tagId>`, in the ticket's partition, indexed on GSI4 `C#<cid>#TAG#<tagId>` /
 *   `T#<ticketCreatedAt>#<tid>` so the tickets of a tag are found by key (newest ticket first);
 * - the ticket item's `tagIds` (sorted ids), so ticket rows get their tags without reading edges.
 *
 * Exactness: an edge, the ticket's `tagIds` and the tag's `ticketsCount` change together in ONE transaction
 * ({@link writeTicketTags}): the edge Put is `attribute_not_exists` (never counted twice), the Delete is
 * `attribute_exists` (never uncounted twice), the ticket update is conditioned on the `tagIds` it was computed from
 * (two concurrent syncs cannot lose each other's change). So `ticketsCount` equals the number of edges at all times,
 * and reads of it are one consistent GetItem, not a COUNT query over an eventually consistent index.
 */
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetRaw } from "../db/batch.ts";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { cancellationReasons, failedConditionAt, withConflictRetry } from "../db/errors.ts";
import { AppError } from "../errors.ts";
import "./errors.ts";
import { keys } from "../db/keys.ts";
import { countQuery, queryAllByPrefix } from "../db/query.ts";
import { bumpRev } from "../tickets/revision.ts";
import { TagItem, TicketTagEdge } from "./schema.ts";
import { parseStored } from "../db/items.ts";

/** Reads one tag of the company (strongly consistent), or `undefined`. */
export async function getTag(companyId: number, tagId: number): Promise<TagItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.tag(companyId, tagId), ConsistentRead: true }));
  return out.Item ? parseStored(TagItem, out.Item) : undefined;
}

/** Every tag of the company in id order (strongly consistent, so counts are exact right after a write). */
export async function listTags(companyId: number): Promise<TagItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.tagPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(TagItem, it));
}

/** Reads the given tags of the company in one batch; missing ids are absent from the map. */
export async function batchGetTags(companyId: number, tagIds: number[]): Promise<Map<number, TagItem>> {
  const raw = await batchGetRaw(tagIds.map((id) => keys.tag(companyId, id)), true);
  const out = new Map<number, TagItem>();
  for (const it of raw.values()) {
    const t = parseStored(TagItem, it);
    out.set(t.id, t);
  }
  return out;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Puts the name marker for `tagId`; `reclaim`: also when the marker already names this tag. */
const nameMarkerPut = (companyId: number, name: string, tagId: number, reclaim = false): TxItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.tagName(companyId, name), _type: "tagName", tagId },
    ConditionExpression: reclaim ? "attribute_not_exists(PK) OR tagId = :tid" : "attribute_not_exists(PK)",
    ...(reclaim ? { ExpressionAttributeValues: { ":tid": tagId } } : {}),
  },
});

/** Writes a new tag item (its id must be fresh) with its name marker; name taken → 409 `ERR_TAG_NAME_ALREADY_EXISTS`. */
export async function putNewTag(tag: TagItem): Promise<void> {
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: { ...keys.tag(tag.companyId, tag.id), _type: "tag", ...tag }, ConditionExpression: "attribute_not_exists(PK)" } },
          nameMarkerPut(tag.companyId, tag.name, tag.id),
        ],
      }),
    );
  } catch (err) {
    if (failedConditionAt(err, 1)) throw new AppError("ERR_TAG_NAME_ALREADY_EXISTS");
    throw err;
  }
}

/**
 * Sets the editable fields of a tag (never `ticketsCount`, which only the edge transactions change), moving its name
 * marker when the name changes (another letter case is the same name; a tag saved before markers existed gets its
 * marker here), with `extra` last in the same transaction (the pending runs of its `tag.updated`,
 * `events/durable.ts`). Returns the tag after the write, or `undefined` when it no longer exists; name taken → 409
 * `ERR_TAG_NAME_ALREADY_EXISTS`.
 */
export async function updateTagFields(
  before: TagItem,
  fields: Pick<TagItem, "name" | "color" | "kanban" | "userId" | "updatedAt">,
  extra: TxItem[] = [],
): Promise<TagItem | undefined> {
  const { companyId, id: tagId } = before;
  const items: TxItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.tag(companyId, tagId),
        UpdateExpression: "SET #n = :n, color = :c, kanban = :k, userId = :u, updatedAt = :t",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: { "#n": "name" },
        ExpressionAttributeValues: { ":n": fields.name, ":c": fields.color, ":k": fields.kanban, ":u": fields.userId, ":t": fields.updatedAt },
      },
    },
  ];
  if (sameName(before.name, fields.name)) items.push(nameMarkerPut(companyId, fields.name, tagId, true));
  else items.push(nameMarkerPut(companyId, fields.name, tagId), nameMarkerDelete(companyId, before.name, tagId));
  items.push(...extra);
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    if (failedConditionAt(err, 0)) return undefined;
    if (failedConditionAt(err, 1)) throw new AppError("ERR_TAG_NAME_ALREADY_EXISTS");
    throw err;
  }
  return getTag(companyId, tagId);
}

/** Deletes the name marker when it names this tag (a marker of another tag with the same name stays). */
const nameMarkerDelete = (companyId: number, name: string, tagId: number): TxItem => ({
  Delete: {
    TableName: tableName(),
    Key: keys.tagName(companyId, name),
    ConditionExpression: "attribute_not_exists(PK) OR tagId = :tid",
    ExpressionAttributeValues: { ":tid": tagId },
  },
});

/** Deletes the tag item and its name marker; false when it was already gone. Its edges are removed afterwards by the service. */
export async function deleteTagItem(tag: TagItem): Promise<boolean> {
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName(), Key: keys.tag(tag.companyId, tag.id), ConditionExpression: "attribute_exists(PK)" } },
          nameMarkerDelete(tag.companyId, tag.name, tag.id),
        ],
      }),
    );
    return true;
  } catch (err) {
    if (failedConditionAt(err, 0)) return false;
    throw err;
  }
}

/** One edge read from the tag index: the ticket, its index sort key and the key to resume after it. */
export interface TagEdgeRef {
  ticketId: number;
  sk: string;
  key: Record<string, unknown>;
}

/** The Query of a tag's edges on GSI4 (its partition of the tag index). */
const tagEdgesQuery = (companyId: number, tagId: number) => ({
  IndexName: "GSI4",
  KeyConditionExpression: "GSI4PK = :pk",
  ExpressionAttributeValues: { ":pk": keys.tagTicketsPK(companyId, tagId) },
});

/** One page of a tag's edges from GSI4, newest ticket first. */
export async function queryTagEdges(
  companyId: number,
  tagId: number,
  opts: { limit: number; startKey?: Record<string, unknown> },
): Promise<{ edges: TagEdgeRef[]; lastKey?: Record<string, unknown> }> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      ...tagEdgesQuery(companyId, tagId),
      ScanIndexForward: false,
      Limit: opts.limit,
      ExclusiveStartKey: opts.startKey,
    }),
  );
  const edges = (out.Items ?? []).map((it) => ({
    ticketId: TicketTagEdge.parse(it).ticketId,
    sk: String(it.GSI4SK),
    key: { PK: it.PK, SK: it.SK, GSI4PK: it.GSI4PK, GSI4SK: it.GSI4SK },
  }));
  return { edges, lastKey: out.LastEvaluatedKey };
}

/** How many edges tag `tagId` has on the tag index (a COUNT query, paged). */
export function countTagEdges(companyId: number, tagId: number): Promise<number> {
  return countQuery(tagEdgesQuery(companyId, tagId));
}

/** What a ticket-tags transaction needs to know about the ticket (as read). */
export interface TicketTagsState {
  companyId: number;
  id: number;
  createdAt: string;
  tagIds: number[];
}

/** Why {@link writeTicketTags} did not commit. */
export type TicketTagsWriteResult =
  | { ok: true; added: number[]; removed: number[] }
  /** The ticket changed (or vanished) since it was read, or an edge disagreed with it: re-read and retry. */
  | { ok: false; reason: "stale" }
  /** A tag to add does not exist in the company. */
  | { ok: false; reason: "missingTag"; tagId: number }
  /** A tag to remove was deleted meanwhile: retry without its counter. */
  | { ok: false; reason: "goneTag"; tagId: number };

/**
 * Moves a ticket from `prev.tagIds` to `nextTagIds` in ONE transaction: Put/Delete each changed edge, `ADD
 * ticketsCount ±1` on each changed tag (skipped for the tags in `deletedTags`), SET the ticket's sorted `tagIds`
 * conditioned on the value it was computed from. At most {@link MAX_TAGS_PER_TICKET} tags on each side keeps it
 * under DynamoDB's 100 items. Transaction conflicts (a hot tag item) are retried here.
 */
export async function writeTicketTags(prev: TicketTagsState, nextTagIds: number[], deletedTags: ReadonlySet<number> = new Set()): Promise<TicketTagsWriteResult> {
  const cid = prev.companyId;
  const next = [...new Set(nextTagIds)].sort((a, b) => a - b);
  const before = new Set(prev.tagIds);
  const added = next.filter((id) => !before.has(id));
  const removed = [...before].filter((id) => !next.includes(id));
  if (!added.length && !removed.length) return { ok: true, added, removed };
  const now = new Date().toISOString();
  const items: TxItem[] = [];
  /** `ADD ticketsCount delta` on a tag that must still exist (a deleted tag cancels the transaction). */
  const countUpdate = (tagId: number, delta: number) => ({
    Update: {
      TableName: tableName(),
      Key: keys.tag(cid, tagId),
      UpdateExpression: "ADD ticketsCount :d",
      ConditionExpression: "attribute_exists(PK)",
      ExpressionAttributeValues: { ":d": delta },
    },
  });
  const meaning: ({ kind: "edge" } | { kind: "addTag" | "removeTag"; tagId: number } | { kind: "ticket" })[] = [];
  for (const tagId of added) {
    items.push({
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.ticketTag(cid, prev.id, tagId),
          ...keys.tagTicketsIndex(cid, tagId, prev.createdAt, prev.id),
          _type: "ticketTag",
          companyId: cid,
          ticketId: prev.id,
          tagId,
          createdAt: now,
        },
        ConditionExpression: "attribute_not_exists(PK)",
      },
    });
    meaning.push({ kind: "edge" });
    items.push(countUpdate(tagId, 1));
    meaning.push({ kind: "addTag", tagId });
  }
  for (const tagId of removed) {
    items.push({ Delete: { TableName: tableName(), Key: keys.ticketTag(cid, prev.id, tagId), ConditionExpression: "attribute_exists(PK)" } });
    meaning.push({ kind: "edge" });
    if (deletedTags.has(tagId)) continue;
    items.push(countUpdate(tagId, -1));
    meaning.push({ kind: "removeTag", tagId });
  }
  const values: Record<string, unknown> = { ":next": next };
  let condition: string;
  if (prev.tagIds.length) {
    condition = "attribute_exists(PK) AND tagIds = :prev";
    values[":prev"] = prev.tagIds;
  } else {
    condition = "attribute_exists(PK) AND (attribute_not_exists(tagIds) OR size(tagIds) = :zero)";
    values[":zero"] = 0;
  }
  items.push({
    Update: bumpRev({
      TableName: tableName(),
      Key: keys.ticket(cid, prev.id),
      UpdateExpression: "SET tagIds = :next",
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
    }),
  });
  meaning.push({ kind: "ticket" });
  try {
    await withConflictRetry(() => ddb().send(new TransactWriteCommand({ TransactItems: items })));
    return { ok: true, added, removed };
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (!reasons) throw err;
    const failed = reasons.map((r, i) => (r.Code === "ConditionalCheckFailed" ? meaning[i] : undefined)).filter((m) => !!m);
    // The ticket first: when it moved on, every other verdict may be a consequence of reading it stale.
    if (failed.some((m) => m.kind === "ticket" || m.kind === "edge")) return { ok: false, reason: "stale" };
    const missing = failed.find((m) => m.kind === "addTag");
    if (missing && missing.kind === "addTag") return { ok: false, reason: "missingTag", tagId: missing.tagId };
    const gone = failed.find((m) => m.kind === "removeTag");
    if (gone && gone.kind === "removeTag") return { ok: false, reason: "goneTag", tagId: gone.tagId };
    throw err;
  }
}

/**
 * Removes the edge of a ticket that was just deleted, with its count, in one transaction. A tag that is gone
 * meanwhile loses only the edge; an edge already gone changes nothing.
 */
export async function dropEdgeOfDeletedTicket(companyId: number, ticketId: number, tagId: number): Promise<void> {
  try {
    await withConflictRetry(() =>
      ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName(), Key: keys.ticketTag(companyId, ticketId, tagId), ConditionExpression: "attribute_exists(PK)" } },
            {
              Update: {
                TableName: tableName(),
                Key: keys.tag(companyId, tagId),
                UpdateExpression: "ADD ticketsCount :d",
                ConditionExpression: "attribute_exists(PK)",
                ExpressionAttributeValues: { ":d": -1 },
              },
            },
          ],
        }),
      ),
    );
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (!reasons) throw err;
    if (reasons[0]?.Code === "ConditionalCheckFailed") return; // edge already gone: nothing to uncount
    await deleteEdge(companyId, ticketId, tagId); // the tag is gone: only the edge is left to remove
  }
}

/** Deletes one edge item with no bookkeeping (an orphan whose ticket or tag no longer exists). */
export async function deleteEdge(companyId: number, ticketId: number, tagId: number): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.ticketTag(companyId, ticketId, tagId) }));
}
