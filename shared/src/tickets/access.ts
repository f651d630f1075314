/**
 * Ticket access (docs/product/tickets.md#who-sees-a-ticket): who the caller is as far as tickets are concerned and the one read of
 * a ticket the caller may see. The rule itself is `access/tickets.ts` `canSee`.
 */
import { can } from "../access/permissions.ts";
import { canSeeInCompany } from "../access/visibility.ts";
import { AppError } from "../errors.ts";
import { getTicketIdByUuid, getTicketItem } from "./repository.ts";
import type { TicketItem } from "./schema.ts";
import { toTicketView } from "./views.ts";

async function getTicketItemByUuid(companyId: number, uuid: string): Promise<TicketItem | null> {
  const id = await getTicketIdByUuid(companyId, uuid);
  return id ? getTicketItem(companyId, id) : null;
}

/** The caller as far as ticket access is concerned (the verified token's context). */
export interface TicketActor {
  userId: number;
  companyId: number;
  profile: string;
  super?: boolean;
  name: string;
  queueIds: number[];
  allTicket: "enabled" | "desabled" | string;
}

/** Admin-like for tickets (`admin` profile or `super`): the `tickets:seeAll` permission of `access/permissions.ts`. */
export const isAdminActor = (a: TicketActor) => can(a, "tickets:seeAll");

/** Reads a ticket the actor may see: 404 `ERR_NO_TICKET_FOUND` when absent, 403 `ERR_NO_PERMISSION` when outside their queues. */
export async function getAccessibleTicket(a: TicketActor, ticketId: number | string): Promise<TicketItem> {
  const t =
    typeof ticketId === "number" || /^\d+$/.test(ticketId)
      ? await getTicketItem(a.companyId, Number(ticketId))
      : await getTicketItemByUuid(a.companyId, ticketId);
  if (!t) throw new AppError("ERR_NO_TICKET_FOUND", 404);
  if (!(await canSeeInCompany(a, t, a.companyId))) throw new AppError("ERR_NO_PERMISSION", 403);
  return t;
}

/**
 * Turns a marker conflict into a 409 (docs/product/tickets.md#one-open-ticket-per-contact: the dialog shows who holds it and in which queue, or
 * opens it when it is the caller's). The body carries only `{id, uuid?, status, userId, queueId, whatsappId, user:
 * {id,name}|null, queue: {id,name,color}|null}`: never the contact, messages or tags of a ticket the caller may not
 * see, and `uuid` (to open it) only when the caller may see it.
 */
export async function otherOpenTicket(actor: TicketActor, ticketId: number | null | undefined): Promise<AppError> {
  const other = ticketId ? await getTicketItem(actor.companyId, ticketId, true) : null;
  if (!other) return new AppError("ERR_OTHER_OPEN_TICKET", 409, { ticket: null });
  const view = await toTicketView(actor.companyId, other);
  const ticket = {
    id: view.id,
    ...((await canSeeInCompany(actor, other, actor.companyId)) ? { uuid: view.uuid } : {}),
    status: view.status,
    userId: view.userId,
    queueId: view.queueId,
    whatsappId: view.whatsappId,
    user: view.user,
    queue: view.queue,
  };
  return new AppError("ERR_OTHER_OPEN_TICKET", 409, { ticket });
}
