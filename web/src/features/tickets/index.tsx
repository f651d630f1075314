/** Tickets area (attendance.md §2): /tickets and /tickets/{uuid}, first in the attendance menu. */
import type { Feature } from "../types.ts";
import "./attendance.css";
import "./i18n.ts";
import { lazyPage } from "../lazy.tsx";
import { attendanceHandlers } from "./realtime.ts";

const TicketsPage = lazyPage(() => import("./TicketsPage.tsx"), "TicketsPage");

export const ticketsFeature: Feature = {
  id: "tickets",
  routes: [
    { path: "/tickets", element: <TicketsPage /> },
    { path: "/tickets/:ticketId", element: <TicketsPage /> },
  ],
  menu: { path: "/tickets", labelKey: "menu.tickets", group: "attendance", order: 10 },
  // contact, whatsapp and whatsappSession are declared by the contacts and connections features.
  realtime: { ticket: attendanceHandlers.ticket, appMessage: attendanceHandlers.appMessage },
};
