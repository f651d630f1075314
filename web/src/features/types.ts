/**
 * A feature area of the SPA, declared whole in its own `features/<area>/index.tsx` (docs/architecture.md#8-the-web-web): its routes, who may
 * open them (`access`: permission, super flag, plan flag), its side-menu entry, its texts in pt/en/es and its realtime
 * handlers. `features/registry.tsx` lists the features; the router, the route guard, the side menu, i18next and the
 * realtime table are built from that list, so adding a feature changes no central file but the registry's list.
 */
import type { Permission, ProfileName } from "@atende/shared/access/permissions";
import type { TicketView } from "@atende/shared/tickets/schema";
import type { ComponentType, ReactNode } from "react";
import type { TextBundles } from "../i18n/index.ts";
import type { RealtimeHandlers } from "../realtime/handlers.ts";

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
  /** What `/` shows a user its `access` allows (the first such feature of the registry; else `/` opens the first menu page). */
  home?: ReactNode;
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
  /** Handlers of `company-{id}-{name}` frames, by name (several features may handle the same name); `data` is typed by name. */
  realtime?: RealtimeHandlers;
  /** What the feature adds to other features' screens (read through `features/slots.ts`). */
  slots?: FeatureSlots;
}

/**
 * The places of the screens a feature plugs into without editing the component that hosts them. Each
 * host renders every feature's items of its slot in `order` (lower first), after `access` (omitted: everyone).
 * The side menu's badge is `menu.Badge`.
 */
export interface FeatureSlots {
  /** Buttons of the conversation's composer, beside the emoji and attach buttons. */
  composerActions?: SlotItem<{ composer: ComposerApi }>[];
  /** Suggestions offered while the composer's text starts with "/" (quick messages, for one). */
  composerShortcuts?: ShortcutProvider[];
  /** Items of the conversation header, between the contact and the ticket's actions. */
  conversationHeader?: SlotItem<{ ticket: TicketView }>[];
  /** Sections of the contact drawer, after the contact's details. */
  contactDrawer?: SlotItem<{ ticket: TicketView }>[];
  /** Filters of the ticket list's search tab. */
  ticketListFilters?: TicketListFilter<never>[];
  /** Buttons with a popover in the top bar, before the profile button. */
  topBar?: SlotItem<Record<never, never>>[];
  /** Tabs of the ticket area beside its first tab, Ticket (the conversation): e.g. Atendimentos. */
  ticketTabs?: TicketTab[];
  /** Tabs of the /settings page. */
  settingsTabs?: SettingsTab[];
}

/** A tab of the ticket area: `labelKey` is an i18n key; `Component` replaces the conversation while its tab is chosen. */
export interface TicketTab {
  id: string;
  order: number;
  labelKey: string;
  access?: Access;
  Component: ComponentType<{ ticket: TicketView }>;
}

/** One component a feature puts into a host's slot. */
export interface SlotItem<P> {
  id: string;
  order: number;
  access?: Access;
  Component: ComponentType<P>;
}

/** What the composer lends to its actions and to the "/" suggestions. */
export interface ComposerApi {
  ticket: TicketView;
  /** The text in the box. */
  text: string;
  /** Replaces the text in the box and puts the caret at its end. */
  setText(text: string): void;
  /** Sends a text at once, with the composer's sign choice and reply. */
  sendText(body: string): Promise<void>;
  /** Sends files with a caption, with the composer's upload progress. */
  sendFiles(files: File[], caption: string): Promise<void>;
}

/** One suggestion of a "/" provider: what the list shows and what choosing it does. */
export interface ShortcutSuggestion {
  /** Unique among the provider's suggestions. */
  key: string;
  label: string;
  /** A second line (e.g. the text, cut short). */
  detail?: string;
  /** Inserts a text (`composer.setText`) or sends something (`composer.sendText` / `sendFiles`). */
  choose(composer: ComposerApi): void | Promise<void>;
}

/**
 * A source of "/" suggestions. `useSuggestions` is a React hook, called on every render of the composer with the text
 * typed after "/" (`query`, possibly empty) and `active` false while the text does not start with "/" (it must then
 * fetch nothing).
 */
export interface ShortcutProvider {
  id: string;
  access?: Access;
  useSuggestions(query: string, ticket: TicketView, active: boolean): ShortcutSuggestion[];
}

/** The query of the ticket list a filter may narrow (`GET /api/tickets`). */
export interface TicketListQuery {
  tags?: number[];
  users?: number[];
  queueIds?: number[];
}

/**
 * A filter of the ticket list's search tab. The list keeps its value (starting at `initial`), renders `Component`, and
 * adds `query(value)` to its request; `active(value)` says whether the filter alone is enough to search.
 */
export interface TicketListFilter<V> {
  id: string;
  order: number;
  access?: Access;
  initial: V;
  Component: ComponentType<{ value: V; onChange(value: V): void }>;
  query(value: V): TicketListQuery;
  active(value: V): boolean;
}

/** Declares a ticket-list filter with its value type checked, stored as the slot's common type. */
export const ticketListFilter = <V>(f: TicketListFilter<V>): TicketListFilter<never> => f as unknown as TicketListFilter<never>;

/** A tab of /settings: `labelKey` is an i18n key; `shown` hides the tab while the company's settings say so. */
export interface SettingsTab {
  id: string;
  order: number;
  labelKey: string;
  access?: Access;
  shown?: (settings: { key: string; value: string }[]) => boolean;
  /**
   * A user `access` refuses who opens the tab by its address (`/settings?tab={id}`) gets this toast (an i18n key) and
   * goes to "/" after `redirectMs`; without it they just see the first tab.
   */
  refused?: { messageKey: string; redirectMs: number };
  Component: ComponentType;
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
