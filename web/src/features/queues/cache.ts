/** Queues cache (kit `arrayCache`, GET /api/queue answers the whole list), shared by mutations and `company-{id}-queue`. */
import type { QueryClient } from "@tanstack/react-query";
import { arrayCache } from "../../ui/kit/crud.ts";
import type { Queue } from "./types.ts";

export const queuesKeys = { all: ["queues"] as const };

/** Queues in bot order, then by id. */
const byOrder = (a: Queue, b: Queue) => (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;

export const queuesCache = arrayCache<Queue>({ key: queuesKeys.all, sort: byOrder });

/** Inserts or replaces a queue in the loaded list. */
export const upsertQueue = (qc: QueryClient, queue: Queue) => queuesCache.upsert(qc, queue);
/** Removes a queue from the loaded list. */
export const removeQueue = (qc: QueryClient, queueId: number) => queuesCache.remove(qc, queueId);
