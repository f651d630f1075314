/**
 * S3 media (docs/architecture.md#1-parts-and-data-flow): objects under `media/<companyId>/...` in the private
 * media bucket; browsers get short-lived presigned URLs scoped to the caller's company. The endpoint comes from
 * `AWS_ENDPOINT_URL_S3` (s3rver on one machine, path-style).
 */
import { Readable, Transform } from "node:stream";
import { CopyObjectCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import contentDisposition from "content-disposition";
import pLimit from "p-limit";
import { getConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { sdkLogger } from "../log.ts";

let s3: S3Client | undefined;
/** The shared S3 client (path-style, so s3rver and the real S3 both work). */
export function s3Client(): S3Client {
  s3 ??= new S3Client({ region: getConfig().AWS_REGION, forcePathStyle: true, logger: sdkLogger });
  return s3;
}
/** Forgets the client (tests and the local stack). */
export function resetS3(): void {
  s3 = undefined;
}

/** Object key of a message's media: `media/<cid>/<ticketId>/<messageId>[.<ext>]`. */
export function mediaKey(companyId: number, ticketId: number, messageId: string, ext?: string): string {
  const safe = messageId.replace(/[^A-Za-z0-9_-]/g, "_");
  return `media/${companyId}/${ticketId}/${safe}${ext ? `.${ext.replace(/[^a-z0-9]/gi, "")}` : ""}`;
}

/**
 * Largest media per kind, in bytes (docs/product/messages.md#media), inbound and outbound: an inbound message announcing more
 * (`fileLength`), or whose download passes it, is stored without its file, marked too large; a browser upload over it
 * is refused before any URL is signed. WhatsApp's own limits are 16 MB for images and audio, 64 MB for video (2 GB
 * documents): the runner's memory, not WhatsApp, sets ours.
 */
export const MEDIA_SIZE_LIMITS: Record<"image" | "sticker" | "audio" | "video" | "document", number> = {
  image: 16 * 2 ** 20,
  sticker: 2 * 2 ** 20,
  audio: 16 * 2 ** 20,
  video: 64 * 2 ** 20,
  document: 100 * 2 ** 20,
};

/** The size limit of an outbound file by its MIME type (image, audio, video; anything else is a document). */
export function uploadLimitOf(contentType: string): number {
  const head = contentType.split("/")[0];
  return head === "image" || head === "audio" || head === "video" ? MEDIA_SIZE_LIMITS[head] : MEDIA_SIZE_LIMITS.document;
}

/**
 * A presigned PUT for exactly one object: `key`, `contentType` and `size` bytes are part of the signature,
 * so S3 refuses a PUT with another type or length. The browser sends the returned `headers` with the body.
 */
export async function presignMediaPut(
  key: string,
  contentType: string,
  size: number,
  expiresInSeconds = 300,
): Promise<{ url: string; headers: Record<string, string> }> {
  const url = await getSignedUrl(
    s3Client(),
    new PutObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: key, ContentType: contentType, ContentLength: size }),
    { expiresIn: expiresInSeconds, signableHeaders: new Set(["content-type", "content-length"]) },
  );
  return { url, headers: { "content-type": contentType } };
}

/** An object's size and content type, or null when there is none. */
export async function headMedia(key: string): Promise<{ size: number; contentType: string } | null> {
  try {
    const h = await s3Client().send(new HeadObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: key }));
    return { size: h.ContentLength ?? 0, contentType: h.ContentType ?? "application/octet-stream" };
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (err as Error).name === "NotFound" || (err as Error).name === "NoSuchKey") return null;
    throw err;
  }
}

/** Deletes an object (best effort callers catch). */
export async function deleteMedia(key: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: key }));
}

/**
 * Deletes up to `max` (≤ 1000) objects under `prefix` (one listing, one batch delete); returns how many it deleted,
 * 0 once nothing is left under the prefix (a company's whole media, when the company is removed).
 */
export async function deleteMediaPage(prefix: string, max = 1000): Promise<number> {
  const Bucket = getConfig().MEDIA_BUCKET;
  const out = await s3Client().send(new ListObjectsV2Command({ Bucket, Prefix: prefix, MaxKeys: Math.min(1000, max) }));
  const objects = (out.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
  if (!objects.length) return 0;
  await s3Client().send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: objects, Quiet: true } }));
  return objects.length;
}

/** Copies object `from` to `to` in the media bucket (server side; content type kept). */
export async function copyMedia(from: string, to: string): Promise<void> {
  const bucket = getConfig().MEDIA_BUCKET;
  await s3Client().send(new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: `${bucket}/${from.split("/").map(encodeURIComponent).join("/")}` }));
}

/** Stores bytes under `key`. */
export async function putMedia(key: string, body: Uint8Array, contentType: string): Promise<void> {
  await s3Client().send(new PutObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: key, Body: body, ContentType: contentType }));
}

/** Size of one multipart part (S3's minimum, 5 MiB) and parts in flight: an upload holds at most their product. */
export const MEDIA_PART_BYTES = 5 * 2 ** 20;
export const MEDIA_PARTS_IN_FLIGHT = 1;
/**
 * Media transfers one process runs at once (so media cannot exhaust a runner's memory): every {@link putMediaStream} of the process (the session
 * runner: all its sessions) takes one of these slots for its whole transfer, the others wait their turn with their
 * download not yet read. The runner's media buffers are thus at most MEDIA_TRANSFERS_IN_FLIGHT ×
 * (MEDIA_PARTS_IN_FLIGHT + 1) × MEDIA_PART_BYTES (40 MiB), however many connections receive media at once.
 */
export const MEDIA_TRANSFERS_IN_FLIGHT = 4;
const transferSlots = pLimit(MEDIA_TRANSFERS_IN_FLIGHT);
/** Transfers running and waiting for a slot in this process (tests, the bench). */
export function mediaTransfers(): { active: number; pending: number } {
  return { active: transferSlots.activeCount, pending: transferSlots.pendingCount };
}

/** The outcome of {@link putMediaStream}: stored with its size, or cut at `maxBytes` (nothing kept). */
export type StreamPutResult = { stored: true; size: number } | { stored: false; tooLarge: true; size: number };

class TooLarge extends Error {
  constructor(readonly size: number) {
    super("media passes its size limit");
  }
}

/**
 * Streams `body` to S3 under `key` without holding it whole: `@aws-sdk/lib-storage`'s `Upload`, a plain
 * PutObject below one part, a multipart upload above it, at most {@link MEDIA_PART_BYTES} ×
 * ({@link MEDIA_PARTS_IN_FLIGHT} + 1) bytes in memory. Bytes are counted as they pass: past `maxBytes` the stream is
 * cut, the multipart upload aborted (no object is left) and `{stored: false, tooLarge, size}` answered (size = bytes
 * seen, > maxBytes). `timeoutMs` bounds the whole transfer (rejects, upload aborted). Other failures reject.
 * Waits for one of the process' {@link MEDIA_TRANSFERS_IN_FLIGHT} slots first (`body` is not read meanwhile; the
 * time limit counts from the start of the transfer).
 */
export function putMediaStream(
  key: string,
  body: AsyncIterable<Uint8Array> | Uint8Array,
  contentType: string,
  opts: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<StreamPutResult> {
  return transferSlots(() => transfer(key, body, contentType, opts));
}

async function transfer(
  key: string,
  body: AsyncIterable<Uint8Array> | Uint8Array,
  contentType: string,
  opts: { maxBytes?: number; timeoutMs?: number },
): Promise<StreamPutResult> {
  const max = opts.maxBytes ?? Number.POSITIVE_INFINITY;
  let size = 0;
  const source = body instanceof Uint8Array ? Readable.from([body]) : Readable.from(body, { objectMode: false });
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > max) cb(new TooLarge(size));
      else cb(null, chunk);
    },
  });
  source.on("error", (err) => counter.destroy(err));
  source.pipe(counter);
  const upload = new Upload({
    client: s3Client(),
    params: { Bucket: getConfig().MEDIA_BUCKET, Key: key, Body: counter, ContentType: contentType },
    partSize: MEDIA_PART_BYTES,
    queueSize: MEDIA_PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  let timer: NodeJS.Timeout | undefined;
  let cutErr: unknown;
  counter.on("error", (err) => {
    cutErr = err;
    void upload.abort().catch(() => undefined);
  });
  try {
    await Promise.race([
      upload.done(),
      new Promise<never>((_, reject) => {
        if (opts.timeoutMs != null) timer = setTimeout(() => reject(new Error("media upload timed out")), opts.timeoutMs);
      }),
    ]);
    return { stored: true, size };
  } catch (err) {
    const cause = cutErr ?? err;
    source.destroy();
    counter.destroy();
    await upload.abort().catch(() => undefined);
    if (cause instanceof TooLarge) return { stored: false, tooLarge: true, size: cause.size };
    throw cause;
  } finally {
    clearTimeout(timer);
  }
}

/** Reads an object's bytes. */
export async function getMedia(key: string): Promise<Buffer> {
  const out = await s3Client().send(new GetObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/**
 * The file types a media link may open as a page of its own (`inline`): images, audio and video a browser only shows
 * or plays. Everything else (html, svg, xml, pdf, office files, unknown types) is served as a download.
 */
export const INLINE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/bmp",
  "image/avif",
  "audio/ogg",
  "audio/mpeg",
  "audio/mp4",
  "audio/aac",
  "audio/wav",
  "audio/webm",
  "audio/amr",
  "video/mp4",
  "video/webm",
  "video/ogg",
  "video/3gpp",
  "video/quicktime",
]);

/**
 * The headers a media link answers with for a file of type `mime` named `fileName`: an allowed image, audio or video
 * type ({@link INLINE_MEDIA_TYPES}) opens `inline` as that type; anything else (a customer's `boleto.html`, an svg, an
 * unknown type) is an `attachment` of type `application/octet-stream`, so it never renders as a page of our origin.
 */
export function mediaResponseHeaders(mime: string | null | undefined, fileName?: string): { contentType: string; disposition: string } {
  const base = (mime ?? "").split(";")[0]!.trim().toLowerCase();
  const inline = INLINE_MEDIA_TYPES.has(base);
  const disposition = contentDisposition(fileName || undefined, { type: inline ? "inline" : "attachment" });
  return { contentType: inline ? base : "application/octet-stream", disposition };
}

/**
 * A presigned GET URL (default 300 s) for `key`, refused with 404 unless the key is under the caller's
 * company prefix `media/<companyId>/`. The response's type and disposition are fixed in the signature by
 * {@link mediaResponseHeaders} from `mime` (the message's recorded type), whatever the stored object says.
 */
export async function presignMediaGet(companyId: number, key: string, expiresInSeconds = 300, fileName?: string, mime?: string | null): Promise<string> {
  if (!key.startsWith(`media/${companyId}/`)) throw new AppError("ERR_NOT_FOUND");
  const headers = mediaResponseHeaders(mime, fileName);
  return getSignedUrl(
    s3Client(),
    new GetObjectCommand({
      Bucket: getConfig().MEDIA_BUCKET,
      Key: key,
      ResponseContentType: headers.contentType,
      ResponseContentDisposition: headers.disposition,
    }),
    { expiresIn: expiresInSeconds },
  );
}

/** The image types a platform logo is served as (an SVG only after it was sanitized at upload, `logos/sanitize.ts`). */
const LOGO_INLINE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/x-icon", "image/vnd.microsoft.icon", "image/svg+xml"]);

/**
 * A presigned GET URL (lifetime `expiresInSeconds`) for a platform logo under `media/<cid>/logos/`, shown inline as
 * its type (`image/svg+xml` included: stored only sanitized, and served from the bucket's own origin, never the
 * app's). 404 for any other key or type.
 */
export async function presignLogoGet(key: string, mime: string, expiresInSeconds: number): Promise<string> {
  if (!/^media\/\d+\/logos\//.test(key) || key.includes("..") || !LOGO_INLINE_TYPES.has(mime)) throw new AppError("ERR_NOT_FOUND");
  return getSignedUrl(
    s3Client(),
    new GetObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: key, ResponseContentType: mime, ResponseContentDisposition: "inline", ResponseCacheControl: "private, max-age=3600" }),
    { expiresIn: expiresInSeconds },
  );
}
