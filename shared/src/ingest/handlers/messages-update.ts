/** `messages.update`: acks (`update.status`), edits and revokes (`update.message`, or Baileys' revoke stub) of a stored message. */
import { mapContent } from "../content.ts";
import { eachGuarded, parseKeyed, type IngestContext, type Skips } from "../context.ts";
import { resolveKey } from "../identity.ts";
import { StubType, WAMessageUpdate } from "../schema.ts";
import { ackOf } from "../store.ts";
import { applyAck, applyEdit, applyRevoke } from "../targets.ts";

export async function onMessagesUpdate(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  await eachGuarded("messages.update", data, skipped, async (raw) => {
    const item = parseKeyed(WAMessageUpdate, raw, "unreadable messages.update item", skipped);
    if (!item) return;
    const { key, update } = item;
    const resolved = resolveKey(key);
    if (!resolved.ok) {
      skipped.push({ reason: resolved.reason });
      return;
    }
    const identity = resolved.identity;
    let applied = false;
    if (update.status != null) {
      applied = true;
      await applyAck(ctx, identity, key.id, ackOf(update.status, !!key.fromMe), skipped);
    }
    if (update.message) {
      const c = mapContent(update.message);
      if (c.kind === "edit") {
        applied = true;
        await applyEdit(ctx, identity, c.targetId ?? key.id, c.body, skipped);
      } else if (c.kind === "revoke") {
        applied = true;
        await applyRevoke(ctx, identity, c.targetId, skipped);
      }
    } else if (update.messageStubType === StubType.REVOKE) {
      // Baileys' revoke form: `key` is the deleted message, `update.key` the protocol message's.
      applied = true;
      await applyRevoke(ctx, identity, key.id, skipped);
    }
    if (!applied) skipped.push({ reason: "update without a visible change" });
  });
}
