/**
 * S3 media (DESIGN.md §2 `storage/`, architecture §1.9): objects under `media/<companyId>/...` in the private
 * media bucket; browsers get short-lived presigned URLs scoped to the caller's company. The endpoint comes from
 * `AWS_ENDPOINT_URL_S3` (s3rver on one machine, path-style).
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { getConfig } from "../config.ts";
import { AppError } from "../errors.ts";

let s3: S3Client | undefined;
/** The shared S3 client (path-style, so s3rver and the real S3 both work). */
export function s3Client(): S3Client {
  s3 ??= new S3Client({ region: getConfig().AWS_REGION, forcePathStyle: true });
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

/** Stores bytes under `key`. */
export async function putMedia(key: string, body: Uint8Array, contentType: string): Promise<void> {
  await s3Client().send(new PutObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: key, Body: body, ContentType: contentType }));
}

/** Reads an object's bytes. */
export async function getMedia(key: string): Promise<Buffer> {
  const out = await s3Client().send(new GetObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/**
 * A presigned GET URL (default 300 s) for `key`, refused with 404 unless the key is under the caller's
 * company prefix `media/<companyId>/`.
 */
export async function presignMediaGet(companyId: number, key: string, expiresInSeconds = 300, fileName?: string): Promise<string> {
  if (!key.startsWith(`media/${companyId}/`)) throw new AppError("ERR_NOT_FOUND", 404);
  return getSignedUrl(
    s3Client(),
    new GetObjectCommand({
      Bucket: getConfig().MEDIA_BUCKET,
      Key: key,
      ...(fileName ? { ResponseContentDisposition: `inline; filename="${fileName.replace(/"/g, "")}"` } : {}),
    }),
    { expiresIn: expiresInSeconds },
  );
}
