/**
 * Queues data hooks (docs/product/queues.md): `useQueues()` (GET /api/queue → array),
 * `queueCalls` (POST /api/queue, PUT /api/queue/{id}, DELETE /api/queue/{id}) run by `useQueueMutations()`, the queue's
 * media (`POST/DELETE /api/queue/{id}/media-upload`), and the option tree of a queue (`useQueueOptions`,
 * `useOptionMutations`: GET/POST/PUT/DELETE /api/queue-options, option media) kept live by `company-{id}-queueOption`
 * frames (`onQueueOptionFrame`).
 */
import type { FrameMap } from "@atende/shared/events/frame-map";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";
import { useCrudMutations, type CrudCalls } from "../../ui/kit/crud.ts";
import { queuesCache, queuesKeys } from "./cache.ts";
import type { Queue, QueueForm, QueueOption } from "./types.ts";

export function useQueues() {
  return useQuery({ queryKey: queuesKeys.all, queryFn: () => call("GET /api/queue") });
}

export const queueCalls: CrudCalls<Queue, QueueForm> = {
  create: (form) => call("POST /api/queue", { body: form }),
  update: (id, form) => call("PUT /api/queue/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/queue/{id}", { params: { id } }),
};

export const useQueueMutations = () => useCrudMutations(queueCalls, queuesCache);

/** A multipart body with one file under `medias` (the API's upload field). */
const oneFile = (file: File) => {
  const form = new FormData();
  form.append("medias", file, file.name);
  return form;
};

/** The queue's media: upload (replaces) and remove; the answer (the queue) updates the list. */
export function useQueueMedia() {
  const qc = useQueryClient();
  const upload = useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => call("POST /api/queue/{id}/media-upload", { params: { id }, form: oneFile(file) }),
    onSuccess: (q) => queuesCache.upsert(qc, q),
  });
  const remove = useMutation({
    mutationFn: (id: number) => call("DELETE /api/queue/{id}/media-upload", { params: { id } }),
    onSuccess: (q) => queuesCache.upsert(qc, q),
  });
  return { upload, remove };
}

export const optionKeys = { tree: (queueId: number) => ["queueOptions", queueId] as const };

/** The whole option tree of a queue (top level, each node with its ordered children). */
export function useQueueOptions(queueId: number | undefined) {
  return useQuery({
    queryKey: optionKeys.tree(queueId ?? 0),
    queryFn: () => call("GET /api/queue-options", { query: { queueId: queueId!, parentId: -1 } }),
    enabled: !!queueId,
  });
}

/**
 * `company-{id}-queueOption` (`{action, queueId, option | optionId, options}`): the frame carries the queue's whole tree
 * after the change, so a queue dialog open on that queue (here or in another admin's browser) shows it at once.
 */
export function onQueueOptionFrame(data: FrameMap["queueOption"], qc: QueryClient): void {
  qc.setQueryData<QueueOption[]>(optionKeys.tree(data.queueId), data.options);
}

/** Moves `id` to `index` among its siblings in a cached tree (the server renumbers the same way). */
export function moveInTree(nodes: QueueOption[], id: number, index: number): QueueOption[] {
  const i = nodes.findIndex((n) => n.id === id);
  if (i >= 0) {
    const next = [...nodes];
    const [it] = next.splice(i, 1);
    next.splice(index, 0, it);
    return next.map((n, k) => ({ ...n, option: String(k + 1) }));
  }
  return nodes.map((n) => ({ ...n, children: moveInTree(n.children, id, index) }));
}

/** Create, change, move, delete and media of options; each refetches the queue's tree (moves apply at once). */
export function useOptionMutations(queueId: number) {
  const qc = useQueryClient();
  const key = optionKeys.tree(queueId);
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: (body: { parentId: number | null; title: string; message?: string }) => call("POST /api/queue-options", { body: { queueId, parentId: body.parentId ?? -1, title: body.title, message: body.message ?? "" } }),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, ...body }: { id: number; title?: string; message?: string }) => call("PUT /api/queue-options/{id}", { params: { id }, body }),
    onSuccess: refresh,
  });
  const move = useMutation({
    mutationFn: ({ id, index }: { id: number; index: number }) => call("PUT /api/queue-options/{id}", { params: { id }, body: { option: String(index + 1) } }),
    onMutate: ({ id, index }) => qc.setQueryData<QueueOption[]>(key, (xs) => (xs ? moveInTree(xs, id, index) : xs)),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (id: number) => call("DELETE /api/queue-options/{id}", { params: { id } }), onSuccess: refresh });
  const upload = useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => call("POST /api/queue-options/{id}/media-upload", { params: { id }, form: oneFile(file) }),
    onSuccess: refresh,
  });
  const removeMedia = useMutation({ mutationFn: (id: number) => call("DELETE /api/queue-options/{id}/media-upload", { params: { id } }), onSuccess: refresh });
  return { create, update, move, remove, upload, removeMedia };
}
