/**
 * Queues data hooks (administration.md §3 Queue, §6 `/queue` calls): `useQueues()` (GET /api/queue → array),
 * `useSaveQueue()` (POST /api/queue or PUT /api/queue/{id}), `useDeleteQueue()` (DELETE /api/queue/{id}).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";
import { queuesKeys, removeQueue, upsertQueue } from "./cache.ts";
import type { QueueForm } from "./types.ts";

export function useQueues() {
  return useQuery({ queryKey: queuesKeys.all, queryFn: () => call("GET /api/queue") });
}

export function useSaveQueue() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id?: number; form: QueueForm }) =>
      id ? call("PUT /api/queue/{id}", { params: { id }, body: form }) : call("POST /api/queue", { body: form }),
    onSuccess: (queue) => {
      if (queue && typeof queue === "object" && "id" in queue) upsertQueue(qc, queue);
      else void qc.invalidateQueries({ queryKey: queuesKeys.all });
    },
  });
}

export function useDeleteQueue() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call("DELETE /api/queue/{id}", { params: { id } }),
    onSuccess: (_r, id) => removeQueue(qc, id),
  });
}
