/**
 * Announcements' domain events (docs/product/announcements.md#live): `announcement.created|updated` carry the
 * announcement as answered, `announcement.deleted` its id. Their frames are platform frames: `company-{id}-announcement`
 * goes to every connected user of every company (each socket addressed with its own company id) through the platform
 * channel, one listing of every socket, never a loop over companies. An inactive announcement goes as an update to
 * super users and as a delete to everyone else (they no longer see it).
 */
import { z } from "zod";
import { baseEvent, defineEvents, realtimeFrames, type Frame } from "../events/index.ts";
import type { Audience } from "../realtime/publish.ts";
import { Announcement } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "announcement.created": { type: "announcement.created"; companyId: number; record: Announcement };
    "announcement.updated": { type: "announcement.updated"; companyId: number; record: Announcement };
    "announcement.deleted": { type: "announcement.deleted"; companyId: number; id: number };
  }
}

defineEvents({
  "announcement.created": baseEvent("announcement.created").extend({ record: Announcement }),
  "announcement.updated": baseEvent("announcement.updated").extend({ record: Announcement }),
  "announcement.deleted": baseEvent("announcement.deleted").extend({ id: z.number().int() }),
});

const SUPERS: Audience = { kind: "permission", permission: "routes:super" };
const NOT_SUPERS: Audience = { kind: "permission", permission: "routes:super", not: true };

/** The frames of a created or changed announcement: everyone sees an active one; an inactive one only super users. */
function changed(action: "create" | "update", record: Announcement): Frame[] {
  if (record.status) return [{ name: "announcement", data: { action, record }, platform: true }];
  return [
    { name: "announcement", data: { action, record }, audience: SUPERS, platform: true },
    { name: "announcement", data: { action: "delete", id: record.id }, audience: NOT_SUPERS, platform: true },
  ];
}

realtimeFrames("announcement.created", (e) => changed("create", e.record));
realtimeFrames("announcement.updated", (e) => changed("update", e.record));
realtimeFrames("announcement.deleted", (e) => [{ name: "announcement", data: { action: "delete", id: e.id }, platform: true }]);
