/**
 * Ticket access (docs/product/tickets.md#who-sees-a-ticket): who the caller is as far as tickets are concerned and the one read of
 * a ticket the caller may see. The rule itself is `access/tickets.ts` `canSee`.
 */
import { can } from "../access/permissions.ts";
import { canSeeInCompany } from "../access/visibility.ts";
import { AppError } from "../errors.ts";
import { getTicketIdByUuid, getTicketItem } from "./repository.ts";
import type { TicketItem } from "./schema.ts";

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
  if (!t) throw new AppError("ERR_NO_TICKET_FOUND");
  if (!(await canSeeInCompany(a, t, a.companyId))) throw new AppError("ERR_NO_PERMISSION");
  return t;
}
