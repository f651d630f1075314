/**
 * Scheduled messages in DynamoDB: one item per schedule in the company partition, `C#<cid>` / `SCHED#<id>`
 * (`keys.schedule`), read together with one consistent prefix Query (the calendar reads them all). While a schedule
 * waits (PENDENTE, or AGENDADA and claimed by a tick) it carries its due-time index entry, GSI1
 * `SCHEDDUE#<shard>` / `<due>#<cid>#<id>` (`keys.scheduleDueIndex`): the minute tick reads each shard `<= now`, never
 * the companies. Every write but the first is conditioned on what it was computed from (`updatedAt`, the status, the
 * index entry seen, the reserved message id), so a retried or concurrent write applies at most once.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { unlessConditionFails } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { dueShardOfName, keys } from "../db/keys.ts";
import { queryAllByPrefix, queryPages } from "../db/query.ts";
import { ScheduleItem } from "./schema.ts";

/** The due-index shard of a schedule (stable for a given shard count). */
const shardOf = (companyId: number, id: number) => dueShardOfName("schedules", `${companyId}#${id}`);

/** The stored record of `s`: keys, and the due-index entry at `sendAt` while it waits (PENDENTE or AGENDADA). */
function record(s: ScheduleItem): Record<string, unknown> {
  const due = s.status === "PENDENTE" || s.status === "AGENDADA" ? keys.scheduleDueIndex(shardOf(s.companyId, s.id), s.sendAt, s.companyId, s.id) : {};
  return { ...keys.schedule(s.companyId, s.id), ...due, _type: "schedule", ...s };
}

const parse = (raw: Record<string, unknown>) => parseStored(ScheduleItem, raw);

/** One schedule of the company (strongly consistent), or `undefined`. */
export async function getSchedule(companyId: number, id: number): Promise<ScheduleItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.schedule(companyId, id), ConsistentRead: true }));
  return out.Item ? parse(out.Item) : undefined;
}

/** Every schedule of the company, in id order (strongly consistent). */
export async function listSchedules(companyId: number): Promise<ScheduleItem[]> {
  return (await queryAllByPrefix(keys.companyPartition(companyId), keys.prefix.schedule, { ConsistentRead: true })).map(parse);
}

/** Writes a new schedule (its id must be fresh), indexed at `sendAt` when PENDENTE. */
export async function putNewSchedule(item: ScheduleItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: record(item), ConditionExpression: "attribute_not_exists(PK)" }));
}

/**
 * Replaces a schedule with `after` (a waiting one indexed at its `sendAt`, a sent or failed one not indexed); false when it
 * changed (or vanished) since `before` was read.
 */
export async function replaceSchedule(before: ScheduleItem, after: ScheduleItem): Promise<boolean> {
  return (await unlessConditionFails(() => ddb().send(new PutCommand({ TableName: tableName(), Item: record(after), ...sameAs(before) })))) !== null;
}

/** Deletes a schedule as read (`before`); false when it changed or was already gone. */
export async function deleteScheduleItem(before: ScheduleItem): Promise<boolean> {
  return (await unlessConditionFails(() => ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.schedule(before.companyId, before.id), ...sameAs(before) })))) !== null;
}

/** A due-index entry as the tick reads it. */
export interface DueSchedule {
  companyId: number;
  id: number;
  /** The index sort key read (the claim is conditioned on it). */
  dueKey: string;
  /** How many times a tick claimed it since it became due (0: never; written with the entry, so read with it). */
  claims: number;
}

/** Pages (at most 100 entries each) of the schedules due at `nowIso` or before in shard `shard`, earliest first. */
export async function* dueSchedulePages(shard: number, nowIso: string): AsyncGenerator<DueSchedule[]> {
  for await (const items of queryPages({
    IndexName: "GSI1",
    KeyConditionExpression: "GSI1PK = :pk AND GSI1SK <= :upTo",
    ExpressionAttributeValues: { ":pk": keys.scheduleDuePK(shard), ":upTo": `${nowIso}\uffff` },
    ProjectionExpression: "companyId, id, GSI1SK, claims",
    Limit: 100,
  })) {
    yield items.map((it) => ({ companyId: Number(it.companyId), id: Number(it.id), dueKey: String(it.GSI1SK), claims: Number(it.claims ?? 0) }));
  }
}

/**
 * Claims a due schedule for one send: on the condition that its index entry is still `due.dueKey` and it is PENDENTE
 * or AGENDADA (a claim whose time ran out), sets AGENDADA, counts the claim (`claims` = `due.claims + 1`) and moves the
 * entry to `claimUntil` (another tick retries it then if the send never finished). Returns the claimed item, or null
 * when another tick, an edit or a send came first.
 */
export async function claimDueSchedule(due: DueSchedule, claimUntil: string, now: string): Promise<ScheduleItem | null> {
  const out = await unlessConditionFails(() =>
    ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.schedule(due.companyId, due.id),
        UpdateExpression: "SET #status = :agendada, GSI1SK = :claim, claims = :claims, updatedAt = :now",
        ConditionExpression: "GSI1SK = :seen AND #status IN (:pendente, :agendada)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":agendada": "AGENDADA",
          ":pendente": "PENDENTE",
          ":claim": keys.scheduleDueIndex(0, claimUntil, due.companyId, due.id).GSI1SK,
          ":seen": due.dueKey,
          ":claims": due.claims + 1,
          ":now": now,
        },
        ReturnValues: "ALL_NEW",
      }),
    ),
  );
  return out?.Attributes ? parse(out.Attributes) : null;
}

/**
 * Reserves the WhatsApp id of schedule `id`'s one message, without reading it first: only while it is AGENDADA and
 * holds none yet (an edit back to PENDENTE, a finished send or a delete make the condition fail). Returns the item
 * after, or null when the condition failed (read it to see why: another delivery may hold the id already).
 */
export async function reserveMessageId(companyId: number, id: number, messageId: string, now: string): Promise<ScheduleItem | null> {
  const out = await unlessConditionFails(() =>
    ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.schedule(companyId, id),
        UpdateExpression: "SET messageId = :m, updatedAt = :now",
        ConditionExpression: "#status = :agendada AND (attribute_not_exists(messageId) OR messageId = :null)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":m": messageId, ":now": now, ":agendada": "AGENDADA", ":null": null },
        ReturnValues: "ALL_NEW",
      }),
    ),
  );
  return out?.Attributes ? parse(out.Attributes) : null;
}

/**
 * The send's end: AGENDADA → ENVIADA or ERRO with `patch`, the due-index entry removed, on the condition that it is
 * still AGENDADA with the same reserved message id (`before.messageId`, or none). Returns the item after, or null when
 * another delivery finished it first (or it was deleted).
 */
export async function finishSchedule(
  before: ScheduleItem,
  patch: Pick<ScheduleItem, "status" | "sentAt" | "error" | "ticketId" | "whatsappId" | "lateSeconds" | "updatedAt">,
): Promise<ScheduleItem | null> {
  const sets = Object.keys(patch).map((k) => `#${k} = :${k}`);
  const names = Object.fromEntries(Object.keys(patch).map((k) => [`#${k}`, k]));
  const values = Object.fromEntries(Object.entries(patch).map(([k, v]) => [`:${k}`, v]));
  const sameMessage = before.messageId ? "messageId = :mid" : "(attribute_not_exists(messageId) OR messageId = :null)";
  const out = await unlessConditionFails(() =>
    ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.schedule(before.companyId, before.id),
        UpdateExpression: `SET ${sets.join(", ")} REMOVE GSI1PK, GSI1SK`,
        ConditionExpression: `#st = :agendada AND ${sameMessage}`,
        ExpressionAttributeNames: { ...names, "#st": "status" },
        ExpressionAttributeValues: { ...values, ":agendada": "AGENDADA", ...(before.messageId ? { ":mid": before.messageId } : { ":null": null }) },
        ReturnValues: "ALL_NEW",
      }),
    ),
  );
  return out?.Attributes ? parse(out.Attributes) : null;
}

/** The condition that the stored item is still the one read (`updatedAt` unchanged). */
const sameAs = (before: ScheduleItem) => ({ ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } });
