/**
 * Tickets area (docs/product/tickets.md). Thin: call one
 * ticket service. Contract: `shared/src/tickets/contract.ts`.
 */
import { closeAllTickets, createTicketByUser, deleteTicketByAdmin, updateTicketByUser } from "@atende/shared/tickets/actions";
import { ticketTabCounts } from "@atende/shared/tickets/counts";
import { getAccessibleTicket, listTickets, toTicketView } from "@atende/shared/tickets/service";
import { answering, areaHandler, started } from "./core/http.ts";

export { zIdList } from "@atende/shared/tickets/contract";

export const handler = areaHandler("tickets", {
  "GET /api/tickets": async (ctx) => listTickets(ctx.auth, ctx.query),
  "GET /api/tickets/counts": async (ctx) => ticketTabCounts(ctx.auth, ctx.query),
  "GET /api/tickets/u/{uuid}": async (ctx) => toTicketView(ctx.auth.companyId, await getAccessibleTicket(ctx.auth, ctx.params.uuid)),
  "GET /api/tickets/{id}": async (ctx) => toTicketView(ctx.auth.companyId, await getAccessibleTicket(ctx.auth, ctx.params.id)),
  "POST /api/tickets": async (ctx) => createTicketByUser(ctx.auth, ctx.body),
  "PUT /api/tickets/{id}": async (ctx) => updateTicketByUser(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/tickets/{id}": answering("ticket deleted", (ctx) => deleteTicketByAdmin(ctx.auth, ctx.params.id)),
  "POST /api/tickets/closeAll": async (ctx) => started("Closing tickets", await closeAllTickets(ctx.auth, ctx.body)),
});
