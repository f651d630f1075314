/**
 * The core domain events (issue 7 §1) of the attendance features, with their realtime frames (attendance.md §7
 * "Realtime socket", names and shapes unchanged). A new feature declares its own the same way from its own folder
 * (see `./registry.ts`); `tag.*` lives in `shared/src/tags/`.
 */
import { z } from "zod";
import { ContactItem } from "../contacts/schema.ts";
import { contactView } from "../contacts/service.ts";
import { MessageItem } from "../messages/schema.ts";
import { toMessageView } from "../messages/service.ts";
import { QueueItem } from "../queues/schema.ts";
import { SECRET_SETTINGS } from "../settings/service.ts";
import type { SettingKey } from "../settings/schema.ts";
import { TicketItem } from "../tickets/schema.ts";
import { toTicketView } from "../tickets/service.ts";
import type { PublicUser } from "../users/schema.ts";
import { WhatsappItem } from "../whatsapp/schema.ts";
import { toView as whatsappView } from "../whatsapp/service.ts";
import { defineEvents } from "./registry.ts";
import { realtimeFrames, type Frame } from "./realtime.ts";

type Base<T extends string> = { type: T; companyId: number };
type TicketPayload = { ticket: TicketItem };

declare module "./registry.ts" {
  interface EventMap {
    /** A ticket was opened (by ingest or by an agent). */
    "ticket.created": Base<"ticket.created"> & TicketPayload;
    /**
     * A ticket changed; `previous` is given for agent transitions (accept, transfer, close...), absent for bumps.
     * `created`: `previous` was itself created in this request (a forward to a new contact) and told nowhere else.
     */
    "ticket.updated": Base<"ticket.updated"> & TicketPayload & { previous?: TicketItem; created?: boolean };
    "ticket.deleted": Base<"ticket.deleted"> & TicketPayload;
    /**
     * A message was stored (inbound from WhatsApp or sent by an agent); `ticket` is the ticket after the bump;
     * `ticketCreated`: this message opened the ticket (its `ticket.created` is folded in here: one frame set).
     */
    "message.created": Base<"message.created"> & { message: MessageItem; ticket: TicketItem; ticketCreated?: boolean };
    "message.updated": Base<"message.updated"> & { message: MessageItem; ticket: TicketItem };
    "contact.created": Base<"contact.created"> & { contact: ContactItem };
    /** `changed`: the fields this update changed, when the writer knows them (listeners may then skip work). */
    "contact.updated": Base<"contact.updated"> & { contact: ContactItem; changed?: string[] };
    "contact.deleted": Base<"contact.deleted"> & { contact: ContactItem };
    "user.created": Base<"user.created"> & { user: PublicUser };
    "user.updated": Base<"user.updated"> & { user: PublicUser };
    "user.deleted": Base<"user.deleted"> & { userId: number };
    /** A user logged in (token version bumped): their other tabs learn it (single login). */
    "user.loggedIn": Base<"user.loggedIn"> & { user: { id: number; email: string; companyId: number }; tokenVersion: number };
    /** Every session of a user older than `tokenVersion` was revoked (logout, refresh-token reuse). */
    "user.revoked": Base<"user.revoked"> & { userId: number; tokenVersion: number };
    "queue.created": Base<"queue.created"> & { queue: QueueItem };
    "queue.updated": Base<"queue.updated"> & { queue: QueueItem };
    "queue.deleted": Base<"queue.deleted"> & { queueId: number };
    /** A connection's settings changed (name, default, queues...). */
    /** `previous`: the connection before an admin's edit (absent when created), so listeners see what changed. */
    "whatsapp.updated": Base<"whatsapp.updated"> & { whatsapp: WhatsappItem; previous?: WhatsappItem };
    "whatsapp.deleted": Base<"whatsapp.deleted"> & { whatsappId: number };
    /** A connection's session state changed (status, QR code, retries, number), reported by the session runner. */
    "whatsapp.session": Base<"whatsapp.session"> & { whatsapp: WhatsappItem };
    "setting.updated": Base<"setting.updated"> & { key: SettingKey; value: string };
  }
}

const base = <T extends string>(type: T) => z.object({ type: z.literal(type), companyId: z.number().int() });
const publicUser = z.object({ id: z.number().int(), companyId: z.number().int(), name: z.string(), email: z.string(), profile: z.string() }).passthrough();

defineEvents({
  "ticket.created": base("ticket.created").extend({ ticket: TicketItem }),
  "ticket.updated": base("ticket.updated").extend({ ticket: TicketItem, previous: TicketItem.optional(), created: z.boolean().optional() }),
  "ticket.deleted": base("ticket.deleted").extend({ ticket: TicketItem }),
  "message.created": base("message.created").extend({ message: MessageItem, ticket: TicketItem, ticketCreated: z.boolean().optional() }),
  "message.updated": base("message.updated").extend({ message: MessageItem, ticket: TicketItem }),
  "contact.created": base("contact.created").extend({ contact: ContactItem }),
  "contact.updated": base("contact.updated").extend({ contact: ContactItem, changed: z.array(z.string()).optional() }),
  "contact.deleted": base("contact.deleted").extend({ contact: ContactItem }),
  "user.created": base("user.created").extend({ user: publicUser }),
  "user.updated": base("user.updated").extend({ user: publicUser }),
  "user.deleted": base("user.deleted").extend({ userId: z.number().int() }),
  "user.loggedIn": base("user.loggedIn").extend({
    user: z.object({ id: z.number().int(), email: z.string(), companyId: z.number().int() }),
    tokenVersion: z.number().int(),
  }),
  "user.revoked": base("user.revoked").extend({ userId: z.number().int(), tokenVersion: z.number().int() }),
  "queue.created": base("queue.created").extend({ queue: QueueItem }),
  "queue.updated": base("queue.updated").extend({ queue: QueueItem }),
  "queue.deleted": base("queue.deleted").extend({ queueId: z.number().int() }),
  "whatsapp.updated": base("whatsapp.updated").extend({ whatsapp: WhatsappItem, previous: WhatsappItem.optional() }),
  "whatsapp.deleted": base("whatsapp.deleted").extend({ whatsappId: z.number().int() }),
  "whatsapp.session": base("whatsapp.session").extend({ whatsapp: WhatsappItem }),
  "setting.updated": base("setting.updated").extend({ key: z.string(), value: z.string() }),
});

// ---- realtime frames (attendance.md §7) ------------------------------------------------------------------------

/** `company-{id}-ticket` `{action:"update", ticket: TicketView}` to whoever may see the ticket. */
async function ticketUpdateFrame(companyId: number, ticket: TicketItem): Promise<Frame> {
  return { name: "ticket", data: { action: "update", ticket: await toTicketView(companyId, ticket) }, audience: { kind: "ticket", ticket } };
}

realtimeFrames("ticket.created", async (e) => [await ticketUpdateFrame(e.companyId, e.ticket)]);
realtimeFrames("ticket.updated", async (e) => {
  const frames: Frame[] = [];
  const p = e.previous;
  if (p && (p.queueId !== e.ticket.queueId || (p.userId !== e.ticket.userId && p.userId != null))) {
    // Users who could see it only through the old queue/assignee drop it from their lists.
    frames.push({ name: "ticket", data: { action: "delete", ticketId: e.ticket.id }, audience: { kind: "ticket", ticket: p } });
  } else if (p && p.status !== e.ticket.status && e.ticket.status === "closed") {
    // Closing hides it from users who see closed tickets of others only with viewclosed (attendance.md §6).
    frames.push({ name: "ticket", data: { action: "delete", ticketId: e.ticket.id }, audience: { kind: "ticketLost", before: p, after: e.ticket } });
  }
  frames.push(await ticketUpdateFrame(e.companyId, e.ticket));
  return frames;
});
realtimeFrames("ticket.deleted", (e) => [{ name: "ticket", data: { action: "delete", ticketId: e.ticket.id }, audience: { kind: "ticket", ticket: e.ticket } }]);

/**
 * `company-{id}-appMessage` `{action, message: MessageView, ticket: TicketView, contact}` to whoever may see the ticket.
 * One frame per message and socket: the ticket it carries is what a `ticket` update would say (new preview, unread
 * count, order), and clients apply it the same way (Whaticket's clients do too), so no `ticket` frame follows it
 * (half the posts to the sockets per message).
 */
async function appMessageFrame(e: { companyId: number; message: MessageItem; ticket: TicketItem }, action: "create" | "update"): Promise<Frame[]> {
  const [view, ticketView] = await Promise.all([toMessageView(e.companyId, e.message), toTicketView(e.companyId, e.ticket)]);
  return [{ name: "appMessage", data: { action, message: view, ticket: ticketView, contact: ticketView.contact }, audience: { kind: "ticket", ticket: e.ticket } }];
}
realtimeFrames("message.created", (e) => appMessageFrame(e, "create"));
realtimeFrames("message.updated", (e) => appMessageFrame(e, "update"));

for (const action of ["create", "update", "delete"] as const) {
  const type = action === "create" ? "contact.created" : action === "update" ? "contact.updated" : "contact.deleted";
  realtimeFrames(type, (e) => [{ name: "contact", data: action === "delete" ? { action, contactId: e.contact.id } : { action, contact: contactView(e.contact) } }]);
}

realtimeFrames("user.created", (e) => [{ name: "user", data: { action: "create", user: e.user } }]);
realtimeFrames("user.updated", (e) => [{ name: "user", data: { action: "update", user: e.user } }]);
realtimeFrames("user.deleted", (e) => [{ name: "user", data: { action: "delete", userId: e.userId } }]);
realtimeFrames("user.loggedIn", (e) => [
  { name: "auth", data: { action: "update", user: e.user, tokenVersion: e.tokenVersion }, audience: { kind: "user", userId: e.user.id } },
]);

realtimeFrames("queue.created", (e) => [{ name: "queue", data: { action: "create", queue: e.queue } }]);
realtimeFrames("queue.updated", (e) => [{ name: "queue", data: { action: "update", queue: e.queue } }]);
realtimeFrames("queue.deleted", (e) => [{ name: "queue", data: { action: "delete", queueId: e.queueId } }]);

/** Connection frames carry credentials (token) and QR codes: only for holders of `connections:qrcode` (admins). */
const whatsappAudience = { kind: "permission", permission: "connections:qrcode" } as const;
realtimeFrames("whatsapp.updated", (e) => [{ name: "whatsapp", data: { action: "update", whatsapp: whatsappView(e.whatsapp, { admin: true }) }, audience: whatsappAudience }]);
realtimeFrames("whatsapp.deleted", (e) => [{ name: "whatsapp", data: { action: "delete", whatsappId: e.whatsappId }, audience: whatsappAudience }]);
realtimeFrames("whatsapp.session", (e) => {
  const view = whatsappView(e.whatsapp, { admin: true });
  return [
    { name: "whatsappSession", data: { action: "update", session: view }, audience: whatsappAudience },
    { name: "whatsapp", data: { action: "update", whatsapp: view }, audience: whatsappAudience },
  ];
});

/**
 * `company-{id}-settings` `{action:"update", setting:{key, value}}`. A credential setting (`SECRET_SETTINGS`: API
 * tokens, client secrets) goes to holders of `secrets:view` (admins) only (issue 8 §5): others never list those keys.
 */
realtimeFrames("setting.updated", (e) => [
  {
    name: "settings",
    data: { action: "update", setting: { key: e.key, value: e.value } },
    audience: SECRET_SETTINGS.includes(e.key) ? { kind: "permission", permission: "secrets:view" } : { kind: "company" },
  },
]);
