/**
 * Queues data hooks (administration.md §3 Queue, §6 `/queue` calls): `useQueues()` (GET /api/queue → array),
 * `useSaveQueue()` (POST /api/queue or PUT /api/queue/{id}), `useDeleteQueue()` (DELETE /api/queue/{id}).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../api/client.ts";
import { queuesKeys, removeQueue, upsertQueue } from "./cache.ts";
import type { Queue, QueueForm } from "./types.ts";

export function useQueues() {
  return useQuery({ queryKey: queuesKeys.all, queryFn: () => apiRequest<Queue[]>("GET", "/queue") });
}

export function useSaveQueue() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id?: number; form: QueueForm }) =>
      id ? apiRequest<Queue>("PUT", `/queue/${id}`, { body: form }) : apiRequest<Queue>("POST", "/queue", { body: form }),
    onSuccess: (queue) => {
      if (queue && typeof queue === "object" && "id" in queue) upsertQueue(qc, queue);
      else void qc.invalidateQueries({ queryKey: queuesKeys.all });
    },
  });
}

export function useDeleteQueue() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest("DELETE", `/queue/${id}`),
    onSuccess: (_r, id) => removeQueue(qc, id),
  });
}
