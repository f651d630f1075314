/**
 * Tickets area (attendance.md §2 Tickets screen, §4 transitions, §6 access, §7 calls; issue 3 §4). Thin: parse, call
 * one ticket service. `GET /api/tickets` answers `{tickets, count, hasMore, nextCursor}` (`count` = tickets returned so
 * far, see `listTickets`).
 */
import { z } from "zod";
import { zId, zPageNumber, zQueryBool } from "@atende/shared/common";
import { CreateTicketBody, TicketStatus, UpdateTicketBody } from "@atende/shared/tickets/schema";
import { closeAllTickets, createTicketByUser, deleteTicketByAdmin, updateTicketByUser } from "@atende/shared/tickets/actions";
import { getAccessibleTicket, listTickets, toTicketView } from "@atende/shared/tickets/service";
import { areaHandler, reply, route } from "./core/http.ts";

/** Query-string id list: `[1,2]` (JSON, as the web sends it), `1,2`, or a single id. */
export const zIdList = z
  .string()
  .max(2000)
  .transform((v, ctx) => {
    const t = v.trim();
    if (!t) return [] as number[];
    let arr: unknown;
    try {
      arr = t.startsWith("[") ? JSON.parse(t) : t.split(",");
    } catch {
      ctx.addIssue({ code: "custom", message: "Invalid list" });
      return z.NEVER;
    }
    if (!Array.isArray(arr)) {
      ctx.addIssue({ code: "custom", message: "Invalid list" });
      return z.NEVER;
    }
    const ids = arr.map((x) => Number(typeof x === "object" && x && "id" in x ? (x as { id: unknown }).id : x));
    if (ids.some((n) => !Number.isInteger(n) || n <= 0)) {
      ctx.addIssue({ code: "custom", message: "Invalid id" });
      return z.NEVER;
    }
    return ids.slice(0, 100);
  });

const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}/, "Invalid date").transform((d) => d.slice(0, 10));

const ListQuery = z.object({
  status: TicketStatus.optional(),
  showAll: zQueryBool.optional(),
  queueIds: zIdList.optional(),
  withUnreadMessages: zQueryBool.optional(),
  pageNumber: zPageNumber,
  cursor: z.string().max(4000).optional(),
  searchParam: z.string().max(200).optional(),
  isSearch: z.string().optional(),
  tags: zIdList.optional(),
  users: zIdList.optional(),
  date: zDay.optional(),
  updatedAt: zDay.optional(),
  isGroup: z.string().optional(),
});

const IdParams = z.object({ id: zId });
const IdOrUuidParams = z.object({ id: z.string().regex(/^(\d+|[0-9a-fA-F-]{36})$/, "Invalid id") });

export const handler = areaHandler("tickets", {
  "GET /api/tickets": route({
    query: ListQuery,
    handler: async (ctx) => listTickets(ctx.auth, ctx.query),
  }),
  "GET /api/tickets/u/{uuid}": route({
    params: z.object({ uuid: z.string().uuid() }),
    handler: async (ctx) => toTicketView(ctx.auth.companyId, await getAccessibleTicket(ctx.auth, ctx.params.uuid)),
  }),
  "GET /api/tickets/{id}": route({
    params: IdOrUuidParams,
    handler: async (ctx) => toTicketView(ctx.auth.companyId, await getAccessibleTicket(ctx.auth, ctx.params.id)),
  }),
  "POST /api/tickets": route({
    body: CreateTicketBody,
    handler: async (ctx) => reply(200, await createTicketByUser(ctx.auth, ctx.body)),
  }),
  "PUT /api/tickets/{id}": route({
    params: IdOrUuidParams,
    body: UpdateTicketBody,
    handler: async (ctx) => updateTicketByUser(ctx.auth, ctx.params.id, ctx.body),
  }),
  "DELETE /api/tickets/{id}": route({
    params: IdParams,
    handler: async (ctx) => {
      await deleteTicketByAdmin(ctx.auth, ctx.params.id);
      return reply(200, { message: "ticket deleted" });
    },
  }),
  "POST /api/tickets/closeAll": route({
    body: z.object({
      status: z.enum(["open", "pending"]),
      selectedQueueIds: z.array(zId).max(100).optional(),
    }),
    handler: async (ctx) => closeAllTickets(ctx.auth, ctx.body),
  }),
});
