/**
 * Queues area (docs/product/queues.md#queues). Thin: call the queues service.
 * Contract: `shared/src/queues/contract.ts`.
 */
import { createQueue, deleteQueue, deleteQueueMedia, listCompanyQueues, showQueue, updateQueue, uploadQueueMedia } from "@atende/shared/queues/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("queues", {
  "GET /api/queue": async (ctx) => listCompanyQueues(ctx.auth),
  "GET /api/queue/{id}": async (ctx) => showQueue(ctx.auth, ctx.params.id),
  "POST /api/queue": async (ctx) => createQueue(ctx.auth, ctx.body),
  "PUT /api/queue/{id}": async (ctx) => updateQueue(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/queue/{id}": answering("Queue deleted", (ctx) => deleteQueue(ctx.auth, ctx.params.id)),
  "POST /api/queue/{id}/media-upload": async (ctx) => uploadQueueMedia(ctx.auth, ctx.params.id, ctx.upload),
  "DELETE /api/queue/{id}/media-upload": async (ctx) => deleteQueueMedia(ctx.auth, ctx.params.id),
});
