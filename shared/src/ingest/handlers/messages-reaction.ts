/** `messages.reaction`: a reaction set or removed (empty emoji) on a stored message, one per sender. */
import { eachGuarded, parseKeyed, type IngestContext, type Skips } from "../context.ts";
import { resolveKey } from "../identity.ts";
import { ReactionEvent } from "../schema.ts";
import { applyReaction } from "../targets.ts";

export async function onMessagesReaction(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  await eachGuarded("messages.reaction", data, skipped, async (raw) => {
    const item = parseKeyed(ReactionEvent, raw, "unreadable messages.reaction item", skipped);
    if (!item) return;
    const { key, reaction } = item;
    // The reaction's own key says who reacted; the chat is the reacted message's.
    const senderKey = reaction.key ?? key;
    const resolved = resolveKey({ ...key, participant: senderKey.participant ?? key.participant, participantAlt: senderKey.participantAlt });
    if (!resolved.ok) {
      skipped.push({ reason: resolved.reason });
      return;
    }
    const sender = { fromMe: !!senderKey.fromMe, participant: resolved.identity.participant };
    await applyReaction(ctx, resolved.identity, sender, key.id, reaction.text ?? "", reaction.senderTimestampMs, skipped);
  });
}
