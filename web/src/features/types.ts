/**
 * A feature area of the SPA, declared whole in its own `features/<area>/index.tsx` (docs/architecture.md#8-the-web-web): its routes, who may
 * open them (`access`: permission, super flag, plan flag), its side-menu entry, its texts in pt/en/es and its realtime
 * handlers. `features/registry.tsx` lists the features; the router, the route guard, the side menu, i18next and the
 * realtime table are built from that list, so adding a feature changes no central file but the registry's list.
 */
import type { Permission, ProfileName } from "@atende/shared/access/permissions";
import type { ReactNode } from "react";
import type { TextBundles } from "../i18n/index.ts";
import type { RealtimeHandler } from "../realtime/handlers.ts";

export type PlanFlag = "useCampaigns" | "useKanban" | "useOpenAi" | "useIntegrations" | "useSchedules" | "useInternalChat" | "useExternalApi";

/** User profiles (docs/product/users.md#profiles-and-rights), as the shared permission table lists them. */
export type Profile = ProfileName;

/** Menu groups of the side menu, in display order. */
export type MenuGroup = "attendance" | "management" | "administration";

/**
 * Who may open a page or see its menu entry (docs/product/users.md#profiles-and-rights). Omitted parts do not
 * restrict. Read only through `features/access.tsx`, which decides with the shared permission table (`can`).
 */
export interface Access {
  /** A permission of the shared table (`@atende/shared/access/permissions`), e.g. `drawer-admin-items:view`. */
  permission?: Permission;
  /** Only users with the super flag. */
  super?: boolean;
  /** Only companies whose plan has this flag. */
  planFlag?: PlanFlag;
}

export interface FeatureRoute {
  path: string;
  element: ReactNode;
  /** Overrides the feature's access for this route. */
  access?: Access;
}

export interface Feature {
  /** Stable id, e.g. "users". */
  id: string;
  /** Who may open the feature's routes and see its menu entry; omitted: every logged-in user. */
  access?: Access;
  /** Routes inside the private shell (react-router paths, e.g. "/tickets/:ticketId?"), guarded by `access`. */
  routes: FeatureRoute[];
  /** Public routes outside the shell (e.g. "/sandbox"), rendered without the session guard. */
  publicRoutes?: { path: string; element: ReactNode }[];
  /** Side menu entry; omit for features without one. Shown to whoever passes `access`. */
  menu?: {
    path: string;
    /** i18n key of the label. */
    labelKey: string;
    group: MenuGroup;
    /** Position inside its group (lower first). */
    order: number;
    /** Opens the page in a new tab (a page outside the shell, such as the sandbox phone, keeps the app open). */
    newTab?: boolean;
    /** Optional badge (e.g. the connections warning); a component so it can use hooks. */
    Badge?: () => ReactNode;
  };
  /** Texts per i18n namespace, added to i18next when the registry loads. */
  texts?: Record<string, TextBundles>;
  /** Handlers of `company-{id}-{name}` frames, by name (several features may handle the same name). */
  realtime?: Record<string, RealtimeHandler>;
}

/** The access of the side menu's admin items and their pages (permission `drawer-admin-items:view`). */
export const ADMIN_ONLY: Access = { permission: "drawer-admin-items:view" };

/**
 * The id, route and side-menu entry of a feature that is one page at `/{id}` (label `menu.{id}`), for `{...onePage(...)}`
 * in its `index.tsx`.
 */
export function onePage(id: string, element: ReactNode, group: MenuGroup, order: number): Pick<Feature, "id" | "routes" | "menu"> {
  const path = `/${id}`;
  return { id, routes: [{ path, element }], menu: { path, labelKey: `menu.${id}`, group, order } };
}
