/**
 * Session commands (docs/architecture.md#7-the-session-runner-session-runner): what the API asks the session runner to do, through the
 * FIFO queue of the connection's shard (MessageGroupId = whatsappId, MessageDeduplicationId = commandId).
 * Each command is idempotent: the runner records `CMD#<commandId>` PROCESSING → DONE and acknowledges a
 * redelivered DONE command without acting again.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { getConfig } from "../config.ts";
import { enqueue } from "../sqs/enqueue.ts";

const base = { commandId: z.string().min(8), companyId: z.number().int(), whatsappId: z.number().int() };

export const SessionCommand = z.discriminatedUnion("type", [
  /** Start (or restart) the session; shows a QR when not paired. */
  z.object({ ...base, type: z.literal("start") }),
  /** End the socket without logging out and open it again (POST /api/whatsapp-restart). */
  z.object({ ...base, type: z.literal("restart") }),
  /** Wipe the auth state and start again with a new QR. */
  z.object({ ...base, type: z.literal("newQr") }),
  /** Log out and stop; status DISCONNECTED. */
  z.object({ ...base, type: z.literal("disconnect") }),
  /**
   * Send a stored outbound message. The runner loads the message item (ticketId, messageId), builds the
   * `AnyMessageContent` (text with signature/variables already applied by the API, or media from S3),
   * sends it with `messageId` = the stored id, then sets ack 1 (or -1 and `sendError` on failure).
   */
  z.object({ ...base, type: z.literal("send"), ticketId: z.number().int(), messageId: z.string() }),
  z.object({ ...base, type: z.literal("edit"), ticketId: z.number().int(), messageId: z.string(), body: z.string() }),
  z.object({ ...base, type: z.literal("delete"), ticketId: z.number().int(), messageId: z.string() }),
  z.object({ ...base, type: z.literal("react"), ticketId: z.number().int(), messageId: z.string(), emoji: z.string() }),
  /** Send read receipts for these inbound messages of a chat. */
  z.object({ ...base, type: z.literal("read"), remoteJid: z.string(), messageIds: z.array(z.string()).max(500) }),
  /**
   * Ask WhatsApp (`onWhatsApp`) which of these contact list items' numbers have an account and record the answers
   * (`contactLists/whatsapp-check.ts`); the runner waits its pace after each batch.
   */
  z.object({
    ...base,
    type: z.literal("checkNumbers"),
    contactListId: z.number().int(),
    items: z.array(z.object({ id: z.number().int(), number: z.string().regex(/^\d{6,20}$/) })).max(100),
  }),
  /**
   * Ask WhatsApp whether a number has an account (Baileys' `onWhatsApp`); the result on the command's record is
   * `{exists, jid}`, or `{error: "ERR_WAPP_NOT_INITIALIZED"}` when the session is not open.
   */
  z.object({ ...base, type: z.literal("checkNumber"), number: z.string().regex(/^\d{8,20}$/) }),
  /** Show "typing…" (`composing`) or stop it (`paused`) in a chat (a bot's pause between its messages). */
  z.object({ ...base, type: z.literal("presence"), remoteJid: z.string(), presence: z.enum(["composing", "paused"]) }),
]);
export type SessionCommand = z.infer<typeof SessionCommand>;
export type SessionCommandInput = SessionCommand extends infer C ? (C extends { commandId: string } ? Omit<C, "commandId"> : never) : never;

/** Session shard of a connection: stable hash of its id over `SESSION_SHARDS`. */
export function shardOf(whatsappId: number): number {
  return whatsappId % getConfig().SESSION_SHARDS;
}

/** Queue URL of a shard's FIFO command queue. */
export function commandQueueUrl(shard: number): string {
  const prefix = getConfig().SESSION_COMMANDS_QUEUE_URL_PREFIX;
  if (!prefix) throw new Error("SESSION_COMMANDS_QUEUE_URL_PREFIX is not set");
  return `${prefix}-${shard}.fifo`;
}

/** Enqueues a session command on its connection's shard queue; returns the command id. */
export async function sendSessionCommand(cmd: SessionCommandInput, commandId: string = randomUUID()): Promise<string> {
  const full = SessionCommand.parse({ ...cmd, commandId });
  await enqueue(commandQueueUrl(shardOf(full.whatsappId)), full, { groupId: String(full.whatsappId), dedupeId: commandId });
  return commandId;
}
