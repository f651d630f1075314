/**
 * Queues operations (docs/product/queues.md). `companyId` in `GET /api/queue`'s query (an optional parameter the old
 * clients send) is accepted and ignored: the token's company is used.
 */
import { z } from "zod";
import { defineRoutes, IdParams, MessageReply } from "../contract.ts";
import { CreateQueueBody, QueueItem, UpdateQueueBody } from "./schema.ts";

export const queuesRoutes = defineRoutes("queues", {
  "GET /api/queue": { auth: "user", response: z.array(QueueItem) },
  "GET /api/queue/{id}": { auth: "user", params: IdParams, response: QueueItem },
  "POST /api/queue": { auth: "admin", body: CreateQueueBody, response: QueueItem },
  "PUT /api/queue/{id}": { auth: "admin", params: IdParams, body: UpdateQueueBody, response: QueueItem },
  "DELETE /api/queue/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  /** Multipart: one file in `medias` (or `file`); stored under the company's media prefix. */
  "POST /api/queue/{id}/media-upload": { auth: "admin", params: IdParams, multipart: true, response: QueueItem },
  "DELETE /api/queue/{id}/media-upload": { auth: "admin", params: IdParams, response: QueueItem },
});
