/** Kanban area. Thin: calls the kanban service. Contract: `shared/src/kanban/contract.ts`. */
import { kanbanBoard, kanbanLanePage } from "@atende/shared/kanban/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("kanban", {
  "GET /api/ticket/kanban": async (ctx) => kanbanBoard(ctx.auth, ctx.query),
  "GET /api/ticket/kanban/{laneId}": async (ctx) => kanbanLanePage(ctx.auth, ctx.params.laneId, ctx.query),
});
