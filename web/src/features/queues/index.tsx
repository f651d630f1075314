/** Queues area (admin): /queues. */
import type { Feature } from "../types.ts";
import { lazyPage } from "../lazy.tsx";

const QueuesPage = lazyPage(() => import("./QueuesPage.tsx"), "QueuesPage");

export const queuesFeature: Feature = {
  id: "queues",
  routes: [{ path: "/queues", element: <QueuesPage /> }],
  menu: { path: "/queues", labelKey: "menu.queues", group: "administration", order: 30, access: "admin" },
};
