/**
 * The stored shape of an entity's attachment (a quick message's, a queue's, a queue option's, ...): one file per
 * entity, owned by the media port (`media/attachments.ts`). Pure zod, so contracts and the web may import it.
 */
import { z } from "zod";

/**
 * A media file attached to an entity (`mediaPath`, `mediaName`): its S3 key (chosen by the server, under the company
 * and the entity) and file name, and its bytes and MIME type as uploaded (absent on media that predates them: read
 * from S3 then).
 */
export const attachedMedia = {
  mediaPath: z.string().nullable().default(null),
  mediaName: z.string().nullable().default(null),
  mediaSize: z.number().int().nullable().optional(),
  mediaMime: z.string().nullable().optional(),
};

/** The attachment fields of an entity, as stored. */
export const AttachedMedia = z.object(attachedMedia);
export type AttachedMedia = z.infer<typeof AttachedMedia>;

/** The attachment fields of an entity without media. */
export const NO_MEDIA = { mediaPath: null, mediaName: null, mediaSize: null, mediaMime: null } as const satisfies AttachedMedia;
