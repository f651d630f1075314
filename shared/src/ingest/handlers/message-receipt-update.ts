/** `message-receipt.update`: delivery, read and played receipts (groups), raising a stored message's ack to 3, 4 or 5. */
import { eachGuarded, parseKeyed, type IngestContext, type Skips } from "../context.ts";
import { resolveKey } from "../identity.ts";
import { ReceiptUpdate } from "../schema.ts";
import { applyAck } from "../targets.ts";

export async function onMessageReceiptUpdate(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  await eachGuarded("message-receipt.update", data, skipped, async (raw) => {
    const item = parseKeyed(ReceiptUpdate, raw, "unreadable receipt", skipped);
    if (!item) return;
    const r = item.receipt;
    const ack = r.playedTimestamp ? 5 : r.readTimestamp ? 4 : r.receiptTimestamp ? 3 : undefined;
    const resolved = resolveKey(item.key);
    if (!resolved.ok || ack == null) {
      skipped.push({ reason: resolved.ok ? "receipt without timestamps" : resolved.reason });
      return;
    }
    await applyAck(ctx, resolved.identity, item.key.id, ack, skipped);
  });
}
