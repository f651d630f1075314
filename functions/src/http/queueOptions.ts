/**
 * Queue options area (docs/product/queues.md#options): a queue's chatbot tree, admins only.
 * Thin: call the queue options service. Contract: `shared/src/queues/options/contract.ts`.
 */
import { createOption, deleteOption, deleteOptionMedia, listOptions, updateOption, uploadOptionMedia } from "@atende/shared/queues/options/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("queueOptions", {
  "GET /api/queue-options": async (ctx) => listOptions(ctx.auth, ctx.query.queueId, ctx.query.parentId ?? null),
  "POST /api/queue-options": async (ctx) => createOption(ctx.auth, ctx.body),
  "PUT /api/queue-options/{id}": async (ctx) => updateOption(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/queue-options/{id}": answering("Option Deleted", (ctx) => deleteOption(ctx.auth, ctx.params.id)),
  "POST /api/queue-options/{id}/media-upload": async (ctx) => uploadOptionMedia(ctx.auth, ctx.params.id, ctx.upload),
  "DELETE /api/queue-options/{id}/media-upload": async (ctx) => deleteOptionMedia(ctx.auth, ctx.params.id),
});
