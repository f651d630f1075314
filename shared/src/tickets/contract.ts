/**
 * Tickets operations (the Tickets screen; docs/product/tickets.md).
 * `GET /api/tickets` answers `{tickets, count, hasMore, nextCursor}` (`count` = tickets returned so far).
 */
import { JobStarted } from "../jobs/schema.ts";
import { z } from "zod";
import { zId, zPageNumber, zQueryBool } from "../common.ts";
import { ColoredRef, defineRoutes, IdParams, MessageReply, NamedRef, page } from "../contract.ts";
import { CreateTicketBody, TicketItem, TicketStatus, UpdateTicketBody } from "./schema.ts";

/** A ticket as the API shows it: the item plus its contact, queue, connection, user and tags. */
export const TicketView = TicketItem.extend({
  contact: z.object({ id: z.number().int(), name: z.string(), number: z.string(), profilePicUrl: z.string(), email: z.string(), extraInfo: z.array(z.unknown()) }),
  queue: ColoredRef.nullable(),
  whatsapp: z.object({ id: z.number().int(), name: z.string(), status: z.string() }).nullable(),
  user: NamedRef.nullable(),
  tags: z.array(ColoredRef),
  /** Search results only: for a ticket found by a message word, the text around that word in a message holding it. */
  searchSnippet: z.string().optional(),
});

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
    const ids = arr.map((x) => zId.safeParse(typeof x === "object" && x && "id" in x ? (x as { id: unknown }).id : x));
    if (ids.some((r) => !r.success)) {
      ctx.addIssue({ code: "custom", message: "Invalid id" });
      return z.NEVER;
    }
    return ids.map((r) => r.data as number).slice(0, 100);
  });

const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}/, "Invalid date").transform((d) => d.slice(0, 10));

/** `GET /api/tickets` query. */
export const ListTicketsQuery = z.object({
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

/** `GET /api/tickets/counts` query: the list's show-all switch and queue filter. */
export const TicketCountsQuery = z.object({ showAll: zQueryBool.optional(), queueIds: zIdList.optional() });

/**
 * `GET /api/tickets/counts`: how many tickets the sub-tabs list for the caller (docs/product/tickets.md#tab-counts):
 * assigned (`open`) and `pending` of the open tab, and of the group tab (`groupOpen`, `groupPending`).
 */
export const TicketTabCounts = z.object({
  open: z.number().int().min(0),
  pending: z.number().int().min(0),
  groupOpen: z.number().int().min(0),
  groupPending: z.number().int().min(0),
});
export type TicketTabCounts = z.infer<typeof TicketTabCounts>;

const IdOrUuidParams = z.object({ id: z.string().regex(/^(\d+|[0-9a-fA-F-]{36})$/, "Invalid id") });

export const ticketsRoutes = defineRoutes("tickets", {
  "GET /api/tickets": { auth: "user", query: ListTicketsQuery, response: page("tickets", TicketView) },
  "GET /api/tickets/counts": { auth: "user", query: TicketCountsQuery, response: TicketTabCounts },
  "GET /api/tickets/u/{uuid}": { auth: "user", params: z.object({ uuid: z.string().uuid() }), response: TicketView },
  "GET /api/tickets/{id}": { auth: "user", params: IdOrUuidParams, response: TicketView },
  "POST /api/tickets": { auth: "user", body: CreateTicketBody, response: TicketView },
  "PUT /api/tickets/{id}": { auth: "user", params: IdOrUuidParams, body: UpdateTicketBody, response: TicketView },
  "DELETE /api/tickets/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  "POST /api/tickets/closeAll": {
    auth: "admin",
    body: z.object({ status: z.enum(["open", "pending"]), selectedQueueIds: z.array(zId).max(100).optional() }),
    response: JobStarted,
  },
});

/** `company-{id}-ticket` frames: `{action: "update", ticket}` (the ticket as the API shows it) or `{action: "delete", ticketId}`. */
export const TicketFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("update"), ticket: TicketView }),
  z.object({ action: z.literal("delete"), ticketId: z.number().int() }),
]);
export type TicketFrame = z.infer<typeof TicketFrame>;
