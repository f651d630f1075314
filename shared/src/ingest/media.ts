/**
 * Inbound media (docs/product/messages.md#media): the announced size is read first, a file under its kind's limit is streamed from
 * WhatsApp's CDN to S3 (multipart, never held whole) and cut at the limit; what is too large is stored without its
 * file, marked, with a note for the agent. Used by `store.ts` for every new message that carries media.
 */
import { extension } from "mime-types";
import { log } from "../log.ts";
import type { MessageItem } from "../messages/schema.ts";
import { MEDIA_SIZE_LIMITS, mediaKey, putMediaStream } from "../storage/media.ts";
import type { MappedMessage, MediaKind } from "./content.ts";
import { ingestOptions, type IngestContext, type MediaDownload } from "./context.ts";

/**
 * Largest inbound media stored per kind, in bytes (the same table limits browser uploads): a message
 * announcing more (`fileLength`), or whose download passes it, is stored without its file, marked too large, with a
 * note for the agent.
 */
export const mediaSizeLimits: Record<MediaKind, number> = MEDIA_SIZE_LIMITS;

/** The note an agent sees on media too large to keep (our own wording, Portuguese like the product's system texts). */
export function tooLargeNote(size: number): string {
  const mb = size / 2 ** 20;
  const shown = mb >= 1024 ? `${(mb / 1024).toFixed(1).replace(".", ",")} GB` : `${Math.ceil(mb)} MB`;
  return `📎 Arquivo grande demais para o atendimento (${shown}): veja no celular.`;
}

/** Downloads with the time limit and the size limit; null on failure, timeout or no downloader. */
async function download(ctx: IngestContext, raw: unknown, maxBytes: number): Promise<MediaDownload> {
  if (!ctx.downloadMedia) return null;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      ctx.downloadMedia(raw, maxBytes).catch(() => null),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), ingestOptions.mediaTimeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function extOf(mimetype: string, fileName: string | null): string | undefined {
  const fromName = fileName?.match(/\.([A-Za-z0-9]{1,8})$/)?.[1];
  return (extension(mimetype) || undefined) ?? fromName;
}

/** The media fields of a stored message. */
export type StoredMedia = Pick<MessageItem, "mediaKey" | "mediaName" | "mediaMime" | "mediaSize" | "mediaError">;

/** The media fields of a message without media. */
export const NO_MEDIA: StoredMedia = { mediaKey: null, mediaName: null, mediaMime: null, mediaSize: null, mediaError: false };

/**
 * Stores a message's file (`content.media`) under the ticket's media prefix: returns the message's media fields and
 * its body (with the too-large note appended when the file was not kept). A failed download or upload is marked
 * `mediaError` and logged, never thrown: the message is stored without its file.
 */
export async function storeMedia(
  ctx: IngestContext,
  at: { raw: unknown; waId: string; ticketId: number },
  content: MappedMessage,
): Promise<{ media: StoredMedia; body: string }> {
  const { companyId, whatsappId } = ctx;
  let body = content.body;
  if (!content.media) return { media: NO_MEDIA, body };
  const limit = mediaSizeLimits[content.media.kind];
  // `fileLength` is read first: an announced 1.5 GB document is never downloaded.
  const announcedTooLarge = content.media.size != null && content.media.size > limit;
  const got = announcedTooLarge ? ({ tooLarge: true, size: content.media.size! } as const) : await download(ctx, at.raw, limit);
  const mimetype = (got && "mimetype" in got ? got.mimetype : "") || content.media.mimetype;
  let media: StoredMedia = { mediaKey: null, mediaName: content.media.fileName, mediaMime: mimetype, mediaSize: content.media.size, mediaError: true };
  let tooLarge = got && "tooLarge" in got ? got.size : null;
  if (got && !("tooLarge" in got)) {
    // Streamed from the CDN to S3 (multipart), never held whole; cut at the kind's limit.
    const key = mediaKey(companyId, at.ticketId, at.waId, extOf(mimetype, content.media.fileName));
    try {
      const put = await putMediaStream(key, "stream" in got ? got.stream : got.bytes, mimetype, { maxBytes: limit, timeoutMs: ingestOptions.mediaTransferTimeoutMs });
      if (put.stored) media = { ...media, mediaKey: key, mediaSize: put.size, mediaError: false };
      else tooLarge = put.size;
    } catch (err) {
      log("warn", "ingest: media upload failed", { companyId, whatsappId, messageId: at.waId, err });
    }
  }
  if (tooLarge != null) {
    media = { ...media, mediaSize: Math.max(tooLarge, content.media.size ?? 0) };
    body = [content.body, tooLargeNote(media.mediaSize!)].filter(Boolean).join("\n\n");
    log("warn", "ingest: media too large, kept without its file", { companyId, whatsappId, messageId: at.waId, size: media.mediaSize, kind: content.media.kind });
  }
  return { media, body };
}
