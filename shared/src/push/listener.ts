/**
 * The push listener (durable, docs/product/push.md#what-is-pushed): turns the facts worth a notification into one
 * fan-out message on the push queue; the queue's consumer (`./delivery.ts`) finds the devices and sends. Nothing is
 * sent here, so a push service that is down never holds up the request or the ingest.
 *
 * What is pushed, to whom the realtime frames of the same fact already go (`realtime/publish.ts` `Audience`):
 * - a new pending ticket (created pending, or moved to pending or to another queue by an agent or the bot): whoever
 *   may see it (`canSee`: its queue's users, allTicket users when it has no queue, admins);
 * - a customer's message in an open ticket: the agent who holds it;
 * - an internal chat message: the chat's members but its sender;
 * - a new active announcement: every user of every company.
 *
 * `wants` asks the per-process cache of subscribed users (`./audience-cache.ts`): a fact none of whose possible
 * receivers has a subscribed device carries no pending run and reads nothing (the ingest's pinned calls stay as they
 * are for a company without subscriptions; with one, a customer's message to a held ticket costs the pending run's Put
 * and Delete and one SQS send, docs/product/push.md#cost).
 */
import { getConfig } from "../config.ts";
import type { DomainEvent, Listener } from "../events/registry.ts";
import { log } from "../log.ts";
import { enqueue } from "../sqs/enqueue.ts";
import { summariesOf } from "../tickets/summaries.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { knownPushUsers, readPushUsers } from "./audience-cache.ts";
import type { PushFanout } from "./schema.ts";
import { removeUserSubscriptions } from "./service.ts";
// The events handled here (types only).
import type {} from "../tickets/events.ts";
import type {} from "../messages/events.ts";
import type {} from "../chats/events.ts";
import type {} from "../announcements/events.ts";
import type {} from "../users/events.ts";

/** The longest text a fan-out carries (the notification shows less). */
const TEXT_MAX = 400;

const seen = (t: TicketItem) => ({ queueId: t.queueId ?? null, userId: t.userId ?? null, status: t.status, isGroup: !!t.isGroup });
const contactName = (t: TicketItem) => summariesOf(t)?.contact?.name ?? "";

function newPendingTicket(companyId: number, t: TicketItem, text: string, at: string): PushFanout {
  return {
    type: "fanout",
    companyId,
    platform: false,
    audience: { kind: "ticket", ticket: seen(t) },
    exceptUserId: null,
    content: { kind: "ticket", ref: t.uuid, name: contactName(t), text: text.slice(0, TEXT_MAX) },
    at,
  };
}

/** The fan-out a fact calls for, or null when it is not pushed. Pure: reads nothing. */
export function pushFanoutOf(event: DomainEvent): PushFanout | null {
  switch (event.type) {
    case "ticket.created":
      return event.ticket.status === "pending" ? newPendingTicket(event.companyId, event.ticket, event.ticket.lastMessage, event.ticket.createdAt) : null;
    case "ticket.updated": {
      const p = event.previous;
      const t = event.ticket;
      if (!p || t.status !== "pending" || t.userId != null) return null;
      return p.status !== "pending" || p.queueId !== t.queueId ? newPendingTicket(event.companyId, t, t.lastMessage, t.updatedAt) : null;
    }
    case "message.created": {
      const { message: m, ticket: t } = event;
      if (m.fromMe) return null;
      if (event.ticketCreated) return t.status === "pending" ? newPendingTicket(event.companyId, t, m.body, m.createdAt) : null;
      if (t.status !== "open" || t.userId == null) return null;
      return {
        type: "fanout",
        companyId: event.companyId,
        platform: false,
        audience: { kind: "users", userIds: [t.userId] },
        exceptUserId: null,
        content: { kind: "message", ref: t.uuid, name: contactName(t), text: m.body.slice(0, TEXT_MAX) },
        at: m.createdAt,
      };
    }
    case "chat.message": {
      const { chat, newMessage: m } = event;
      return {
        type: "fanout",
        companyId: event.companyId,
        platform: false,
        audience: { kind: "users", userIds: chat.users.map((u) => u.userId) },
        exceptUserId: m.senderId,
        content: { kind: "chat", ref: chat.uuid, name: chat.title, text: m.message.slice(0, TEXT_MAX), sender: m.sender.name },
        at: m.createdAt,
      };
    }
    case "announcement.created": {
      const a = event.record;
      if (!a.status) return null;
      return {
        type: "fanout",
        companyId: event.companyId,
        platform: true,
        audience: { kind: "company" },
        exceptUserId: null,
        content: { kind: "announcement", ref: String(a.id), name: a.title, text: a.text.slice(0, TEXT_MAX) },
        at: a.createdAt,
      };
    }
    default:
      return null;
  }
}

/** False when none of the fan-out's possible receivers has a subscribed device (`users`: the company's subscribed users). */
function mayReach(f: PushFanout, users: Set<number>): boolean {
  if (f.platform) return true;
  if (f.audience.kind === "users") return f.audience.userIds.some((id) => id !== f.exceptUserId && users.has(id));
  return users.size > 0;
}

let warned = false;

export const pushListener: Listener = {
  name: "push",
  durable: true,
  wants(event) {
    const f = pushFanoutOf(event);
    if (!f) return false;
    const users = f.platform ? undefined : knownPushUsers(f.companyId);
    // Unknown company (or stale knowledge): keep a run, the handler reads its subscribed users.
    return !users || mayReach(f, users);
  },
  async handle(event) {
    const f = pushFanoutOf(event);
    if (!f) return;
    const url = getConfig().PUSH_QUEUE_URL;
    if (!url) {
      if (!warned) log("warn", "push: PUSH_QUEUE_URL is not set; nothing is pushed");
      warned = true;
      return;
    }
    if (!f.platform && !mayReach(f, knownPushUsers(f.companyId) ?? (await readPushUsers(f.companyId)))) return;
    await enqueue(url, f);
  },
};

/**
 * Access revoked means no more pushes (docs/product/push.md#when-devices-are-removed): a deleted user's devices are
 * removed, and so are those subscribed under sessions that a logout, a new single-session login or a password change
 * ended (`user.revoked` names the new session version). Best-effort: the delivery drops the same devices when it
 * finds them (user gone, older session version), so a failure here never lets a push through.
 */
export const pushRevocationListener: Listener = {
  name: "pushRevocation",
  async handle(event) {
    if (event.type === "user.deleted") await removeUserSubscriptions(event.companyId, event.userId);
    if (event.type === "user.revoked") await removeUserSubscriptions(event.companyId, event.userId, event.tokenVersion);
  },
};
