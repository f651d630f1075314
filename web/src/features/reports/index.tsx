/**
 * Reports area (docs/product/reports.md; admins, `reports:view`): the `/reports` page in the management menu, its
 * texts (and the export job's progress texts), and the ticket area's Atendimentos tab (every user: the attendances
 * they may open).
 */
import { lazyPage, lazyPart } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { exportJobTexts, reportsMenuTexts, reportsTexts } from "./i18n.ts";

const ReportsPage = lazyPage(() => import("./ReportsPage.tsx"), "ReportsPage");

export const reportsFeature: Feature = {
  id: "reports",
  access: { permission: "reports:view" },
  routes: [{ path: "/reports", element: <ReportsPage /> }],
  menu: { path: "/reports", labelKey: "menu.reports", group: "management", order: 1 },
  texts: { reports: reportsTexts, menu: reportsMenuTexts, jobs: exportJobTexts },
  slots: { ticketTabs: [{ id: "attendances", order: 10, labelKey: "reports.attendances", Component: lazyPart(() => import("./AttendancesTab.tsx"), "AttendancesTab") }] },
};
