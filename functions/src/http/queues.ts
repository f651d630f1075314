/**
 * Queues area (administration.md §3 Queue, §5, §7; issue 2 §4). Thin: parse, call the queues service.
 */
import { z } from "zod";
import { zId } from "@atende/shared/common";
import { CreateQueueBody, UpdateQueueBody } from "@atende/shared/queues/schema";
import { createQueue, deleteQueue, listCompanyQueues, showQueue, updateQueue } from "@atende/shared/queues/service";
import { areaHandler, reply, route } from "./core/http.ts";

const IdParams = z.object({ id: zId });

export const handler = areaHandler("queues", {
  /** `companyId` in the query (the spec's optional parameter) is accepted and ignored: the token's company is used. */
  "GET /api/queue": route({
    handler: async (ctx) => listCompanyQueues(ctx.auth),
  }),
  "GET /api/queue/{id}": route({
    params: IdParams,
    handler: async (ctx) => showQueue(ctx.auth, ctx.params.id),
  }),
  "POST /api/queue": route({
    body: CreateQueueBody,
    handler: async (ctx) => createQueue(ctx.auth, ctx.body),
  }),
  "PUT /api/queue/{id}": route({
    params: IdParams,
    body: UpdateQueueBody,
    handler: async (ctx) => updateQueue(ctx.auth, ctx.params.id, ctx.body),
  }),
  "DELETE /api/queue/{id}": route({
    params: IdParams,
    handler: async (ctx) => {
      await deleteQueue(ctx.auth, ctx.params.id);
      return reply(200, { message: "Queue deleted" });
    },
  }),
});
