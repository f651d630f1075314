/**
 * Outbound messages never vanish at `ack 0` (issue 8 §2). An outbound message waits at ack 0 from the moment it is
 * stored until the runner sends it (ack 1) or fails it (ack -1). Three things make sure it ends one way or the other:
 *
 * - {@link watchOutbound}: written with the `send` command, a pending item with a due-time GSI4 key
 *   (`OUTDUE#<yyyy-mm-ddThh>` / `<dueAt>#…`, DESIGN.md "timers are due-time index items, never scans").
 * - {@link failPendingSend}: the session-command DLQ consumer and the sweep mark a message still at ack 0 failed
 *   (`ack -1`, `sendError`, the failed state the web offers "retry" for) and publish the `appMessage` update.
 * - {@link sweepOutbound}: the minute tick re-drives a message still at ack 0 after {@link OUTBOUND_DEADLINE_MS} once
 *   (the same command id, so a command already DONE or in hand is not sent twice) and fails it at the second deadline.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { queryPages } from "../db/query.ts";
import { keys } from "../db/keys.ts";
import { dispatch } from "../events/index.ts";
import { log } from "../log.ts";
import { enqueue } from "../sqs/enqueue.ts";
import { getTicketItem } from "../tickets/repository.ts";
import { commandQueueUrl, SessionCommand, shardOf } from "../whatsapp/commands.ts";
import { getMessage, getMessageLocation } from "./repository.ts";
import { MessageItem } from "./schema.ts";

/** How long a message may wait at ack 0 before the sweep re-drives it, and again before it is failed (10 min). */
export const OUTBOUND_DEADLINE_MS = 10 * 60_000;
/** Hour buckets of the due index the sweep reads back (a tick missed for up to this long still finds its items). */
const SWEEP_HOURS = 24;

/**
 * Records that `send` command `commandId` was enqueued for message `messageId` (ticket `ticketId`), due for the
 * sweep at `now + OUTBOUND_DEADLINE_MS`. Best effort: a failure is logged (the DLQ still catches a lost send).
 */
export async function watchOutbound(companyId: number, ticketId: number, whatsappId: number, messageId: string, commandId: string, now = Date.now()): Promise<void> {
  const dueAt = new Date(now + OUTBOUND_DEADLINE_MS).toISOString();
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.outboundPending(companyId, ticketId, messageId),
          ...keys.outboundDue(dueAt, companyId, ticketId, messageId),
          _type: "outboundPending",
          companyId,
          ticketId,
          whatsappId,
          messageId,
          commandId,
          dueAt,
          redriven: false,
          expiresAt: Math.floor(now / 1000) + 3 * 24 * 3600,
        },
      }),
    );
  } catch (err) {
    log("warn", "outbound watch not written", { companyId, ticketId, messageId, err });
  }
}

/**
 * Marks message `messageId` failed with `sendError = code` when it is still at ack 0 (conditional: a send that
 * succeeded meanwhile wins) and publishes the `appMessage` update to whoever sees the ticket. Returns the failed
 * message, or null when it was not at ack 0 (or is unknown).
 */
export async function failPendingSend(companyId: number, ticketId: number, messageId: string, code: string): Promise<MessageItem | null> {
  const loc = await getMessageLocation(companyId, messageId);
  if (!loc || loc.ticketId !== ticketId) return null;
  let failed: MessageItem;
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: keys.ticketPartition(companyId, ticketId), SK: loc.messageSK },
        UpdateExpression: "SET ack = :f, sendError = :e, updatedAt = :now",
        ConditionExpression: "attribute_exists(PK) AND ack = :zero",
        ExpressionAttributeValues: { ":f": -1, ":e": code, ":now": new Date().toISOString(), ":zero": 0 },
        ReturnValues: "ALL_NEW",
      }),
    );
    failed = MessageItem.parse(out.Attributes);
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return null;
    throw err;
  }
  const ticket = await getTicketItem(companyId, ticketId);
  if (ticket) await dispatch({ type: "message.updated", companyId, message: failed, ticket });
  return failed;
}

interface Pending {
  companyId: number;
  ticketId: number;
  whatsappId: number;
  messageId: string;
  commandId: string;
  dueAt: string;
  redriven: boolean;
}

/**
 * The minute tick's sweep: every pending outbound item due at `now` or before (hour buckets of the last day): a message
 * no longer at ack 0 is forgotten; one still at ack 0 is re-driven once (its `send` command again, same command id),
 * then failed with `ERR_SENDING_WAPP_MSG` at the next deadline. Returns the counts.
 */
export async function sweepOutbound(now = Date.now()): Promise<{ settled: number; redriven: number; failed: number }> {
  const counts = { settled: 0, redriven: 0, failed: 0 };
  const until = `${new Date(now).toISOString()}~`;
  for (let h = SWEEP_HOURS; h >= 0; h--) {
    const bucket = keys.outboundDuePK(new Date(now - h * 3600_000).toISOString());
    for await (const items of queryPages({ IndexName: "GSI4", KeyConditionExpression: "GSI4PK = :pk AND GSI4SK <= :until", ExpressionAttributeValues: { ":pk": bucket, ":until": until } })) {
      for (const i of items) {
        const p = i as unknown as Pending;
        try {
          counts[await settle(p, now)]++;
        } catch (err) {
          log("warn", "outbound sweep item failed", { companyId: p.companyId, messageId: p.messageId, err });
        }
      }
    }
  }
  if (counts.redriven || counts.failed) log("info", "outbound sweep", counts);
  return counts;
}

async function settle(p: Pending, now: number): Promise<"settled" | "redriven" | "failed"> {
  const key = keys.outboundPending(p.companyId, p.ticketId, p.messageId);
  const m = await getMessage(p.companyId, p.ticketId, p.messageId);
  if (m?.ack !== 0) {
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: key }));
    return "settled";
  }
  if (!p.redriven) {
    const cmd = SessionCommand.parse({ type: "send", commandId: p.commandId, companyId: p.companyId, whatsappId: p.whatsappId, ticketId: p.ticketId, messageId: p.messageId });
    await enqueue(commandQueueUrl(shardOf(p.whatsappId)), cmd, { groupId: String(p.whatsappId), dedupeId: `${p.commandId}-redrive` });
    const dueAt = new Date(now + OUTBOUND_DEADLINE_MS).toISOString();
    await ddb().send(
      new PutCommand({ TableName: tableName(), Item: { ...p, ...key, ...keys.outboundDue(dueAt, p.companyId, p.ticketId, p.messageId), _type: "outboundPending", dueAt, redriven: true } }),
    );
    return "redriven";
  }
  await failPendingSend(p.companyId, p.ticketId, p.messageId, "ERR_SENDING_WAPP_MSG");
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: key }));
  return "failed";
}
