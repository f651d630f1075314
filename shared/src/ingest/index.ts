/**
 * The ingest service (docs/architecture.md#1-parts-and-data-flow): the one place where
 * Baileys events become contacts, tickets and messages. The session runner calls {@link handleBaileysEvent} for every
 * event it receives; the simulator feeds the same shapes. This file is the dispatcher: one handler module per Baileys
 * event under `./handlers/`, the new-message path in `./store.ts`, changes to stored messages in
 * `./targets.ts`, media in `./media.ts`, delivery safety in `./parking.ts`, shared helpers in `./context.ts`.
 *
 * Events handled: `messages.upsert` (`notify` and `append`; `append`/history never bumps unread), `messages.update`
 * (acks, edits, revokes), `messages.reaction`, `message-receipt.update`, `presence.update`, `call`, `chats.update`,
 * `contacts.upsert`/`contacts.update`, `groups.update`, and Baileys 7's `lid-mapping.update` (a LID and its phone
 * number: merged onto an existing contact). Everything else (including `connection.update` and
 * `creds.update`, which the runner owns) is answered `{handled: false}`.
 *
 * Errors: a bad or meaningless payload is never thrown — it is skipped with a reason; infrastructure failures
 * (DynamoDB/S3 unreachable, a transaction that keeps conflicting) are retried a few times, then a message is parked
 * for a re-drive and other items are thrown so the runner retries the event, which is safe because every write is
 * idempotent (the WhatsApp-id alias dedupes messages).
 */
import type { Handler, IngestContext, Skips } from "./context.ts";
import { onCall } from "./handlers/call.ts";
import { onChatsUpdate } from "./handlers/chats-update.ts";
import { onContactsUpdate, onContactsUpsert } from "./handlers/contacts-update.ts";
import { onGroupsUpdate } from "./handlers/groups-update.ts";
import { onLidMappingUpdate } from "./handlers/lid-mapping-update.ts";
import { onMessageReceiptUpdate } from "./handlers/message-receipt-update.ts";
import { onMessagesReaction } from "./handlers/messages-reaction.ts";
import { onMessagesUpdate } from "./handlers/messages-update.ts";
import { onMessagesUpsert } from "./handlers/messages-upsert.ts";
import { onPresenceUpdate } from "./handlers/presence-update.ts";

export { ingestOptions, type IngestContext, type MediaDownload } from "./context.ts";
export { callLogBody } from "./handlers/call.ts";
export { redriveParked, VIEW_ONCE_BODY } from "./handlers/messages-upsert.ts";
export { mediaSizeLimits, tooLargeNote } from "./media.ts";
export { ackOf, clearIngestCaches, waTime } from "./store.ts";

/** Baileys event name (`BaileysEventMap` key) → its handler. */
const HANDLERS: Record<string, Handler> = {
  "messages.upsert": onMessagesUpsert,
  "messages.update": onMessagesUpdate,
  "messages.reaction": onMessagesReaction,
  "message-receipt.update": onMessageReceiptUpdate,
  "presence.update": onPresenceUpdate,
  call: onCall,
  "chats.update": onChatsUpdate,
  "contacts.upsert": onContactsUpsert,
  "contacts.update": onContactsUpdate,
  "groups.update": onGroupsUpdate,
  "lid-mapping.update": onLidMappingUpdate,
};

/**
 * Feeds one Baileys event (`event` = the `BaileysEventMap` name, `data` = the listener's argument) through ingestion.
 * Returns `handled: false` for events ingestion does not own, and every item it skipped with the reason.
 * Never throws on a bad payload; throws on infrastructure errors (the runner retries).
 */
export async function handleBaileysEvent(
  ctx: IngestContext,
  event: string,
  data: unknown,
): Promise<{ handled: boolean; skipped: { reason: string }[] }> {
  const handler = HANDLERS[event];
  if (!handler) return { handled: false, skipped: [{ reason: `event not ingested: ${event}` }] };
  const skipped: Skips = [];
  await handler(ctx, data, skipped);
  return { handled: true, skipped };
}
