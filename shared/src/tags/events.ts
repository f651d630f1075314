/**
 * Tags' domain events (live channel `company-{id}-tag`, docs/product/realtime.md#channels), declared from the
 * feature's own folder: `tag.created|updated` carry the tag, `tag.deleted` its id. The realtime frame is the old clients'
 * `{action: "create"|"update", tag}` / `{action: "delete", tagId}` to the whole company.
 */
import { z } from "zod";
import { defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { TagEvent, TagItem } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "tag.created": { type: "tag.created"; companyId: number; tag: TagItem };
    /** `changed`: the only fields that moved, when the writer knows them (absent: any may have). */
    "tag.updated": { type: "tag.updated"; companyId: number; tag: TagItem; changed?: string[] };
    "tag.deleted": { type: "tag.deleted"; companyId: number; tagId: number };
  }
}

const base = <T extends string>(type: T) => z.object({ type: z.literal(type), companyId: z.number().int() });
defineEvents({
  "tag.created": base("tag.created").extend({ tag: TagItem }),
  "tag.updated": base("tag.updated").extend({ tag: TagItem, changed: z.array(z.string()).optional() }),
  "tag.deleted": base("tag.deleted").extend({ tagId: z.number().int() }),
});

defineFrames({ tag: TagEvent });

realtimeFrames("tag.created", (e) => [{ name: "tag", data: { action: "create", tag: e.tag } }]);
realtimeFrames("tag.updated", (e) => [{ name: "tag", data: { action: "update", tag: e.tag } }]);
realtimeFrames("tag.deleted", (e) => [{ name: "tag", data: { action: "delete", tagId: e.tagId } }]);
