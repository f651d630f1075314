/**
 * Queues data hooks (administration.md §3 Queue, §6 `/queue` calls): `useQueues()` (GET /api/queue → array), and
 * `queueCalls` (POST /api/queue, PUT /api/queue/{id}, DELETE /api/queue/{id}) run by `useQueueMutations()`.
 */
import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";
import { useCrudMutations, type CrudCalls } from "../../ui/kit/crud.ts";
import { queuesCache, queuesKeys } from "./cache.ts";
import type { Queue, QueueForm } from "./types.ts";

export function useQueues() {
  return useQuery({ queryKey: queuesKeys.all, queryFn: () => call("GET /api/queue") });
}

export const queueCalls: CrudCalls<Queue, QueueForm> = {
  create: (form) => call("POST /api/queue", { body: form }),
  update: (id, form) => call("PUT /api/queue/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/queue/{id}", { params: { id } }),
};

export const useQueueMutations = () => useCrudMutations(queueCalls, queuesCache);
