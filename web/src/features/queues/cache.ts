/** Queues cache updates shared by mutations and the realtime table (`company-{id}-queue`). */
import type { QueryClient } from "@tanstack/react-query";
import type { Queue } from "./types.ts";

export const queuesKeys = { all: ["queues"] as const };

const sortQueues = (xs: Queue[]) =>
  [...xs].sort((a, b) => (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) || a.id - b.id);

/** Inserts or replaces a queue in the loaded list. */
export function upsertQueue(qc: QueryClient, queue: Queue): void {
  qc.setQueryData<Queue[]>(queuesKeys.all, (xs) =>
    xs ? sortQueues(xs.some((q) => q.id === queue.id) ? xs.map((q) => (q.id === queue.id ? { ...q, ...queue } : q)) : [...xs, queue]) : xs,
  );
}

/** Removes a queue from the loaded list. */
export function removeQueue(qc: QueryClient, queueId: number): void {
  qc.setQueryData<Queue[]>(queuesKeys.all, (xs) => xs?.filter((q) => q.id !== queueId));
}
