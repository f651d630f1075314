/**
 * Dashboard data (docs/product/dashboard.md):
 * - `useDashboard(filter)`: GET /api/dashboard?days or ?date_from&date_to → `{counters, attendants}`;
 * - `useTicketsUsers(range)` / `useTicketsDay(range)`: GET /api/dashboard/ticketsUsers|ticketsDay?initialDate&finalDate
 *   → `{data, count}` (per attendant; per day, or per hour for one day).
 * `dashboardKeys.all` is refetched on the `company-{id}-user` frames (the online dots) and `ticket` frames (the cards).
 */
import { useQuery } from "@tanstack/react-query";
import { call, type ResponseOf } from "../../api/operations.ts";

export type Dashboard = ResponseOf<"GET /api/dashboard">;
export type TicketsUsers = ResponseOf<"GET /api/dashboard/ticketsUsers">;
export type TicketsDay = ResponseOf<"GET /api/dashboard/ticketsDay">;

/** What the filter asks: the last `days` days, or the dates `from`..`to` (yyyy-mm-dd, the company's local days). */
export type DashboardFilter = { days: number } | { from: string; to: string };

export const dashboardKeys = { all: ["dashboard"] as const };

export function useDashboard(filter: DashboardFilter | null) {
  return useQuery({
    queryKey: [...dashboardKeys.all, "cards", filter],
    enabled: !!filter,
    queryFn: () => call("GET /api/dashboard", { query: filter && "days" in filter ? { days: filter.days } : { date_from: filter!.from, date_to: filter!.to } }),
  });
}

export function useTicketsUsers(range: { from: string; to: string } | null) {
  return useQuery({
    queryKey: [...dashboardKeys.all, "users", range],
    enabled: !!range,
    queryFn: () => call("GET /api/dashboard/ticketsUsers", { query: { initialDate: range!.from, finalDate: range!.to } }),
  });
}

export function useTicketsDay(range: { from: string; to: string } | null) {
  return useQuery({
    queryKey: [...dashboardKeys.all, "day", range],
    enabled: !!range,
    queryFn: () => call("GET /api/dashboard/ticketsDay", { query: { initialDate: range!.from, finalDate: range!.to } }),
  });
}
