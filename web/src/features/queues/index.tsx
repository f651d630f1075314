/** Queues area (admin): /queues. */
import type { Feature } from "../types.ts";
import { QueuesPage } from "./QueuesPage.tsx";

export const queuesFeature: Feature = {
  id: "queues",
  routes: [{ path: "/queues", element: <QueuesPage /> }],
  menu: { path: "/queues", labelKey: "menu.queues", group: "administration", order: 30, access: "admin" },
};
