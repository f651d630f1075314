/** Queues area (administration.md §2 Queues; admin): /queues, its menu entry, texts and `company-{id}-queue` frames. */
import { crudRealtime } from "../../ui/kit/crud.ts";
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { queuesCache } from "./cache.ts";
import { queuesTexts } from "./i18n.ts";

const QueuesPage = lazyPage(() => import("./QueuesPage.tsx"), "QueuesPage");

export const queuesFeature: Feature = {
  id: "queues",
  access: ADMIN_ONLY,
  routes: [{ path: "/queues", element: <QueuesPage /> }],
  menu: { path: "/queues", labelKey: "menu.queues", group: "administration", order: 30 },
  texts: { queues: queuesTexts },
  realtime: { queue: crudRealtime("queue", queuesCache) },
};
