/**
 * THE list of feature areas (routes + side-menu entries). To add an area, create `features/<area>/index.tsx`
 * exporting a `Feature` and append it here, e.g.:
 *   tickets     → routes "/tickets/:ticketId?", menu { path: "/tickets", labelKey: "menu.tickets", group: "attendance", order: 10, access: "all" }
 *   contacts    → menu { path: "/contacts", labelKey: "menu.contacts", group: "attendance", order: 50, access: "all" }
 *   connections → menu { path: "/connections", labelKey: "menu.connections", group: "administration", order: 10, access: "admin", Badge }
 *   sandbox     → publicRoutes or routes "/sandbox" (local only)
 * The i18n keys `menu.tickets`, `menu.contacts`, `menu.connections`, `menu.sandbox` already exist in pt/en/es.
 */
import { connectionsFeature } from "./connections/index.tsx";
import { contactsFeature } from "./contacts/index.tsx";
import { queuesFeature } from "./queues/index.tsx";
import { sandboxFeature } from "./sandbox/index.tsx";
import { ticketsFeature } from "./tickets/index.tsx";
import type { Feature } from "./types.ts";
import { usersFeature } from "./users/index.tsx";

export const features: Feature[] = [
  queuesFeature,
  usersFeature,
  ticketsFeature,
  connectionsFeature,
  contactsFeature,
  ...(sandboxFeature ? [sandboxFeature] : []),
];
