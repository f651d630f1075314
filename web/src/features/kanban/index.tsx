/**
 * Kanban area (docs/product/kanban.md; an attendance item of the side menu, for companies whose plan has `useKanban`):
 * /kanban, its menu entry, texts, and the frames that keep a loaded board current: `company-{id}-ticket` and
 * `appMessage` (a ticket moved, closed, created or no longer seen), `tag` (a lane renamed, added or removed).
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { applyTicket, dropTicket, onKanbanTag, useKanbanBoard, type Card } from "./api.ts";
import { kanbanMenuTexts, kanbanTexts } from "./i18n.ts";

const loadPage = () => import("./KanbanPage.tsx");
// Opened at /kanban (a reload, a link, a bookmark): the page's code is fetched while the app starts, not after it.
if (typeof location !== "undefined" && location.pathname === "/kanban") void loadPage().catch(() => undefined);
const KanbanPage = lazyPage(loadPage, "KanbanPage");

/** The board's requests, sent as soon as /kanban opens: beside the plan check and the page's own code. */
function KanbanEarly() {
  useKanbanBoard();
  return null;
}

const isCard = (v: unknown): v is Card => !!v && typeof v === "object" && typeof (v as Card).id === "number" && Array.isArray((v as Card).tags);

const onTicket: RealtimeHandler<"ticket"> = (data, { queryClient }) => {
  const d = data as { action?: string; ticket?: unknown; ticketId?: number };
  if (d.action === "delete" && typeof d.ticketId === "number") dropTicket(queryClient, d.ticketId);
  else if (isCard(d.ticket)) applyTicket(queryClient, d.ticket);
};

export const kanbanFeature: Feature = {
  id: "kanban",
  access: { planFlag: "useKanban" },
  routes: [{ path: "/kanban", element: <KanbanPage />, early: <KanbanEarly /> }],
  menu: { path: "/kanban", labelKey: "menu.kanban", group: "attendance", order: 30 },
  texts: { kanban: kanbanTexts, menu: kanbanMenuTexts },
  realtime: {
    ticket: onTicket,
    appMessage: (data, ctx) => {
      const d = data as { ticket?: unknown };
      if (isCard(d.ticket)) applyTicket(ctx.queryClient, d.ticket);
    },
    tag: (data, { queryClient }) => onKanbanTag(queryClient, data),
  },
};
