/**
 * The reports' calls (docs/product/reports.md): the report's cursor pages (`GET /api/ticket/reports`), the export
 * (start the job, then the finished file's link), a contact's attendances for the Atendimentos tab, and the read-only
 * messages of one ticket for the history dialog.
 */
import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { call, type ResponseOf } from "../../api/operations.ts";

export type ReportRow = ResponseOf<"GET /api/ticket/reports">["tickets"][number];

/** The report's filters as the page holds them ("" = not set). */
export interface ReportFilter {
  initialDate: string;
  finalDate: string;
  status: "" | "open" | "pending" | "closed";
  queueId: string;
  userId: string;
  whatsappId: string;
  tagId: string;
  contactId: string;
  rate: string;
}

export const EMPTY_FILTER: ReportFilter = { initialDate: "", finalDate: "", status: "", queueId: "", userId: "", whatsappId: "", tagId: "", contactId: "", rate: "" };

/** The filters that are set, typed as the API takes them. */
export function filterQuery(f: ReportFilter) {
  const num = (v: string) => (v ? Number(v) : undefined);
  return {
    initialDate: f.initialDate || undefined,
    finalDate: f.finalDate || undefined,
    status: f.status || undefined,
    queueId: num(f.queueId),
    userId: num(f.userId),
    whatsappId: num(f.whatsappId),
    tagId: num(f.tagId),
    contactId: num(f.contactId),
    rate: num(f.rate),
  };
}

/** Rows per page of the table. */
export const REPORT_PAGE_SIZE = 50;

export function useReport(filter: ReportFilter) {
  return useInfiniteQuery({
    queryKey: ["reports", filter],
    queryFn: ({ pageParam }) => call("GET /api/ticket/reports", { query: { ...filterQuery(filter), limit: REPORT_PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
  });
}

export function useStartReportExport() {
  return useMutation({
    mutationFn: (v: { format: "xlsx" | "csv"; filter: ReportFilter }) => call("POST /api/ticket/reports/export", { body: { format: v.format, filters: filterQuery(v.filter) } }),
  });
}

/** The finished export's short-lived link. */
export const reportExportLink = (jobId: string) => call("GET /api/ticket/reports/export/{jobId}", { params: { jobId } });

/** The attendances of the contact of ticket `ticketId` (the Atendimentos tab). */
export function useContactAttendances(ticketId: number) {
  return useQuery({ queryKey: ["reports", "attendances", ticketId], queryFn: () => call("GET /api/ticket/history/{ticketId}", { params: { ticketId } }) });
}

/** The messages of ticket `ticketId`, newest page first, for the read-only history (nothing is marked read). */
export function useHistoryMessages(ticketId: number | null) {
  return useInfiniteQuery({
    queryKey: ["reports", "history", ticketId],
    enabled: ticketId != null,
    queryFn: ({ pageParam }) => call("GET /api/messages/{ticketId}", { params: { ticketId: ticketId ?? 0 }, query: { cursor: pageParam, peek: true } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
  });
}
