/**
 * Queues area (docs/product/queues.md; admin): /queues, its menu entry, texts (queues, weekdays, the queues'
 * error codes), `company-{id}-queue` frames and `company-{id}-queueOption` frames (an open option editor follows other
 * admins' edits).
 */
import { crudRealtime } from "../../ui/kit/crud.ts";
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { onQueueOptionFrame } from "./api.ts";
import { queuesCache } from "./cache.ts";
import { queuesErrorTexts, queuesTexts, weekdayTexts } from "./i18n.ts";
import "./queues.css";

const QueuesPage = lazyPage(() => import("./QueuesPage.tsx"), "QueuesPage");

export const queuesFeature: Feature = {
  id: "queues",
  access: ADMIN_ONLY,
  routes: [{ path: "/queues", element: <QueuesPage /> }],
  menu: { path: "/queues", labelKey: "menu.queues", group: "administration", order: 30 },
  texts: { queues: queuesTexts, errors: queuesErrorTexts, weekdays: weekdayTexts },
  realtime: { queue: crudRealtime("queue", queuesCache), queueOption: (data, ctx) => onQueueOptionFrame(data, ctx.queryClient) },
};
