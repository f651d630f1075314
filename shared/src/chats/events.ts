/**
 * Internal chat's domain events (docs/product/chats.md#live), declared from the feature's own folder. Every frame is
 * `company-{id}-chat` and goes to the chat's members only (one frame per member, over one listing of the company's
 * sockets): `chat.created|updated` → `{action: "create"|"update", record}` (an update also sends
 * `{action: "delete", id}` to members just removed); `chat.deleted` → `{action: "delete", id}`; `chat.message` →
 * `{action: "new-message", newMessage, chat}`; `chat.read` → `{action: "update", record}` to the reader only (their
 * other tabs and devices clear the unread dot).
 */
import { z } from "zod";
import { baseEvent, defineEvents, realtimeFrames, type Frame } from "../events/index.ts";
import { Chat, ChatMessage } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "chat.created": { type: "chat.created"; companyId: number; record: Chat };
    "chat.updated": { type: "chat.updated"; companyId: number; record: Chat; removed: number[] };
    "chat.deleted": { type: "chat.deleted"; companyId: number; id: number; members: number[] };
    "chat.message": { type: "chat.message"; companyId: number; newMessage: ChatMessage; chat: Chat };
    "chat.read": { type: "chat.read"; companyId: number; record: Chat; userId: number };
  }
}

defineEvents({
  "chat.created": baseEvent("chat.created").extend({ record: Chat }),
  "chat.updated": baseEvent("chat.updated").extend({ record: Chat, removed: z.array(z.number().int()) }),
  "chat.deleted": baseEvent("chat.deleted").extend({ id: z.number().int(), members: z.array(z.number().int()) }),
  "chat.message": baseEvent("chat.message").extend({ newMessage: ChatMessage, chat: Chat }),
  "chat.read": baseEvent("chat.read").extend({ record: Chat, userId: z.number().int() }),
});

/** One `chat` frame per user in `userIds`. */
const toUsers = (userIds: number[], data: unknown): Frame[] => userIds.map((userId) => ({ name: "chat", data, audience: { kind: "user", userId } }));
const membersOf = (c: Chat) => c.users.map((u) => u.userId);

realtimeFrames("chat.created", (e) => toUsers(membersOf(e.record), { action: "create", record: e.record }));
realtimeFrames("chat.updated", (e) => [...toUsers(membersOf(e.record), { action: "update", record: e.record }), ...toUsers(e.removed, { action: "delete", id: e.record.id })]);
realtimeFrames("chat.deleted", (e) => toUsers(e.members, { action: "delete", id: e.id }));
realtimeFrames("chat.message", (e) => toUsers(membersOf(e.chat), { action: "new-message", newMessage: e.newMessage, chat: e.chat }));
realtimeFrames("chat.read", (e) => toUsers([e.userId], { action: "update", record: e.record }));
