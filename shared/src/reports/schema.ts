/**
 * Reports (docs/product/reports.md): the admin's list of attendances (service cycles, and the open and pending tickets'
 * current ones) filtered by period, status, queue, attendant, connection, tag, contact and rating, read from the stored
 * cycles and their report entries, never by scanning tickets.
 *
 * 1. stored items, 2. requests (the edge parses every query and body with these), 3. responses.
 */
import { z } from "zod";
import { zId } from "../common.ts";
import { ColoredRef, NamedRef } from "../contract.ts";
import { MAX_TAGS_PER_TICKET } from "../tags/schema.ts";
import { TicketCycle } from "../tickets/cycles.ts";

/** Longest period one report covers (days). */
export const REPORT_MAX_DAYS = 366;
/** Rows per page at most. */
export const REPORT_MAX_LIMIT = 200;
/** Tags of a ticket a finished cycle keeps report entries for (the first ones). */
export const REPORT_MAX_TAGS = MAX_TAGS_PER_TICKET;

// ---------------------------------------------------------------------------------------------
// 1. Stored items

/** A report entry (`keys.reportEntry`): the finished cycle with the tags its ticket had when it finished. */
export const ReportEntry = TicketCycle.extend({ tagIds: z.array(z.number().int()).default([]) });
export type ReportEntry = z.infer<typeof ReportEntry>;

/** The backfill's progress item: the month it is at and the key after which it goes on; `done` when finished. */
export const ReportBackfillItem = z.object({
  companyId: z.number().int(),
  month: z.string().nullable(),
  sk: z.string().nullable(),
  done: z.boolean(),
  entries: z.number().int().default(0),
  updatedAt: z.string(),
});
export type ReportBackfillItem = z.infer<typeof ReportBackfillItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "yyyy-mm-dd").refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "Invalid date");

const filterShape = {
  /** First and last local day of the period (both included), in the company's time zone. */
  initialDate: zDay.optional(),
  finalDate: zDay.optional(),
  status: z.enum(["open", "pending", "closed"]).optional(),
  queueId: zId.optional(),
  userId: zId.optional(),
  whatsappId: zId.optional(),
  tagId: zId.optional(),
  contactId: zId.optional(),
  rate: z.coerce.number().int().min(1).max(3).optional(),
};
const periodInOrder = (q: { initialDate?: string; finalDate?: string }) => !q.initialDate || !q.finalDate || q.initialDate <= q.finalDate;

/** The filters of a report (every one optional; the period defaults to the last 30 local days). */
export const ReportFilters = z.object(filterShape).strict().refine(periodInOrder, { message: "initialDate after finalDate" });
export type ReportFilters = z.infer<typeof ReportFilters>;

/** `GET /api/ticket/reports`: the filters, the page size and the cursor of the previous page. */
export const ReportQuery = z
  .object({ ...filterShape, limit: z.coerce.number().int().min(1).max(REPORT_MAX_LIMIT).default(50), cursor: z.string().max(1000).optional() })
  .refine(periodInOrder, { message: "initialDate after finalDate" });
export type ReportQuery = z.infer<typeof ReportQuery>;

/** `POST /api/ticket/reports/export`: the filters and the file's format. */
export const ReportExportBody = z.object({ format: z.enum(["xlsx", "csv"]), filters: ReportFilters.default({}) });
export type ReportExportBody = z.infer<typeof ReportExportBody>;

/** Path `{jobId}` of an export. */
export const ReportExportParams = z.object({ jobId: z.string().uuid() });

/** Path `{ticketId}` of the attendances of a ticket's contact. */
export const TicketIdParams = z.object({ ticketId: zId });

/** The cursor of a report page (base64url JSON): the source it is at and the sort key after which it goes on. */
export const ReportCursor = z.object({ s: z.number().int().min(0).max(1000), k: z.string().regex(/^[0-9T:.Z+-]{10,40}#\d{10}$/).optional() }).strict();
export type ReportCursor = z.infer<typeof ReportCursor>;

// ---------------------------------------------------------------------------------------------
// 3. Responses

/** One attendance of a report: a service cycle of a ticket. Times in seconds; instants ISO. */
export const ReportRow = z.object({
  ticketId: z.number().int(),
  status: z.enum(["open", "pending", "closed"]),
  contact: z.object({ id: z.number().int(), name: z.string(), number: z.string() }),
  queue: ColoredRef.nullable(),
  user: NamedRef.nullable(),
  whatsapp: NamedRef.nullable(),
  /** When the cycle was queued (the ticket opened, reopened or returned to the queue). */
  openedAt: z.string(),
  acceptedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** Accepted − queued (so far, for a pending ticket). */
  waitSeconds: z.number().int(),
  /** Finished − accepted (so far, for an open ticket). */
  handlingSeconds: z.number().int(),
  rate: z.number().int().min(1).max(3).nullable(),
  ratedAt: z.string().nullable(),
});
export type ReportRow = z.infer<typeof ReportRow>;

/** A report page: `{tickets, count, hasMore, nextCursor?}` (`count`: the rows of this page). */
export const ReportPage = z.object({ tickets: z.array(ReportRow), count: z.number().int(), hasMore: z.boolean(), nextCursor: z.string().optional() });
export type ReportPage = z.infer<typeof ReportPage>;

/** The attendances of a ticket's contact (the ticket area's Atendimentos tab), newest first. */
export const ContactAttendances = z.object({ attendances: z.array(ReportRow), hasMore: z.boolean() });
export type ContactAttendances = z.infer<typeof ContactAttendances>;

/** A finished export's short-lived link. */
export const ReportExportLink = z.object({ url: z.string(), expiresInSeconds: z.number().int(), fileName: z.string() });

/** An export job's params: the filters with the period resolved to instants, and the format. */
export const ReportExportJobParams = z.object({
  format: z.enum(["xlsx", "csv"]),
  filters: ReportFilters,
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
});
export type ReportExportJobParams = z.infer<typeof ReportExportJobParams>;
