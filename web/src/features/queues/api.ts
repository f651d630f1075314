/**
 * Queues data hooks (administration.md §3 Queue, §6 `/queue` calls): `useQueues()` (GET /api/queue → array), and
 * `queueCalls` (POST /api/queue, PUT /api/queue/{id}, DELETE /api/queue/{id}) run by `useQueueMutations()`.
 */
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../api/client.ts";
import { useCrudMutations, type CrudCalls } from "../../ui/kit/crud.ts";
import { queuesCache, queuesKeys } from "./cache.ts";
import type { Queue, QueueForm } from "./types.ts";

export function useQueues() {
  return useQuery({ queryKey: queuesKeys.all, queryFn: () => apiRequest<Queue[]>("GET", "/queue") });
}

export const queueCalls: CrudCalls<Queue, QueueForm> = {
  create: (form) => apiRequest<Queue>("POST", "/queue", { body: form }),
  update: (id, form) => apiRequest<Queue>("PUT", `/queue/${id}`, { body: form }),
  remove: (id) => apiRequest("DELETE", `/queue/${id}`),
};

export const useQueueMutations = () => useCrudMutations(queueCalls, queuesCache);
