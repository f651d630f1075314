/**
 * THE media port for entities' attachments (a quick message's, a queue's, a queue option's file; a ticket's
 * outbound uploads). Each feature declares its kind (`media/kinds.ts`) from its own folder; this module owns the rest:
 *
 * - keys: chosen by the server, `media/<companyId>/<folder>/<entityId>/<uuid>[.<ext>]` ({@link attachmentKey}); a key
 *   is the entity's only under that prefix ({@link isAttachmentOf}), so another company's or entity's key is refused;
 * - uploads: multipart bytes through the API ({@link replaceAttachment}) or a presigned PUT straight to S3 with the
 *   type and size signed ({@link presignAttachment}, then {@link uploadedAttachment} checks what arrived);
 * - the kind's type and size rules ({@link checkAttachment}): 400 `ERR_VALIDATION` before anything is stored;
 * - sending an entity's media into a ticket ({@link copyIntoMessage}): each message gets its own server-side copy, so
 *   replacing or deleting the entity's media never breaks a ticket's history;
 * - deletion ({@link dropAttachments}): a replaced file and the file of a deleted entity.
 */
import { randomUUID } from "node:crypto";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { copyMedia, deleteMedia, headMedia, mediaKey, presignMediaPut, putMedia, uploadLimitOf } from "../storage/media.ts";
import { acceptsType, storedName, type AttachmentKind } from "./kinds.ts";
import type { AttachedMedia } from "./schema.ts";

/** One uploaded file as the HTTP pipeline hands it over (multipart). */
export interface Upload {
  filename: string;
  mimetype: string;
  content: Uint8Array;
}

/** The prefix of every object of one entity of a kind: `media/<cid>/<folder>/<entityId>/`. */
export const attachmentPrefix = (kind: AttachmentKind, companyId: number, entityId: number): string => `media/${companyId}/${kind.folder}/${entityId}/`;

/** The extension of a file name (lowercase letters and digits, at most 10), or "". */
function extOf(fileName: string): string {
  return fileName.includes(".") ? (fileName.split(".").pop() ?? "").replace(/[^a-z0-9]/gi, "").slice(0, 10).toLowerCase() : "";
}

/** A new key for one file of an entity, chosen here: `<prefix><uuid>[.<ext of fileName>]`. */
export function attachmentKey(kind: AttachmentKind, companyId: number, entityId: number, fileName: string): string {
  const ext = extOf(fileName);
  return `${attachmentPrefix(kind, companyId, entityId)}${randomUUID()}${ext ? `.${ext}` : ""}`;
}

/** True when `key` is one of this entity's objects (under its prefix, no path tricks). */
export function isAttachmentOf(kind: AttachmentKind, companyId: number, entityId: number, key: string): boolean {
  return key.startsWith(attachmentPrefix(kind, companyId, entityId)) && !key.includes("..") && !key.includes("//");
}

/** The largest file of the kind for a MIME type (bytes). */
export const attachmentLimit = (kind: AttachmentKind, contentType: string): number => kind.maxBytes ?? uploadLimitOf(contentType);

const fieldError = (path: string, message: string) => new AppError("ERR_VALIDATION", { fields: [{ path, message }] });

/**
 * Applies the kind's rules to a file about to be stored: its type (400 `ERR_VALIDATION` on `file`, the kind's
 * message) and size (400 `ERR_VALIDATION` on `size`, "Larger than N MB").
 */
export function checkAttachment(kind: AttachmentKind, file: { contentType: string; size: number }): void {
  if (!acceptsType(kind, file.contentType)) throw fieldError("file", kind.typeMessage ?? "File type not accepted");
  const limit = attachmentLimit(kind, file.contentType);
  if (file.size > limit) throw fieldError("size", `Larger than ${Math.floor(limit / 2 ** 20)} MB`);
}

/** The first file of a multipart upload, else the kind's missing-file error. */
function oneFile(kind: AttachmentKind, upload: { files: Upload[] } | undefined): Upload {
  const f = upload?.files[0];
  if (f) return f;
  if (kind.missingFile) throw new AppError(kind.missingFile, { fields: [{ path: "file", message: "Required" }] });
  throw fieldError("file", "Required");
}

/**
 * Stores the first file of a multipart upload as the entity's new media and hands its fields to `write` (which
 * saves the entity). The old object (`previous`) is deleted once `write` succeeded; when `write` fails the new object
 * is deleted and the error rethrown, so an entity never names a missing object. Errors: the kind's missing-file error,
 * 400 `ERR_VALIDATION` (type, size), and whatever `write` throws.
 */
export async function replaceAttachment<T>(
  kind: AttachmentKind,
  companyId: number,
  entityId: number,
  upload: { files: Upload[] } | undefined,
  previous: string | null | undefined,
  write: (media: AttachedMedia & { mediaPath: string }) => Promise<T>,
): Promise<T> {
  const file = oneFile(kind, upload);
  const mime = file.mimetype || "application/octet-stream";
  checkAttachment(kind, { contentType: mime, size: file.content.length });
  const key = attachmentKey(kind, companyId, entityId, file.filename);
  await putMedia(key, file.content, mime);
  let out: T;
  try {
    out = await write({ mediaPath: key, mediaName: storedName(kind, file.filename), mediaSize: file.content.length, mediaMime: mime });
  } catch (err) {
    await dropAttachments(key);
    throw err;
  }
  await dropAttachments(previous);
  return out;
}

/**
 * A presigned PUT (lifetime `expiresInSeconds`) for one file of an entity, after the kind's rules: the key is chosen
 * here, the content type and size are part of the signature (S3 refuses another). 400 `ERR_VALIDATION` on a refused
 * type or size, before anything is signed.
 */
export async function presignAttachment(
  kind: AttachmentKind,
  companyId: number,
  entityId: number,
  file: { fileName: string; contentType: string; size: number },
  expiresInSeconds: number,
): Promise<{ key: string; url: string; method: "PUT"; headers: Record<string, string>; expiresInSeconds: number }> {
  checkAttachment(kind, file);
  const key = attachmentKey(kind, companyId, entityId, file.fileName);
  const { url, headers } = await presignMediaPut(key, file.contentType, file.size, expiresInSeconds);
  return { key, url, method: "PUT", headers, expiresInSeconds };
}

/**
 * What a browser uploaded with {@link presignAttachment}: the object's real size and type, read from S3. 404
 * `ERR_NOT_FOUND` for a key outside this company's entity (another company's, another entity's) or never uploaded;
 * 400 `ERR_VALIDATION` when the object breaks the kind's rules.
 */
export async function uploadedAttachment(kind: AttachmentKind, companyId: number, entityId: number, key: string): Promise<{ key: string; size: number; mime: string }> {
  if (!isAttachmentOf(kind, companyId, entityId, key)) throw new AppError("ERR_NOT_FOUND");
  const head = await headMedia(key);
  if (!head) throw new AppError("ERR_NOT_FOUND");
  checkAttachment(kind, { contentType: head.contentType, size: head.size });
  return { key, size: head.size, mime: head.contentType };
}

/** A stored file an entity carries (a quick message's, a queue's): its key and what is known of it. */
export interface StoredMedia {
  key: string;
  name: string;
  /** Bytes and MIME type as recorded at upload; read from S3 when absent (files uploaded before they were recorded). */
  size?: number | null;
  mime?: string | null;
}

/** An entity's media fields as {@link StoredMedia}, or undefined when it has none. */
export function storedMediaOf(e: Pick<AttachedMedia, "mediaPath" | "mediaName" | "mediaSize" | "mediaMime">): StoredMedia | undefined {
  if (!e.mediaPath) return undefined;
  return { key: e.mediaPath, name: e.mediaName || e.mediaPath.split("/").pop() || "arquivo", size: e.mediaSize ?? null, mime: e.mediaMime ?? null };
}

/**
 * Copies an entity's media into a message of a ticket (server side): `media/<cid>/<ticketId>/<messageId>[.<ext>]`,
 * with its size and MIME type (recorded at upload, else read from S3). Returns the message's media, or null when the
 * source object no longer exists. 404 `ERR_NOT_FOUND` when the source key is not under the company's media prefix.
 */
export async function copyIntoMessage(
  companyId: number,
  ticketId: number,
  messageId: string,
  media: StoredMedia,
): Promise<{ key: string; name: string; mime: string; size: number } | null> {
  if (!media.key.startsWith(`media/${companyId}/`) || media.key.includes("..")) throw new AppError("ERR_NOT_FOUND");
  const head = media.size && media.mime ? null : await headMedia(media.key);
  if (!head && !(media.size && media.mime)) return null;
  const size = media.size || head?.size || 0;
  const mime = media.mime || head?.contentType || "application/octet-stream";
  const ext = extOf(media.name) || extOf(media.key);
  const key = mediaKey(companyId, ticketId, messageId, ext || undefined);
  await copyMedia(media.key, key);
  return { key, name: media.name, mime, size };
}

/**
 * Deletes objects no entity names any more (a replaced file, a deleted entity's file), after the entity was written.
 * Best effort: a failure is logged and leaves an orphan object, never an entity pointing at nothing.
 */
export async function dropAttachments(...keys: (string | null | undefined)[]): Promise<void> {
  for (const key of keys) {
    if (!key) continue;
    await deleteMedia(key).catch((err) => log("warn", "attachment not deleted", { key, err }));
  }
}
