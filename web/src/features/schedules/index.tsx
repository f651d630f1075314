/**
 * Scheduled messages area (docs/product/schedules.md; plan flag `useSchedules`): /schedules (the calendar and the
 * list), its menu entry, texts, the `company-{id}-schedule` frames (`{action, schedule}` or `{action: "delete",
 * scheduleId}`), and, through the slots, the conversation header's "Agendar mensagem" button and the contact drawer's
 * schedules section.
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage, lazyPart } from "../lazy.tsx";
import type { Access, Feature } from "../types.ts";
import { schedulesCache } from "./api.ts";
import { schedulesErrorTexts, schedulesMenuTexts, schedulesTexts } from "./i18n.ts";

const SchedulesPage = lazyPage(() => import("./SchedulesPage.tsx"), "SchedulesPage");
const access: Access = { planFlag: "useSchedules" };

const onFrame: RealtimeHandler<"schedule"> = (d, { queryClient }) => {
  if (d.action === "delete") schedulesCache.remove(queryClient, d.scheduleId);
  else schedulesCache.upsert(queryClient, d.schedule);
};

export const schedulesFeature: Feature = {
  id: "schedules",
  access,
  routes: [{ path: "/schedules", element: <SchedulesPage /> }],
  menu: { path: "/schedules", labelKey: "menu.schedules", group: "attendance", order: 60 },
  texts: { schedules: schedulesTexts, menu: schedulesMenuTexts, errors: schedulesErrorTexts },
  realtime: { schedule: onFrame },
  slots: {
    conversationHeader: [{ id: "schedule", order: 20, access, Component: lazyPart(() => import("./ConversationSchedule.tsx"), "ConversationSchedule") }],
    contactDrawer: [{ id: "schedules", order: 20, access, Component: lazyPart(() => import("./ContactSchedules.tsx"), "ContactSchedules") }],
  },
};
