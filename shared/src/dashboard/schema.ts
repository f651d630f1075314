/**
 * Dashboard (docs/product/dashboard.md): the admin's cards, attendants table and charts, read from the counter items
 * (`db/counters.ts`), never from the tickets. Days are the company's local days (`yyyy-mm-dd`).
 *
 * 1. requests (the edge parses every query with these), 2. responses.
 */
import { z } from "zod";
import { zId } from "../common.ts";

/** Longest period one dashboard answer covers (days). */
export const DASHBOARD_MAX_DAYS = 366;

const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "yyyy-mm-dd").refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "Invalid date");

// ---------------------------------------------------------------------------------------------
// 1. Requests

/**
 * `GET /api/dashboard`: the last `days` days (today included) or the days `date_from` to `date_to` (both included);
 * neither: today. At most {@link DASHBOARD_MAX_DAYS} days.
 */
export const DashboardQuery = z
  .object({
    days: z.coerce.number().int().min(1).max(DASHBOARD_MAX_DAYS).optional(),
    date_from: zDay.optional(),
    date_to: zDay.optional(),
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, { message: "date_from after date_to" });
export type DashboardQuery = z.infer<typeof DashboardQuery>;

/**
 * `GET /api/dashboard/ticketsUsers` and `/ticketsDay`: the days `initialDate` to `finalDate` (both included).
 * `companyId`, when sent, must be the caller's own.
 */
export const DashboardChartQuery = z
  .object({ initialDate: zDay, finalDate: zDay, companyId: zId.optional() })
  .refine((q) => q.initialDate <= q.finalDate, { message: "initialDate after finalDate" });
export type DashboardChartQuery = z.infer<typeof DashboardChartQuery>;

// ---------------------------------------------------------------------------------------------
// 2. Responses

export const DashboardCounters = z.object({
  /** Tickets in conversation (open) now. */
  supportHappening: z.number().int(),
  /** Tickets waiting (pending) now. */
  supportPending: z.number().int(),
  /** Service cycles finished in the period. */
  supportFinished: z.number().int(),
  /** Contacts created in the period. */
  newContacts: z.number().int(),
  /** Average handling time of the cycles finished in the period (minutes; 0 when none). */
  avgSupportTime: z.number(),
  /** Average wait of the cycles accepted in the period (minutes; 0 when none). */
  avgWaitTime: z.number(),
  /** Customers' messages received in the period (today's included as they arrive). */
  messagesIn: z.number().int(),
  /** Messages sent through Atende in the period (agents' and automatic). */
  messagesOut: z.number().int(),
  /** Super users only: connections whose session is connected, over every company. */
  totalWhatsappSessions: z.number().int().optional(),
  /** Super users only: companies on the platform. */
  totalCompanies: z.number().int().optional(),
});
export type DashboardCounters = z.infer<typeof DashboardCounters>;

export const DashboardAttendant = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Average of the customers' 1-3 ratings in the period (0: none). */
  rating: z.number(),
  /** Average handling time in the period (minutes). */
  avgSupportTime: z.number(),
  /** Cycles the attendant accepted in the period. */
  tickets: z.number().int(),
  /** Customers' messages received in the period on tickets the attendant had. */
  messagesIn: z.number().int(),
  /** Messages the attendant sent in the period. */
  messagesOut: z.number().int(),
  online: z.boolean(),
});
export type DashboardAttendant = z.infer<typeof DashboardAttendant>;

export const DashboardResponse = z.object({ counters: DashboardCounters, attendants: z.array(DashboardAttendant) });
export type DashboardResponse = z.infer<typeof DashboardResponse>;

/** Tickets per attendant: the cycles each accepted in the period, with the total. */
export const TicketsUsersResponse = z.object({
  data: z.array(z.object({ userId: z.number().int(), name: z.string(), total: z.number().int() })),
  count: z.number().int(),
});
export type TicketsUsersResponse = z.infer<typeof TicketsUsersResponse>;

/** Tickets opened per day (`date`), or per local hour (`hour` 0-23) when the period is one day, with the total. */
export const TicketsDayResponse = z.object({
  data: z.array(z.object({ date: z.string().optional(), hour: z.number().int().optional(), total: z.number().int() })),
  count: z.number().int(),
});
export type TicketsDayResponse = z.infer<typeof TicketsDayResponse>;
