/** How a message is shown by the API and the realtime frames. */
import { log } from "../log.ts";
import { presignMediaGet } from "../storage/media.ts";
import type { MessageItem, MessageView } from "./schema.ts";

/** Presigned URL lifetime of media links (seconds). */
export const MEDIA_URL_TTL_SECONDS = 300;

/** A message as the API returns it: `mediaUrl` is a presigned GET (300 s) scoped to the company, or null. */
export async function toMessageView(companyId: number, m: MessageItem): Promise<MessageView> {
  let mediaUrl: string | null = null;
  if (m.mediaKey) {
    try {
      mediaUrl = await presignMediaGet(companyId, m.mediaKey, MEDIA_URL_TTL_SECONDS, m.mediaName ?? undefined, m.mediaMime);
    } catch (err) {
      log("warn", "media presign failed", { companyId, messageId: m.id, err });
    }
  }
  return { ...m, mediaUrl, quotedMsg: m.quotedMsg ?? null };
}
