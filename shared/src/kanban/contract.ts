/**
 * Kanban operations (docs/product/kanban.md), behind the plan flag `useKanban` (403 `ERR_PLAN_FEATURE_DISABLED`
 * for a company whose plan has it off). Open to any logged-in user; each sees the tickets the ticket list shows them.
 * Moving a card is `POST /api/tags/sync` (the tags' contract).
 */
import { defineRoutes } from "../contract.ts";
import { KanbanBoard, KanbanBoardQuery, KanbanLanePage, KanbanLaneParams, KanbanLaneQuery } from "./schema.ts";

export const kanbanRoutes = defineRoutes("kanban", {
  "GET /api/ticket/kanban": { auth: "user", plan: "useKanban", query: KanbanBoardQuery, response: KanbanBoard },
  "GET /api/ticket/kanban/{laneId}": { auth: "user", plan: "useKanban", params: KanbanLaneParams, query: KanbanLaneQuery, response: KanbanLanePage },
});
