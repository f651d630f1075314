/**
 * `messages.upsert` (`notify` and `append`; `append`/history never bumps unread): each message of the batch on its
 * own, with bounded retries; one that keeps failing is parked and re-driven by {@link redriveParked}.
 * A message is stored (`store.ts`), or, when it is a reaction, an edit or a revoke, applied to its target (`targets.ts`).
 */
import { randomUUID } from "node:crypto";
import { log } from "../../log.ts";
import { mapContent } from "../content.ts";
import { groupsIgnored, guard, MAX_WA_ID_CHARS, type IngestContext, type Skips } from "../context.ts";
import { resolveKey } from "../identity.ts";
import { dueParked, flushHeld, heldCount, keepRaw, parkInbound, rawFromJson, reschedule, unpark } from "../parking.ts";
import { MessagesUpsert, StubType, WAMessage } from "../schema.ts";
import { storeMessage } from "../store.ts";
import { applyEdit, applyReaction, applyRevoke } from "../targets.ts";

/** Body shown for a view-once message whose media WhatsApp kept on the phone (our own wording, Portuguese). */
export const VIEW_ONCE_BODY = "📷 Mensagem de visualização única: abra no celular para ver";

export async function onMessagesUpsert(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const p = MessagesUpsert.safeParse(data);
  if (!p.success) {
    skipped.push({ reason: "invalid messages.upsert payload" });
    await keepRaw(ctx, data, "invalid messages.upsert payload", "upsert");
    return;
  }
  // Only live messages (`notify`, or a payload printed without its type) count as unread.
  const type = p.data.type === undefined || p.data.type === "notify" ? "notify" : "append";
  // Each message on its own: one that keeps failing is parked for a re-drive, the rest go on.
  for (const raw of p.data.messages) {
    // One processing token per message, kept through the retries and the parking (`store.ts` `Incoming.token`).
    const token = randomUUID();
    try {
      await guard(skipped, () => ingestOne(ctx, raw, type, skipped, token));
    } catch (err) {
      const waId = (raw as { key?: { id?: unknown } } | null)?.key?.id;
      await parkInbound(ctx, raw, typeof waId === "string" ? waId : "unknown", type, err, Date.now(), token);
      skipped.push({ reason: `parked for re-drive: ${(err as Error)?.name ?? "Error"}` });
    }
  }
}

/**
 * Re-drives the parked inbound messages of `shards` that are due at `now`: each is ingested again (a
 * duplicate is recognised by its alias and simply unparked); a failure is rescheduled with backoff, and given up as
 * dead (kept raw) after `retryOptions.parkedMaxAttempts`. Messages this process held in memory are parked first.
 * `contextFor` gives the live session's context (media download) when the runner has one. Returns the counts.
 */
export async function redriveParked(opts: {
  shards: number[];
  now?: number;
  contextFor?: (companyId: number, whatsappId: number) => IngestContext | undefined;
}): Promise<{ stored: number; rescheduled: number; dead: number; held: number }> {
  const now = opts.now ?? Date.now();
  const counts = { stored: 0, rescheduled: 0, dead: 0, held: 0 };
  await flushHeld();
  for (const shard of opts.shards) {
    for (const p of await dueParked(shard, now)) {
      const ctx = opts.contextFor?.(p.companyId, p.whatsappId) ?? { companyId: p.companyId, whatsappId: p.whatsappId };
      const skipped: Skips = [];
      try {
        const token = p.token ?? randomUUID();
        await guard(skipped, () => ingestOne(ctx, rawFromJson(p.raw), p.type, skipped, token));
        await unpark(p);
        counts.stored++;
      } catch (err) {
        try {
          counts[await reschedule(p, err, now)]++;
        } catch (e) {
          log("warn", "parked inbound message not rescheduled", { companyId: p.companyId, whatsappId: p.whatsappId, err: e });
        }
      }
    }
  }
  counts.held = heldCount();
  return counts;
}

/** One WAMessage of a batch: stored, applied to its target, or skipped with a reason (unreadable ones kept raw). */
async function ingestOne(ctx: IngestContext, raw: unknown, type: "notify" | "append", skipped: Skips, token: string): Promise<void> {
  const parsed = WAMessage.safeParse(raw);
  if (!parsed.success) {
    skipped.push({ reason: "unreadable message" });
    const id = (raw as { key?: { id?: unknown } } | null)?.key?.id;
    await keepRaw(ctx, raw, "unreadable message", typeof id === "string" ? id.slice(0, 128) : "unknown");
    return;
  }
  const m = parsed.data;
  const resolved = resolveKey(m.key, m.participant);
  if (!resolved.ok) {
    skipped.push({ reason: resolved.reason });
    return;
  }
  if (!m.key.id || m.key.id.length > MAX_WA_ID_CHARS) {
    skipped.push({ reason: m.key.id ? "invalid message id" : "missing message id" });
    return;
  }
  const identity = resolved.identity;
  let content = mapContent(m.message);
  if (content.kind === "none" && m.key.isViewOnce && !m.message && !m.key.fromMe) {
    // WhatsApp no longer delivers view-once media to linked devices, only this key: the agent is told to look at the phone.
    content = { kind: "message", contentType: "viewOnceStub", mediaType: "chat", body: VIEW_ONCE_BODY, preview: VIEW_ONCE_BODY, quotedMsgId: null, isForwarded: false };
  }
  if (content.kind === "none") {
    const stub = m.messageStubType != null ? StubType[m.messageStubType] : undefined;
    skipped.push({ reason: m.message == null && stub ? `stub ${stub}` : content.reason });
    return;
  }
  if (identity.isGroup && (await groupsIgnored(ctx.companyId))) {
    skipped.push({ reason: "group messages ignored (CheckMsgIsGroup)" });
    return;
  }
  const fromMe = !!m.key.fromMe;
  const sender = { fromMe, participant: identity.participant };
  switch (content.kind) {
    case "reaction":
      return applyReaction(ctx, identity, sender, content.target.id!, content.emoji, content.atMs, skipped);
    case "edit":
      return applyEdit(ctx, identity, content.targetId ?? m.key.id, content.body, skipped, sender);
    case "revoke":
      return applyRevoke(ctx, identity, content.targetId, skipped, sender);
    case "message":
      return storeMessage(ctx, { raw, waId: m.key.id, identity, fromMe, pushName: m.pushName, timestamp: m.messageTimestamp, status: m.status, type, content, token }, skipped);
  }
}
