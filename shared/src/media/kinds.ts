/**
 * Attachment kinds: what each entity with a file (a quick message, a queue, a queue option, a ticket's outbound
 * upload, ...) accepts, declared from the feature's own folder with {@link defineAttachmentKind}. Pure (no I/O), so
 * a feature's `schema.ts` may declare its kind and the web may read its rules. The media port
 * (`media/attachments.ts`) applies them: keys, uploads, checks, copies into tickets, deletion.
 */
import type { ErrorCode } from "../errors.ts";

/** What a feature declares for its entity's files. */
export interface AttachmentRules {
  /** The folder of the kind's objects: every key is `media/<companyId>/<folder>/<entityId>/<uuid>[.<ext>]`. */
  folder: string;
  /** Accepted MIME types (`image/png`, or a family `image/*`); absent = any type. */
  types?: readonly string[];
  /** The field message when a file of another type is refused. */
  typeMessage?: string;
  /**
   * Largest file in bytes; absent = the outbound limit of the file's type (`MEDIA_SIZE_LIMITS` of
   * `storage/media.ts`: what a WhatsApp message of that type may carry here).
   */
  maxBytes?: number;
  /** The stored `mediaName` from the uploaded file's name (default: as uploaded). */
  fileName?: (name: string) => string;
  /** The error of an upload without a file (default `ERR_VALIDATION` on the field `file`). */
  missingFile?: ErrorCode;
}

/** A declared kind (its rules, frozen). */
export type AttachmentKind = Readonly<AttachmentRules>;

/**
 * Declares an entity's attachment kind (its rules, frozen). Each entity has its own folder, so its objects stay under
 * its own prefix.
 * @throws Error when the folder is not a plain lowercase name.
 */
export function defineAttachmentKind(rules: AttachmentRules): AttachmentKind {
  if (!/^[a-z][a-z0-9-]*$/.test(rules.folder)) throw new Error(`attachment folder ${rules.folder} is not a plain name`);
  return Object.freeze({ ...rules, types: rules.types ? Object.freeze([...rules.types]) : undefined });
}

/** True when `contentType` is one of the kind's types (any type when it declares none). */
export function acceptsType(kind: AttachmentKind, contentType: string): boolean {
  if (!kind.types) return true;
  const mime = contentType.split(";")[0].trim().toLowerCase();
  return kind.types.some((t) => (t.endsWith("/*") ? mime.startsWith(t.slice(0, -1)) : mime === t));
}

/** The `mediaName` the kind stores for an uploaded file's name. */
export const storedName = (kind: AttachmentKind, name: string): string => (kind.fileName ? kind.fileName(name) : name);
