/** `chats.update`: archive, pin and mute live on the phone only; the inbox has no such state to mirror (each item skipped). */
import type { IngestContext, Skips } from "../context.ts";
import { ChatUpdate } from "../schema.ts";

export async function onChatsUpdate(_ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  if (!Array.isArray(data)) {
    skipped.push({ reason: "invalid chats.update payload" });
    return;
  }
  for (const raw of data) {
    const p = ChatUpdate.safeParse(raw);
    skipped.push({ reason: p.success ? "chat state not shown in the inbox" : "unreadable chats.update item" });
  }
}
