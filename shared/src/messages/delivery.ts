/**
 * Outbound messages never vanish at `ack 0` (docs/product/messages.md#delivery). An outbound message waits at ack 0 from the moment it is
 * stored until the runner sends it (ack 1) or fails it (ack -1). Three things make sure it ends one way or the other:
 *
 * - {@link outboundWatch}: stored with the message itself (one transaction), a pending item with a due-time GSI4 key
 *   (`OUTDUE#<shard>` / `<dueAt>#…`: due work is a due-time index item, never a scan); every company's sends
 *   spread over `dueShardsOf("outbound")` partitions (`db/keys.ts`), and the tick reads the due part of each shard ever
 *   written to: one Query per shard.
 * - {@link failPendingSend}: the session-command DLQ consumer and the sweep mark a message still at ack 0 failed
 *   (`ack -1`, `sendError`, the failed state the web offers "retry" for) and publish the `appMessage` update.
 * - {@link sweepOutbound}: the minute tick re-drives a message still at ack 0 after {@link OUTBOUND_DEADLINE_MS} once
 *   (the same command id, so a command already DONE or in hand is not sent twice) and fails it at the second deadline.
 */
import { dueShardsToRead } from "../db/keys.ts";
import { log } from "../log.ts";
import { dispatch } from "../events/index.ts";
import "./events.ts";
import { enqueue } from "../sqs/enqueue.ts";
import { getTicketItem } from "../tickets/repository.ts";
import { commandQueueUrl, SessionCommand, shardOf } from "../whatsapp/commands.ts";
import {
  deleteOutboundPending,
  dueOutboundPending,
  failMessageAtAck0,
  getMessage,
  getMessageLocation,
  type OutboundPending,
  putOutboundPending,
} from "./repository.ts";
import type { MessageItem } from "./schema.ts";

/** How long a message may wait at ack 0 before the sweep re-drives it, and again before it is failed (10 min). */
export const OUTBOUND_DEADLINE_MS = 10 * 60_000;

/**
 * The pending item of outbound message `messageId` (ticket `ticketId`) whose `send` command will be `commandId`, due
 * for the sweep at `now + OUTBOUND_DEADLINE_MS`. The outbound path stores it in the message's own transaction
 * (`ingestMessage` `pending`), before the command is enqueued: a process that dies in between leaves it to the sweep.
 */
export function outboundWatch(companyId: number, ticketId: number, whatsappId: number, messageId: string, commandId: string, now = Date.now()): OutboundPending {
  return { companyId, ticketId, whatsappId, messageId, commandId, dueAt: new Date(now + OUTBOUND_DEADLINE_MS).toISOString(), redriven: false };
}

/**
 * Marks message `messageId` failed with `sendError = code` when it is still at ack 0 (conditional: a send that
 * succeeded meanwhile wins) and publishes the `appMessage` update to whoever sees the ticket. Returns the failed
 * message, or null when it was not at ack 0 (or is unknown).
 */
export async function failPendingSend(companyId: number, ticketId: number, messageId: string, code: string): Promise<MessageItem | null> {
  const loc = await getMessageLocation(companyId, messageId, ticketId);
  if (!loc) return null;
  const failed = await failMessageAtAck0(companyId, ticketId, loc.messageSK, code);
  if (!failed) return null;
  const ticket = await getTicketItem(companyId, ticketId);
  if (ticket) await dispatch({ type: "message.updated", companyId, message: failed, ticket });
  return failed;
}

/**
 * The minute tick's sweep: every pending outbound item due at `now` or before, however old (each shard's due part: one
 * Query per shard while nothing is due): a message no longer at ack 0 is forgotten; one still at ack 0 is re-driven
 * once (its `send` command again, same command id), then failed with `ERR_SENDING_WAPP_MSG` at the next deadline.
 * Returns the counts.
 */
export async function sweepOutbound(now = Date.now()): Promise<{ settled: number; redriven: number; failed: number }> {
  const counts = { settled: 0, redriven: 0, failed: 0 };
  const until = new Date(now).toISOString();
  for (let shard = 0, shards = dueShardsToRead("outbound"); shard < shards; shard++) {
    for await (const items of dueOutboundPending(shard, until)) {
      for (const p of items) {
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

async function settle(p: OutboundPending, now: number): Promise<"settled" | "redriven" | "failed"> {
  const m = await getMessage(p.companyId, p.ticketId, p.messageId);
  if (m?.ack !== 0) {
    await deleteOutboundPending(p.companyId, p.ticketId, p.messageId);
    return "settled";
  }
  if (!p.redriven) {
    const cmd = SessionCommand.parse({ type: "send", commandId: p.commandId, companyId: p.companyId, whatsappId: p.whatsappId, ticketId: p.ticketId, messageId: p.messageId });
    await enqueue(commandQueueUrl(shardOf(p.whatsappId)), cmd, { groupId: String(p.whatsappId), dedupeId: `${p.commandId}-redrive` });
    const dueAt = new Date(now + OUTBOUND_DEADLINE_MS).toISOString();
    await putOutboundPending({ ...pendingFields(p), dueAt, redriven: true }, now);
    return "redriven";
  }
  await failPendingSend(p.companyId, p.ticketId, p.messageId, "ERR_SENDING_WAPP_MSG");
  await deleteOutboundPending(p.companyId, p.ticketId, p.messageId);
  return "failed";
}

/** The fields of a pending item (a read item also carries its keys, `_type` and `expiresAt`). */
const pendingFields = (p: OutboundPending): OutboundPending => ({
  companyId: p.companyId,
  ticketId: p.ticketId,
  whatsappId: p.whatsappId,
  messageId: p.messageId,
  commandId: p.commandId,
  dueAt: p.dueAt,
  redriven: p.redriven,
});
