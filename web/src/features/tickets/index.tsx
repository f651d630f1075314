/** Tickets area (docs/product/tickets.md): /tickets and /tickets/{uuid}, first in the attendance menu. */
import type { Feature } from "../types.ts";
import "./attendance.css";
import "./i18n.ts";
import { lazyPage, lazyPart } from "../lazy.tsx";
import { attendanceHandlers } from "./realtime.ts";
import { UnreadTitle } from "./notifications/unread.ts";
import { NotificationsPopover } from "./notifications/NotificationsPopover.tsx";

const TicketsPage = lazyPage(() => import("./TicketsPage.tsx"), "TicketsPage");

export const ticketsFeature: Feature = {
  id: "tickets",
  routes: [
    { path: "/tickets", element: <TicketsPage /> },
    { path: "/tickets/:ticketId", element: <TicketsPage /> },
  ],
  // The badge slot is mounted with the shell for every user: it keeps the browser tab's title "(3) Atende".
  menu: { path: "/tickets", labelKey: "menu.tickets", group: "attendance", order: 10, Badge: UnreadTitle },
  // contact, whatsapp and whatsappSession are declared by the contacts and connections features.
  realtime: { ticket: attendanceHandlers.ticket, appMessage: attendanceHandlers.appMessage },
  slots: {
    contactDrawer: [{ id: "notes", order: 10, Component: lazyPart(() => import("./NotesSection.tsx"), "NotesSection") }],
    topBar: [{ id: "notifications", order: 10, Component: NotificationsPopover }],
  },
};
