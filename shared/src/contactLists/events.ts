/**
 * Contact lists' domain events: `contactList.created|updated|deleted` and `contactListItem.created|updated|deleted|reloaded`
 * (many items at once: an import, a WhatsApp check). An import's progress is its job's (`company-{id}-job`). Frames `company-{id}-ContactList` and
 * `company-{id}-ContactListItem` go to the admins (who manage the lists).
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import type { Audience } from "../realtime/publish.ts";
import { ContactList, ContactListEvent, ContactListItem, ContactListItemEvent } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "contactList.created": { type: "contactList.created"; companyId: number; record: ContactList };
    "contactList.updated": { type: "contactList.updated"; companyId: number; record: ContactList };
    "contactList.deleted": { type: "contactList.deleted"; companyId: number; id: number };
    "contactListItem.created": { type: "contactListItem.created"; companyId: number; record: ContactListItem };
    "contactListItem.updated": { type: "contactListItem.updated"; companyId: number; record: ContactListItem };
    "contactListItem.deleted": { type: "contactListItem.deleted"; companyId: number; id: number; contactListId: number };
    "contactListItem.reloaded": { type: "contactListItem.reloaded"; companyId: number; contactListId: number };
  }
}

defineEvents({
  "contactList.created": baseEvent("contactList.created").extend({ record: ContactList }),
  "contactList.updated": baseEvent("contactList.updated").extend({ record: ContactList }),
  "contactList.deleted": baseEvent("contactList.deleted").extend({ id: z.number().int() }),
  "contactListItem.created": baseEvent("contactListItem.created").extend({ record: ContactListItem }),
  "contactListItem.updated": baseEvent("contactListItem.updated").extend({ record: ContactListItem }),
  "contactListItem.deleted": baseEvent("contactListItem.deleted").extend({ id: z.number().int(), contactListId: z.number().int() }),
  "contactListItem.reloaded": baseEvent("contactListItem.reloaded").extend({ contactListId: z.number().int() }),
});

defineFrames({ ContactList: ContactListEvent, ContactListItem: ContactListItemEvent });

const managers: Audience = { kind: "admins" };

realtimeFrames("contactList.created", (e) => [{ name: "ContactList", data: { action: "create", record: e.record }, audience: managers }]);
realtimeFrames("contactList.updated", (e) => [{ name: "ContactList", data: { action: "update", record: e.record }, audience: managers }]);
realtimeFrames("contactList.deleted", (e) => [{ name: "ContactList", data: { action: "delete", id: e.id }, audience: managers }]);
realtimeFrames("contactListItem.created", (e) => [{ name: "ContactListItem", data: { action: "create", record: e.record }, audience: managers }]);
realtimeFrames("contactListItem.updated", (e) => [{ name: "ContactListItem", data: { action: "update", record: e.record }, audience: managers }]);
realtimeFrames("contactListItem.deleted", (e) => [
  { name: "ContactListItem", data: { action: "delete", id: e.id, contactListId: e.contactListId }, audience: managers },
]);
realtimeFrames("contactListItem.reloaded", (e) => [{ name: "ContactListItem", data: { action: "reload", contactListId: e.contactListId }, audience: managers }]);
