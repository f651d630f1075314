/**
 * Messages in DynamoDB (docs/architecture.md#3-the-table): `C#<cid>#TK#<tid>` / `M#<waTimestamp>#<msgId>` in the ticket's partition,
 * plus one small alias written with it, `keys.messageAlias(cid, msgId, wid, remoteJid)` in the id's partition: the
 * dedupe key (acks, edits, reactions, Baileys `getMessage` find the message by connection, chat and id) and the
 * location for the `/api/messages/{id}` routes (the partition's items, first stored first, so an id colliding across
 * chats resolves to the first stored message); holds `ticketId`, `messageSK`, `fromMe`, `createdAt`.
 * Messages stored before the table's alias layout (`mergedAliasesSince`) have two items instead, still read:
 * `keys.waMessage(cid, wid, remoteJid, waId)` (dedupe) and `keys.messageRef(cid, msgId, ticketId)` (location).
 * Items are parsed with `MessageItem` on read.
 */
import { companyZone, counterFacts, countsInDay, inDayKey, localDayHour, messagesInDayPut, outboxPut } from "../events/outbox.ts";
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { nowIso } from "../common.ts";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { decodeCursor, encodeCursor, startKeyOf } from "../db/cursor.ts";
import { cancellationReasons, withConflictRetry } from "../db/errors.ts";
import { dueShardOfName, keys } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { AppError } from "../errors.ts";
import { atRev, bumpRev } from "../tickets/revision.ts";
import { ticketRecord } from "../tickets/repository.ts";
import { rowKnownCurrent } from "../tickets/row.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { attachSummaries, summariesOf } from "../tickets/summaries.ts";
import { MessageItem } from "./schema.ts";
import { knownWords, messageIndexWrites, reindexMessage, withKnownWords } from "../search/writes.ts";
import { parseStored, withoutDefaults } from "../db/items.ts";
import { batchGetRaw, keyId } from "../db/batch.ts";

/**
 * The stored item of a message: its keys and fields, without the fields at their schema's default (`db/items.ts`
 * `withoutDefaults`: a customer's text leaves out about 20 null/false/0 attributes), which `MessageItem` fills in on read.
 */
export function messageRecord(m: MessageItem): Record<string, unknown> {
  return Object.assign(withoutDefaults(MessageItem, m), keys.message(m.companyId, m.ticketId, m.waTimestamp, m.id), { _type: "message" });
}

async function getBySk(companyId: number, ticketId: number, sk: string, consistent = false): Promise<MessageItem | null> {
  const out = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: { PK: keys.ticketPartition(companyId, ticketId), SK: sk }, ConsistentRead: consistent }),
  );
  return out.Item ? parseStored(MessageItem, out.Item) : null;
}

/** How long after a table started storing merged aliases a message may still have been stored with the older pair (processes of the earlier version finishing a deploy). */
const OLDER_ALIAS_GRACE_MS = 15 * 60_000;

let aliasesSince: Promise<number> | undefined;

/**
 * When this table started storing messages with one merged alias (`keys.messageAlias`), epoch ms; 0 for a table born
 * with them (`db/client.ts` `ensureTable`). Read once per process; the first process to ask a table that has no record
 * (one from before the merge) records now.
 */
export function mergedAliasesSince(): Promise<number> {
  aliasesSince ??= (async () => {
    const Key = keys.messageAliasLayout();
    const read = async () => (await ddb().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }))).Item;
    const kept = await read();
    if (kept) return Number(kept.since);
    try {
      await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...Key, _type: "layout", since: Date.now() }, ConditionExpression: "attribute_not_exists(PK)" }));
    } catch (err) {
      if ((err as Error).name !== "ConditionalCheckFailedException") throw err;
    }
    return Number((await read())?.since ?? Date.now());
  })().catch((err) => {
    aliasesSince = undefined;
    throw err;
  });
  return aliasesSince;
}

/** Forgets the table's alias layout, read again at next use (tests that switch tables), or takes `since` (epoch ms) as it in this process (tests of a table from before the merge). */
export function forgetAliasLayout(since?: number): void {
  aliasesSince = since === undefined ? undefined : Promise.resolve(since);
}

/**
 * Whether a message of WhatsApp time `waTimestamp` (ISO) may have been stored with the older alias pair, so that its
 * redelivery is only recognised by reading that alias (the ingest's transaction guards the merged alias alone).
 */
export async function mayHaveOlderAlias(waTimestamp: string): Promise<boolean> {
  const since = await mergedAliasesSince();
  return since > 0 && Date.parse(waTimestamp) < since + OLDER_ALIAS_GRACE_MS;
}

/**
 * The alias of WhatsApp message `waId` in chat `remoteJid` of connection `whatsappId`: the merged one, else (tables
 * older than the merge) the older `keys.waMessage` item, read in the same call. Undefined when neither exists.
 */
async function aliasOf(companyId: number, whatsappId: number, remoteJid: string, waId: string): Promise<Record<string, unknown> | undefined> {
  const merged = keys.messageAlias(companyId, waId, whatsappId, remoteJid);
  if ((await mergedAliasesSince()) === 0) {
    return (await ddb().send(new GetCommand({ TableName: tableName(), Key: merged, ConsistentRead: true }))).Item;
  }
  const older = keys.waMessage(companyId, whatsappId, remoteJid, waId);
  const found = await batchGetRaw([merged, older], true);
  return found.get(keyId(merged)) ?? found.get(keyId(older));
}

/** `ingestMessage` with `atRev`: the ticket was written since the copy given was read (or is gone); nothing was stored. */
export class StaleTicket extends Error {
  constructor(readonly ticketId: number) {
    super(`ticket ${ticketId} changed since it was read`);
    this.name = "StaleTicket";
  }
}

/**
 * Stores a message and bumps its ticket in ONE `TransactWriteItems` (as the ingest of an inbound message does):
 * Put message alias (`attribute_not_exists`) + Put message + Update ticket (`lastMessage`, `updatedAt` and
 * the GSI1-3 sort keys, `ADD unreadMessages` 1 when `incrementUnread`, else 0). A cancelled alias put means a duplicate
 * (redelivery, history overlap, our own echo): returns `{stored:false}` with the existing message and changes nothing.
 * Transaction conflicts are retried. 404 `ERR_NO_TICKET_FOUND` when the ticket no longer exists. Every write adds 1 to
 * the ticket's `rev`; with `atRev` the ticket update is also conditioned on the copy's `rev` (`tickets/revision.ts`)
 * and {@link StaleTicket} is thrown when the stored ticket moved on, so the returned ticket is exactly the stored one.
 * `message.ticketId`/`companyId` are forced to the ticket's; missing defaulted fields are filled by the schema.
 * `pending` (outbound sends) is the message's pending item at ack 0, written in the same transaction.
 */
export async function ingestMessage(
  companyId: number,
  ticket: TicketItem,
  message: Omit<MessageItem, "createdAt" | "updatedAt">,
  opts: {
    lastMessage: string;
    incrementUnread: boolean;
    waAliasJid: string;
    atRev?: boolean;
    pending?: OutboundPending;
    /** The processing token of this delivery and whether it created the ticket, kept on the alias ({@link aliasOwnedBy}). */
    attempt?: { token: string; ticketCreated: boolean };
    /** The message answers the campaign wait marked on the ticket: the ticket's `campaignWait` is removed with it. */
    clearReplyWait?: boolean;
    /** More items written in the same transaction, after all of the above (e.g. a durable listener's pending run). */
    extra?: TxItem[];
  },
): Promise<{ stored: boolean; message: MessageItem; ticket: TicketItem }> {
  const now = nowIso();
  const m = MessageItem.parse({ ...message, companyId, ticketId: ticket.id, createdAt: now, updatedAt: now });
  const msgKey = keys.message(companyId, ticket.id, m.waTimestamp, m.id);
  const alias = keys.messageAlias(companyId, m.id, m.whatsappId, opts.waAliasJid);
  const inc = opts.incrementUnread ? 1 : 0;
  const counted = m.fromMe ? "messagesOut" : "messagesIn";
  const sk = keys.ticketListSK(now, ticket.id);
  const rev = opts.atRev ? atRev(ticket.rev) : null;
  // At the copy's exact `rev`, the words its writer stored before are known to be in the index (`search/writes.ts`).
  const known = rev ? knownWords.get(ticket) : undefined;
  const index = messageIndexWrites(m, known);
  // The stored row summaries stay beside the copy (`tickets/summaries.ts`): its view needs no read. With `atRev` the
  // copy is exactly the stored item (nothing else wrote it in between), so its packed list row is written too
  // (`tickets/row.ts`); without, its `rev` may lag and the row is left stale for a list read to re-pack.
  const next = attachSummaries(
    {
      ...ticket,
      lastMessage: opts.lastMessage,
      updatedAt: now,
      unreadMessages: ticket.unreadMessages + inc,
      [counted]: ticket[counted] + 1,
      rev: ticket.rev + 1,
      ...(opts.clearReplyWait ? { campaignWait: null } : {}),
    },
    summariesOf(ticket),
  );
  const inDay = countsInDay(m) ? await inDayWrite(ticket, localDayHour(now, await companyZone(companyId)).day, !!rev, now) : null;
  if (inDay) next.inDays = inDay.inDays;
  // The packed list row (`tickets/row.ts`) holds nothing a message changes but a cleared campaign wait: unless the wait
  // is cleared, `rowRev` moves with `rev` and the row is left as it is (current stays current, stale stays stale). At
  // the copy's exact `rev` a row not known current is packed and written instead, so it comes out current.
  const rowKept = rev ? rowKnownCurrent.get(ticket) === true && !opts.clearReplyWait : !opts.clearReplyWait;
  const row = rev && !rowKept ? (ticketRecord(next, summariesOf(ticket)).row as string) : null;
  try {
    await withConflictRetry(() =>
      ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName(),
                Item: {
                  ...alias,
                  _type: "messageAlias",
                  ticketId: ticket.id,
                  messageSK: msgKey.SK,
                  fromMe: m.fromMe,
                  createdAt: now,
                  ...(opts.attempt ? { attemptToken: opts.attempt.token, ticketCreated: opts.attempt.ticketCreated } : {}),
                },
                ConditionExpression: "attribute_not_exists(PK)",
              },
            },
            { Put: { TableName: tableName(), Item: { ...messageRecord(m), ...index.attrs } } },
            {
              Update: bumpRev({
                TableName: tableName(),
                Key: keys.ticket(companyId, ticket.id),
                UpdateExpression: `SET lastMessage = :lm, updatedAt = :now, GSI1SK = :sk, GSI2SK = :sk, GSI3SK = :sk${row ? ", #row = :row, rowRev = :rowRev" : ""}${inDay ? `, ${inDay.set}` : ""} ADD unreadMessages :inc, ${counted} :one${rowKept ? ", rowRev :one" : ""}${opts.clearReplyWait ? " REMOVE campaignWait" : ""}`,
                ConditionExpression: [rev ? `attribute_exists(PK) AND ${rev.condition}` : "attribute_exists(PK)", inDay?.condition].filter(Boolean).join(" AND "),
                ...(row || inDay?.names ? { ExpressionAttributeNames: { ...(row ? { "#row": "row" } : {}), ...inDay?.names } } : {}),
                ExpressionAttributeValues: { ":lm": opts.lastMessage, ":now": now, ":sk": sk, ":inc": inc, ":one": 1, ...rev?.values, ...(row ? { ":row": row, ":rowRev": next.rev } : {}), ...inDay?.values },
              }),
            },
            // The day's customers' messages: counted on the ticket above (`inDays`); the key's first message also
            // puts the item that hands the count to the daily counters when the day is over (events/outbox.ts).
            ...(inDay?.handOver ? [messagesInDayPut(inDay.handOver)] : []),
            // A message sent through Atende is counted per day too (events/outbox.ts: exactly once, even if this
            // process dies next); the ticket's own count above covers every message at no extra item.
            ...outboxPut(counterFacts.message(m)),
            ...index.items,
            // An outbound message is born with its pending item: a process that dies before (or while) enqueuing
            // its send leaves the sweep something to re-drive (`delivery.ts`).
            ...(opts.pending ? [{ Put: { TableName: tableName(), Item: outboundPendingItem(opts.pending, Date.parse(now)) } }] : []),
            ...(opts.extra ?? []),
          ],
        }),
      ),
    );
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (reasons?.[0]?.Code === "ConditionalCheckFailed") {
      const existing = await findByWaId(companyId, m.whatsappId, opts.waAliasJid, m.id);
      return { stored: false, message: existing ?? m, ticket };
    }
    if (reasons?.[2]?.Code === "ConditionalCheckFailed") {
      if (rev) throw new StaleTicket(ticket.id);
      // Without `atRev`, only a copy that had no day counts yet is conditioned on more than the ticket existing: the
      // stored ticket has counts this copy lacks, so the message adds to its one key instead (no overwrite, no re-read).
      if (inDay?.condition && !ticket.inDays && (await ticketExists(companyId, ticket.id))) return ingestMessage(companyId, { ...ticket, inDays: {} }, message, opts);
      throw new AppError("ERR_NO_TICKET_FOUND");
    }
    throw err;
  }
  if (rev) knownWords.set(next, withKnownWords(known, index.words));
  if (row || (rowKept && rowKnownCurrent.get(ticket))) rowKnownCurrent.set(next, true);
  return { stored: true, message: m, ticket: next };
}

/** Days a ticket keeps its day counts (`inDays`) after the day: the day's end hands them over long before. */
const IN_DAYS_KEPT = 3;

/** `day` (`yyyy-mm-dd`) moved by `n` days. */
const dayPlus = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * What a customer's live message adds to the ingest's ticket update: 1 more in the ticket's count of local day `day`
 * and its attendant (`inDays`, docs/product/dashboard.md#customers-messages), and, for the key's first message, the
 * hand-over item. At the copy's exact `rev` (`exact`) the whole map is written (older days than
 * {@link IN_DAYS_KEPT} dropped); otherwise the one key is added to, or, when the copy had no map, the map is written
 * conditioned on the stored ticket having none either (else the caller's copy is stale).
 */
async function inDayWrite(ticket: TicketItem, day: string, exact: boolean, now: string) {
  const key = inDayKey(day, ticket.userId);
  const had = ticket.inDays;
  const handOver = had?.[key] ? null : counterFacts.messagesInDay({ companyId: ticket.companyId, ticketId: ticket.id, userId: ticket.userId, day, at: now, tz: await companyZone(ticket.companyId) });
  const oldest = dayPlus(day, -IN_DAYS_KEPT);
  const kept = Object.fromEntries(Object.entries(had ?? {}).filter(([k]) => k.slice(0, 10) >= oldest));
  const inDays = { ...kept, [key]: (had?.[key] ?? 0) + 1 };
  if (exact || !had) {
    return { inDays, handOver, set: "inDays = :inDays", values: { ":inDays": inDays }, names: undefined, condition: exact ? undefined : "attribute_not_exists(inDays)" };
  }
  return { inDays, handOver, set: "inDays.#inKey = if_not_exists(inDays.#inKey, :zero) + :one", values: { ":zero": 0 }, names: { "#inKey": key }, condition: undefined };
}

async function ticketExists(companyId: number, ticketId: number): Promise<boolean> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.ticket(companyId, ticketId), ProjectionExpression: "PK", ConsistentRead: true }));
  return !!out.Item;
}

/**
 * Sets the ticket's list preview (`lastMessage`) to `preview` when it still reads `expected`, leaving `updatedAt` and the
 * list order alone (a message stored in between wins). Returns whether it changed.
 */
export async function replaceLastMessage(companyId: number, ticketId: number, expected: string, preview: string): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand(bumpRev({
        TableName: tableName(),
        Key: keys.ticket(companyId, ticketId),
        UpdateExpression: "SET lastMessage = :lm",
        ConditionExpression: expected ? "attribute_exists(PK) AND lastMessage = :old" : "attribute_exists(PK) AND (attribute_not_exists(lastMessage) OR lastMessage = :old)",
        ExpressionAttributeValues: { ":lm": preview, ":old": expected },
      })),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return false;
    throw err;
  }
}

type MessageLocation = { ticketId: number; messageSK: string };

/**
 * Every place a message id lives (ticket and sort key), first stored first; empty when unknown in this company.
 * Reads the ref partition (one item per ticket; older single-item refs with SK `#` are read too).
 */
async function getMessageLocations(companyId: number, messageId: string): Promise<MessageLocation[]> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "PK = :pk",
      ExpressionAttributeValues: { ":pk": keys.messageRefPK(companyId, messageId) },
      ConsistentRead: true,
      Limit: 25,
    }),
  );
  return (out.Items ?? [])
    .map((it) => ({ ticketId: Number(it.ticketId), messageSK: String(it.messageSK), at: String(it.createdAt ?? "") }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .map(({ ticketId, messageSK }) => ({ ticketId, messageSK }));
}

/**
 * Where a message id lives (ticket and sort key); with `ticketId`, only in that ticket. Without it, the first stored
 * message with that id (a later message of another chat reusing the id never takes its place). Null when unknown.
 */
export async function getMessageLocation(companyId: number, messageId: string, ticketId?: number): Promise<MessageLocation | null> {
  const locs = await getMessageLocations(companyId, messageId);
  return (ticketId === undefined ? locs[0] : locs.find((l) => l.ticketId === ticketId)) ?? null;
}

/** A message of a ticket by id, or null (also null when the id belongs to another ticket). */
export async function getMessage(companyId: number, ticketId: number, messageId: string): Promise<MessageItem | null> {
  const loc = await getMessageLocation(companyId, messageId, ticketId);
  return loc ? getBySk(companyId, ticketId, loc.messageSK, true) : null;
}

/** A message of the company by id (through `keys.messageRef`; the first stored one when the id collides), or null. */
export async function getMessageById(companyId: number, messageId: string): Promise<MessageItem | null> {
  for (const loc of await getMessageLocations(companyId, messageId)) {
    const m = await getBySk(companyId, loc.ticketId, loc.messageSK, true);
    if (m) return m;
  }
  return null;
}

/** A message by its WhatsApp key (connection, chat JID, WhatsApp id) through the WA alias, or null. */
export async function findByWaId(companyId: number, whatsappId: number, remoteJid: string, waId: string): Promise<MessageItem | null> {
  const alias = await aliasOf(companyId, whatsappId, remoteJid, waId);
  if (!alias) return null;
  return getBySk(companyId, Number(alias.ticketId), String(alias.messageSK), true);
}

/**
 * Whether the alias of WhatsApp message `waId` in chat `remoteJid` was written by the delivery holding processing
 * `token`: an earlier try of this same delivery stored the message but lost DynamoDB's answer, so this try must finish
 * what follows a store (publish, automatic answers) rather than skip it as a redelivery. Returns what that try stored
 * (`ticketCreated`: whether it opened the ticket), or null when the alias is absent or another delivery's.
 */
export async function aliasOwnedBy(
  companyId: number,
  whatsappId: number,
  remoteJid: string,
  waId: string,
  token: string,
): Promise<{ message: MessageItem; ticketCreated: boolean } | null> {
  const alias = await aliasOf(companyId, whatsappId, remoteJid, waId);
  if (!alias || alias.attemptToken !== token) return null;
  const message = await getBySk(companyId, Number(alias.ticketId), String(alias.messageSK), true);
  return message ? { message, ticketCreated: alias.ticketCreated === true } : null;
}

const IMMUTABLE = new Set(["id", "ticketId", "companyId", "waTimestamp", "createdAt", "PK", "SK"]);

/**
 * Applies `patch` to a stored message (ack, body, isEdited, previousBody, isDeleted, reactions, sendError, media fields...)
 * and returns the new message. Keys and identity fields are ignored; `updatedAt` is set. 404 `ERR_NO_MESSAGE_FOUND`.
 */
export async function updateMessage(companyId: number, ticketId: number, messageId: string, patch: Partial<MessageItem>): Promise<MessageItem> {
  const loc = await getMessageLocation(companyId, messageId, ticketId);
  if (!loc) throw new AppError("ERR_NO_MESSAGE_FOUND");
  const entries = Object.entries({ ...patch, updatedAt: nowIso() }).filter(([k, v]) => !IMMUTABLE.has(k) && v !== undefined);
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: keys.ticketPartition(companyId, ticketId), SK: loc.messageSK },
        UpdateExpression: `SET ${entries.map((_e, i) => `#k${i} = :v${i}`).join(", ")}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#k${i}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
        ConditionExpression: "attribute_exists(PK)",
        ReturnValues: "ALL_NEW",
      }),
    );
    await reindexMessage(out.Attributes, patch);
    return parseStored(MessageItem, out.Attributes);
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") throw new AppError("ERR_NO_MESSAGE_FOUND");
    throw err;
  }
}

/**
 * One page of a ticket's messages, NEWEST first (`ScanIndexForward:false` over `M#`), `limit` items after `cursor`.
 * Cursors of another ticket or company → 400 `ERR_INVALID_CURSOR`.
 */
export async function listMessages(
  companyId: number,
  ticketId: number,
  opts: { limit?: number; cursor?: string } = {},
): Promise<{ messages: MessageItem[]; nextCursor?: string }> {
  const pk = keys.ticketPartition(companyId, ticketId);
  const start = startKeyOf(decodeCursor<Record<string, unknown>>(opts.cursor), companyId, { pk });
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :m)",
      ExpressionAttributeValues: { ":pk": pk, ":m": keys.messagePrefix },
      ScanIndexForward: false,
      Limit: (opts.limit ?? 20) + 1,
      ExclusiveStartKey: start,
    }),
  );
  const items = out.Items ?? [];
  const limit = opts.limit ?? 20;
  const page = items.slice(0, limit);
  // One extra item read tells whether another page exists (no empty last page).
  const last = page[page.length - 1];
  const nextCursor = items.length > limit && last ? encodeCursor({ PK: last.PK, SK: last.SK }) : undefined;
  return { messages: page.map((it) => parseStored(MessageItem, it)), nextCursor };
}

// ---- outbound messages waiting at ack 0 (`delivery.ts`) ----------------------------------------------------------

/** A pending outbound item: message `messageId` waits at ack 0 for its `send` command, due for the sweep at `dueAt`. */
export interface OutboundPending {
  companyId: number;
  ticketId: number;
  whatsappId: number;
  messageId: string;
  commandId: string;
  dueAt: string;
  redriven: boolean;
}

/** The outbound due index's shard of a pending item: every company's sends spread over `dueShardsOf("outbound")` GSI4 partitions. */
const outboundShardOf = (p: Pick<OutboundPending, "companyId" | "ticketId">) => dueShardOfName("outbound", `${p.companyId}#${p.ticketId}`);

/** The stored pending item of `p`: its keys, its due-time GSI4 key (shard of its ticket), expiring after three days. */
function outboundPendingItem(p: OutboundPending, now: number): Record<string, unknown> {
  return {
    ...p,
    ...keys.outboundPending(p.companyId, p.ticketId, p.messageId),
    ...keys.outboundDue(outboundShardOf(p), p.dueAt, p.companyId, p.ticketId, p.messageId),
    _type: "outboundPending",
    expiresAt: Math.floor(now / 1000) + 3 * 24 * 3600,
  };
}

/** Writes (or replaces) the pending item of `p` (see {@link outboundPendingItem}). */
export async function putOutboundPending(p: OutboundPending, now = Date.now()): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: outboundPendingItem(p, now) }));
}

/** Deletes the pending item of message `messageId` (settled or failed). */
export async function deleteOutboundPending(companyId: number, ticketId: number, messageId: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.outboundPending(companyId, ticketId, messageId) }));
}

/** The pending items of due-index shard `shard` (0 … `dueShardsToRead("outbound")` − 1) due at `untilIso` or before, page by page. */
export async function* dueOutboundPending(shard: number, untilIso: string): AsyncGenerator<OutboundPending[]> {
  const pages = queryPages({
    IndexName: "GSI4",
    KeyConditionExpression: "GSI4PK = :pk AND GSI4SK <= :until",
    ExpressionAttributeValues: { ":pk": keys.outboundDuePK(shard), ":until": `${untilIso}~` },
  });
  for await (const items of pages) yield items as unknown as OutboundPending[];
}

/**
 * Sets message `messageSK` of ticket `ticketId` failed (`ack -1`, `sendError = code`) when it is still at ack 0.
 * Returns the failed message, or null when it was not at ack 0 (a send that succeeded meanwhile wins) or is gone.
 */
export async function failMessageAtAck0(companyId: number, ticketId: number, messageSK: string, code: string): Promise<MessageItem | null> {
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: keys.ticketPartition(companyId, ticketId), SK: messageSK },
        UpdateExpression: "SET ack = :f, sendError = :e, updatedAt = :now",
        // A message at ack 0 may be stored without `ack` (its default, `messageRecord`).
        ConditionExpression: "attribute_exists(PK) AND (attribute_not_exists(ack) OR ack = :zero)",
        ExpressionAttributeValues: { ":f": -1, ":e": code, ":now": new Date().toISOString(), ":zero": 0 },
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseStored(MessageItem, out.Attributes);
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return null;
    throw err;
  }
}
