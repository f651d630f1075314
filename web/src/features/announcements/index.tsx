/**
 * Announcements area (docs/product/announcements.md): /announcements for super users (anyone else gets the
 * no-permission toast and goes to / after 1 s), its administration menu entry, texts, the top bar's announcements
 * popover for every user, and the `company-{id}-announcement` frames (`{action, record}` or `{action: "delete", id}`).
 */
import { lazyPage, lazyPart } from "../lazy.tsx";
import { crudRealtime } from "../../ui/kit/crud.ts";
import type { Feature } from "../types.ts";
import { type Announcement, announcementsCache } from "./api.ts";
import "./announcements.css";
import { announcementsErrorTexts, announcementsMenuTexts, announcementsTexts } from "./i18n.ts";

const AnnouncementsPage = lazyPage(() => import("./AnnouncementsPage.tsx"), "AnnouncementsPage");

const onFrame = crudRealtime<Announcement>("record", announcementsCache);

export const announcementsFeature: Feature = {
  id: "announcements",
  access: { super: true },
  routes: [{ path: "/announcements", element: <AnnouncementsPage /> }],
  menu: { path: "/announcements", labelKey: "menu.announcements", group: "administration", order: 90 },
  texts: { announcements: announcementsTexts, menu: announcementsMenuTexts, errors: announcementsErrorTexts },
  realtime: {
    announcement: (data, ctx) => {
      const d = (data ?? {}) as { action?: string; id?: unknown };
      onFrame(d.action === "delete" ? { action: "delete", recordId: d.id } : data, ctx);
    },
  },
  slots: { topBar: [{ id: "announcements", order: 20, Component: lazyPart(() => import("./AnnouncementsPopover.tsx"), "AnnouncementsPopover") }] },
};
