/**
 * Changes that land on an already stored message: acks (`messages.update` status,
 * `message-receipt.update`), edits (`isEdited`, the previous body kept in `previousBody`), revokes (`isDeleted`) and
 * reactions (attached to the target, one per sender; an empty emoji removes the sender's reaction).
 *
 * The target is found through the WhatsApp-id alias of the chat (trying the chat's other JID — a LID chat's phone
 * JID — too). Each change is applied only when it changes what an agent sees, then `company-{id}-appMessage`
 * `update` is published; repeated deliveries (Baileys reports edits, revokes and reactions twice) are no-ops.
 */
import { DELETED_MESSAGE_PREVIEW, type MessageItem } from "../messages/schema.ts";
import { refreshPreview } from "../messages/service.ts";
import { findByWaId, getMessageById, updateMessage } from "../messages/repository.ts";
import { dispatch } from "../events/index.ts";
import "../messages/events.ts";
import { getTicket } from "../tickets/service.ts";
import type { IngestContext, Skips } from "./context.ts";
import type { ChatIdentity } from "./identity.ts";

/** Who sent a change: own account (`fromMe`) or a person (group: `participant`). */
export interface Sender {
  fromMe: boolean;
  participant: string | null;
}

/**
 * The stored message with WhatsApp id `waId` in this chat (any of its JIDs), or null. Falls back to the message id
 * alone (ids are the WhatsApp ids, unique per company) on the same connection: an outbound message stored under the
 * contact's phone JID is still found when WhatsApp acknowledges it under the LID.
 */
export async function findTarget(ctx: IngestContext, identity: ChatIdentity, waId: string): Promise<MessageItem | null> {
  if (!waId || waId.length > 128) return null; // not a WhatsApp id (and too long for a key)
  for (const jid of [identity.chatJid, ...identity.altChatJids]) {
    const found = await findByWaId(ctx.companyId, ctx.whatsappId, jid, waId);
    if (found) return found;
  }
  const byId = await getMessageById(ctx.companyId, waId);
  return byId && byId.whatsappId === ctx.whatsappId ? byId : null;
}

type Patch = Partial<Pick<MessageItem, "ack" | "body" | "isEdited" | "previousBody" | "isDeleted" | "reactions">>;

/** `preview`: the ticket list's new preview when the target is the ticket's newest message (edits, revokes). */
async function patchAndPublish(ctx: IngestContext, target: MessageItem, patch: Patch, preview?: string): Promise<void> {
  const updated = await updateMessage(ctx.companyId, target.ticketId, target.id, patch);
  let ticket = await getTicket(ctx.companyId, target.ticketId);
  if (ticket && preview !== undefined) ticket = await refreshPreview(ctx.companyId, ticket, updated, preview);
  if (ticket) await dispatch({ type: "message.updated", companyId: ctx.companyId, message: updated ?? { ...target, ...patch }, ticket });
}

/** Raises the message's ack to `ack` (never lowers it; -1 only replaces a not-yet-sent 0/1). */
export async function applyAck(ctx: IngestContext, identity: ChatIdentity, waId: string, ack: number, skipped: Skips): Promise<void> {
  const target = await findTarget(ctx, identity, waId);
  if (!target) {
    skipped.push({ reason: "ack for an unknown message" });
    return;
  }
  const raise = ack === -1 ? target.ack <= 1 && target.ack !== -1 : ack > target.ack;
  if (!raise) {
    skipped.push({ reason: "ack not newer" });
    return;
  }
  await patchAndPublish(ctx, target, { ack });
}

/**
 * May `sender` change `target`? Own edits/revokes touch own messages; a person's touch theirs (in groups, admins may
 * revoke anyone's, so revokes there are accepted from any participant). Updates Baileys reports on the message's own
 * key (`messages.update`) carry no sender and are trusted.
 */
function authorMatches(target: MessageItem, sender: Sender | undefined, revoke: boolean, isGroup: boolean): boolean {
  if (!sender || (revoke && isGroup)) return true;
  if (target.fromMe !== sender.fromMe) return false;
  if (sender.fromMe || target.participant == null || sender.participant == null) return true;
  return target.participant === sender.participant;
}

/**
 * The target of an edit or revoke (`what`), when `sender` may change it; null (with the skip reason) when it is
 * unknown or someone other than its author sent the change.
 */
async function authoredTarget(
  ctx: IngestContext,
  identity: ChatIdentity,
  targetId: string,
  skipped: Skips,
  sender: Sender | undefined,
  what: "edit" | "revoke",
): Promise<MessageItem | null> {
  const target = await findTarget(ctx, identity, targetId);
  if (!target) {
    skipped.push({ reason: `${what} of an unknown message` });
    return null;
  }
  if (!authorMatches(target, sender, what === "revoke", identity.isGroup)) {
    skipped.push({ reason: `${what} by someone other than the author` });
    return null;
  }
  return target;
}

/** Replaces the body, keeping the one before in `previousBody` and flagging `isEdited`. */
export async function applyEdit(ctx: IngestContext, identity: ChatIdentity, targetId: string, body: string, skipped: Skips, sender?: Sender): Promise<void> {
  const target = await authoredTarget(ctx, identity, targetId, skipped, sender, "edit");
  if (!target) return;
  if (target.isEdited && target.body === body) {
    skipped.push({ reason: "edit already applied" });
    return;
  }
  await patchAndPublish(ctx, target, { body, isEdited: true, previousBody: target.body });
}

/** Marks the message deleted for everyone (`isDeleted`); the body stays for the record. */
export async function applyRevoke(ctx: IngestContext, identity: ChatIdentity, targetId: string, skipped: Skips, sender?: Sender): Promise<void> {
  const target = await authoredTarget(ctx, identity, targetId, skipped, sender, "revoke");
  if (!target) return;
  if (target.isDeleted) {
    skipped.push({ reason: "revoke already applied" });
    return;
  }
  await patchAndPublish(ctx, target, { isDeleted: true }, DELETED_MESSAGE_PREVIEW);
}

/**
 * Sets `sender`'s reaction on the target (one per sender: own account, the contact in a chat, each participant in a
 * group); an empty emoji removes it. `atMs`: the sender's timestamp in ms.
 */
export async function applyReaction(
  ctx: IngestContext,
  identity: ChatIdentity,
  sender: Sender,
  targetId: string,
  emoji: string,
  atMs: number | undefined,
  skipped: Skips,
): Promise<void> {
  const target = await findTarget(ctx, identity, targetId);
  if (!target) {
    skipped.push({ reason: "reaction to an unknown message" });
    return;
  }
  const senderJid = sender.fromMe ? null : identity.isGroup ? sender.participant : identity.chatJid;
  // In a 1:1 chat there is one other person, whichever JID (LID or phone) addressed them this time.
  const same = (r: MessageItem["reactions"][number]) => r.fromMe === sender.fromMe && (sender.fromMe || !identity.isGroup || r.senderJid === senderJid);
  const current = target.reactions.find(same);
  if ((current?.emoji ?? "") === emoji) {
    skipped.push({ reason: "reaction already applied" });
    return;
  }
  const at = atMs && Number.isFinite(atMs) ? new Date(atMs).toISOString() : new Date().toISOString();
  const reactions = [...target.reactions.filter((r) => !same(r)), ...(emoji ? [{ emoji, fromMe: sender.fromMe, senderJid, at }] : [])];
  await patchAndPublish(ctx, target, { reactions });
}
