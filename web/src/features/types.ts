/**
 * A feature area of the SPA: its routes and its side-menu entry. Every area lives in `features/<area>/` and exports
 * one `Feature`; `features/registry.tsx` lists them. The shell builds the router and the side menu from that list,
 * so an area's pages appear in the menu exactly when its feature is registered.
 */
import type { ReactNode } from "react";

export type PlanFlag = "useCampaigns" | "useKanban" | "useOpenAi" | "useIntegrations" | "useSchedules" | "useInternalChat" | "useExternalApi";

/** Menu groups of attendance.md §2 Side menu, in display order. */
export type MenuGroup = "attendance" | "management" | "administration";

export interface Feature {
  /** Stable id, e.g. "users". */
  id: string;
  /** Routes inside the private shell (react-router paths, e.g. "/tickets/:ticketId?"). */
  routes: { path: string; element: ReactNode }[];
  /** Public routes outside the shell (e.g. "/sandbox"), rendered without the session guard. */
  publicRoutes?: { path: string; element: ReactNode }[];
  /** Side menu entry; omit for features without one. */
  menu?: {
    path: string;
    /** i18n key of the label. */
    labelKey: string;
    group: MenuGroup;
    /** Position inside its group (lower first). */
    order: number;
    /** Who sees it: every logged-in user, admins (profile admin or super) or super users only. */
    access: "all" | "admin" | "super";
    /** Shown only when the company's plan has this flag. */
    planFlag?: PlanFlag;
    /** Optional badge (e.g. the connections warning); a component so it can use hooks. */
    Badge?: () => ReactNode;
  };
}
