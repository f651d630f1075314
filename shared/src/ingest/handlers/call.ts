/**
 * `call`: one `call_log` message per call (its id is the message id), on the caller's ticket; a ringing call the
 * company does not take (setting `call` disabled) is rejected through `IngestContext.rejectCall` first.
 */
import { callsRefused } from "../../automation/calls.ts";
import { log } from "../../log.ts";
import { eachGuarded, groupsIgnored, MAX_WA_ID_CHARS, type IngestContext, type Skips } from "../context.ts";
import { resolveKey } from "../identity.ts";
import { CallEvent } from "../schema.ts";
import { storeMessage } from "../store.ts";

/** Body of a call log: our own wording, Portuguese like the product's other system texts. */
export function callLogBody(isVideo: boolean): string {
  return isVideo ? "Chamada de vídeo recebida" : "Chamada de voz recebida";
}

const CALL_LOGGED = new Set(["offer", "accept", "reject", "timeout", "terminate"]);

export async function onCall(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  await eachGuarded("call", data, skipped, async (raw) => {
    const p = CallEvent.safeParse(raw);
    if (!p.success || !p.data.id || p.data.id.length > MAX_WA_ID_CHARS) {
      skipped.push({ reason: "unreadable call" });
      return;
    }
    const c = p.data;
    const callId = p.data.id;
    // One log per call (its id is the message id): the first of offer/accept/reject/timeout/terminate that arrives
    // (an offline device may only see the end). Transport/ringing states add nothing visible.
    if (!CALL_LOGGED.has(c.status ?? "")) {
      skipped.push({ reason: `call ${c.status ?? "unknown"} not logged` });
      return;
    }
    const caller = c.from ?? c.chatId;
    const inGroup = !!c.isGroup && !!c.groupJid;
    const resolved = resolveKey(
      inGroup
        ? { remoteJid: c.groupJid, participant: caller, participantAlt: c.callerPn, fromMe: false, id: c.id }
        : { remoteJid: caller, remoteJidAlt: c.callerPn, fromMe: false, id: c.id },
    );
    if (!resolved.ok) {
      skipped.push({ reason: resolved.reason });
      return;
    }
    if (resolved.identity.isGroup && (await groupsIgnored(ctx.companyId))) {
      skipped.push({ reason: "group messages ignored (CheckMsgIsGroup)" });
      return;
    }
    // automation/calls.ts: a ringing call the company does not take is rejected; its log below gets the text.
    if (c.status === "offer" && !inGroup && caller && ctx.rejectCall && (await callsRefused(ctx.companyId))) {
      await ctx.rejectCall(callId, caller).catch((err) => log("warn", "ingest: call not rejected", { companyId: ctx.companyId, callId, err }));
    }
    const date = c.date instanceof Date ? c.date.getTime() : typeof c.date === "string" ? Date.parse(c.date) : c.date;
    const body = callLogBody(!!c.isVideo);
    await storeMessage(
      ctx,
      {
        raw,
        waId: callId,
        identity: resolved.identity,
        fromMe: false,
        timestamp: date && Number.isFinite(date) ? date : undefined,
        type: "notify",
        content: { kind: "message", contentType: "call", mediaType: "call_log", body, preview: body, quotedMsgId: null, isForwarded: false },
      },
      skipped,
    );
  });
}
