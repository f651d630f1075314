/**
 * Dashboard area (docs/product/dashboard.md; admins, `dashboard:view`): what `/` shows an admin, its menu entry in
 * the management group, texts, and the frames that keep it live (`user`: the online dots; `ticket`: the cards).
 */
import type { QueryClient } from "@tanstack/react-query";
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { dashboardKeys } from "./api.ts";
import { dashboardMenuTexts, dashboardTexts } from "./i18n.ts";

const DashboardPage = lazyPage(() => import("./DashboardPage.tsx"), "DashboardPage");

const refetch = (queryClient: QueryClient) => void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
/** Ticket frames come with every message: the cards are refetched at most every {@link TICKET_REFRESH_MS}. */
const TICKET_REFRESH_MS = 10_000;
let ticketTimer: ReturnType<typeof setTimeout> | null = null;
const refetchSoon: RealtimeHandler<"ticket"> = (_data, { queryClient }) => {
  if (ticketTimer) return;
  ticketTimer = setTimeout(() => {
    ticketTimer = null;
    refetch(queryClient);
  }, TICKET_REFRESH_MS);
};

export const dashboardFeature: Feature = {
  id: "dashboard",
  access: { permission: "dashboard:view" },
  routes: [],
  home: <DashboardPage />,
  menu: { path: "/", labelKey: "menu.dashboard", group: "management", order: 0 },
  texts: { dashboard: dashboardTexts, menu: dashboardMenuTexts },
  realtime: { user: (_data, { queryClient }) => refetch(queryClient), ticket: refetchSoon },
};
