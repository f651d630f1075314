/**
 * Queue option operations (docs/product/queues.md#options): the chatbot tree of a queue.
 * Admins only; every read and write is in the caller's company.
 */
import { z } from "zod";
import { defineRoutes, IdParams, MessageReply } from "../../contract.ts";
import { CreateQueueOptionBody, ListQueueOptionsQuery, QueueOptionView, UpdateQueueOptionBody } from "./schema.ts";

export const queueOptionsRoutes = defineRoutes("queueOptions", {
  "GET /api/queue-options": { auth: "admin", query: ListQueueOptionsQuery, response: z.array(QueueOptionView) },
  "POST /api/queue-options": { auth: "admin", body: CreateQueueOptionBody, response: QueueOptionView },
  "PUT /api/queue-options/{id}": { auth: "admin", params: IdParams, body: UpdateQueueOptionBody, response: QueueOptionView },
  "DELETE /api/queue-options/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  "POST /api/queue-options/{id}/media-upload": { auth: "admin", params: IdParams, multipart: true, response: QueueOptionView },
  "DELETE /api/queue-options/{id}/media-upload": { auth: "admin", params: IdParams, response: QueueOptionView },
});
