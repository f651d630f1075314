/**
 * Tickets screen data: ticket lists, one ticket by uuid, its messages and notes, and the
 * actions. Successful writes update the caches with the same helpers the realtime table uses (`cache.ts`).
 *
 * - `useTicketPages(params)`: GET /api/tickets (cursor paging) → pages `{tickets, count, hasMore, nextCursor}`.
 * - `useTicketCounts(params)`: GET /api/tickets/counts → the sub-tabs' exact counts (refetched on ticket frames, `counts.ts`).
 * - `useTicketByUuid(uuid)`: GET /api/tickets/u/{uuid}.
 * - `useMessagePages(ticketId)`: GET /api/messages/{ticketId} (page 1 newest; each page oldest → newest).
 * - `useUpdateTicket()`: PUT /api/tickets/{id} (accept, return, resolve, reopen, transfer, close).
 */
import { can } from "@atende/shared/access/permissions";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { HttpError } from "../../api/client.ts";
import { call } from "../../api/operations.ts";
import { useSession, type SessionUser } from "../../api/session.ts";
import { removeTicket, ticketsKeys, upsertMessage, upsertTicket, type Viewer } from "./cache.ts";
import type { Message, TicketListParams } from "./types.ts";

/** The viewer rules of the logged-in user. */
export function viewerOf(user: SessionUser): Viewer {
  return { userId: user.id, admin: can(user, "tickets:seeAll"), queueIds: user.queueIds ?? user.queues?.map((q) => q.id) ?? [], allTicket: user.allTicket === "enabled" };
}

export function useViewer(): Viewer {
  const s = useSession();
  return s ? viewerOf(s.user) : { userId: 0, admin: false, queueIds: [], allTicket: false };
}

export function useTicketPages(params: TicketListParams, enabled = true) {
  return useInfiniteQuery({
    queryKey: ticketsKeys.list(params),
    enabled,
    queryFn: async ({ pageParam }) => {
      const page = await call("GET /api/tickets", {
        query: {
          status: params.status,
          showAll: params.showAll ? "true" : undefined,
          queueIds: params.queueIds?.length ? JSON.stringify(params.queueIds) : undefined,
          searchParam: params.searchParam,
          users: params.users?.length ? JSON.stringify(params.users) : undefined,
          tags: params.tags?.length ? JSON.stringify(params.tags) : undefined,
          cursor: pageParam,
        },
      });
      const tickets = params.isGroup === undefined ? page.tickets : page.tickets.filter((t) => t.isGroup === params.isGroup);
      return { ...page, tickets };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
  });
}

/** How often the counts are read again while shown, besides the ticket frames (a count applied late), in ms. */
export const COUNTS_REFRESH_MS = 60_000;

/** The sub-tabs' counts for the list's show-all switch and queue filter (docs/product/tickets.md#tab-counts). */
export function useTicketCounts(params: { showAll?: boolean; queueIds?: number[] }, enabled = true) {
  return useQuery({
    queryKey: ticketsKeys.counts(params),
    enabled,
    queryFn: () =>
      call("GET /api/tickets/counts", {
        query: { showAll: params.showAll ? "true" : undefined, queueIds: params.queueIds?.length ? JSON.stringify(params.queueIds) : undefined },
      }),
    refetchInterval: COUNTS_REFRESH_MS,
  });
}

export function useTicketByUuid(uuid: string | undefined) {
  return useQuery({
    queryKey: ticketsKeys.byUuid(uuid ?? ""),
    enabled: !!uuid,
    queryFn: () => call("GET /api/tickets/u/{uuid}", { params: { uuid: uuid! } }),
    retry: false,
    staleTime: 0,
  });
}

/** The conversation's pages; `peek` reads them without marking anything read (the admin's eye on a waiting ticket). */
export function useMessagePages(ticketId: number | undefined, peek = false) {
  return useInfiniteQuery({
    queryKey: ticketsKeys.messages(ticketId ?? 0),
    enabled: !!ticketId,
    queryFn: ({ pageParam }) =>
      call("GET /api/messages/{ticketId}", { params: { ticketId: ticketId! }, query: { cursor: pageParam, ...(peek ? { peek: true } : {}) } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
    staleTime: 0,
  });
}

/** Body of `PUT /api/tickets/{id}`. */
export interface TicketUpdate {
  status?: "open" | "pending" | "closed";
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number;
  justClose?: boolean;
}

export function useUpdateTicket() {
  const qc = useQueryClient();
  const s = useSession();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TicketUpdate }) => call("PUT /api/tickets/{id}", { params: { id }, body }),
    onSuccess: (t) => {
      if (t && typeof t === "object" && "id" in t && s) upsertTicket(qc, t, viewerOf(s.user));
    },
  });
}

export function useCreateTicket() {
  const qc = useQueryClient();
  const s = useSession();
  return useMutation({
    mutationFn: (body: { contactId: number; queueId?: number | null; whatsappId?: number | null; userId?: number; status?: "open" }) =>
      call("POST /api/tickets", { body }),
    onSuccess: (t) => {
      if (t && typeof t === "object" && "id" in t && s) upsertTicket(qc, t, viewerOf(s.user));
    },
  });
}

export function useDeleteTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call("DELETE /api/tickets/{id}", { params: { id } }),
    onSuccess: (_r, id) => removeTicket(qc, id),
  });
}

export function useCloseAll() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { status: "open" | "pending"; selectedQueueIds?: number[] }) => call("POST /api/tickets/closeAll", { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ticketsKeys.listsAll }),
  });
}

/** Text send (`POST /api/messages/{ticketId}`); the stored message (ack 0) is added to the conversation at once. */
export function useSendText() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body, quotedMsg, signMessage }: { ticketId: number; body: string; quotedMsg?: Message | null; signMessage: boolean }) =>
      call("POST /api/messages/{ticketId}", { params: { ticketId }, body: { body, quotedMsg: quotedMsg ? { id: quotedMsg.id } : null, signMessage } }),
    onSuccess: (m) => {
      if (m && typeof m === "object" && "id" in m) upsertMessage(qc, m);
    },
    onError: (e) => {
      const m = e instanceof HttpError && e.body && typeof e.body === "object" ? (e.body as { message?: Message }).message : undefined;
      if (m && typeof m === "object" && "id" in m) upsertMessage(qc, m);
    },
  });
}

/**
 * Sends files (docs/product/messages.md#media): each file is uploaded straight to S3 through a presigned PUT from `POST /api/media/uploads`
 * (the key, content type and size are fixed by the server), with upload progress (0..1 over all files) through
 * XMLHttpRequest (fetch has no upload progress); then `POST /api/messages/{ticketId}` `{body: caption, medias}` sends
 * them by key, one message each. The API calls go through `call` (session refresh rule included).
 * @throws HttpError on a non-2xx answer (of the API or of S3's PUT).
 */
export async function uploadMedia(ticketId: number, files: File[], caption: string, onProgress?: (p: number) => void): Promise<Message[]> {
  const total = files.reduce((n, f) => n + f.size, 0) || 1;
  let done = 0;
  const medias: { key: string; fileName: string }[] = [];
  for (const f of files) {
    const up = await call("POST /api/media/uploads", { body: { ticketId, fileName: f.name, contentType: f.type || "application/octet-stream", size: f.size } });
    const r = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(up.method, up.url);
      for (const [k, v] of Object.entries(up.headers)) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.((done + e.loaded) / total);
      xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
      xhr.onerror = () => reject(new TypeError("network error"));
      xhr.send(f);
    });
    if (r.status < 200 || r.status >= 300) throw new HttpError(r.status, undefined, r.text, r.text);
    done += f.size;
    medias.push({ key: up.key, fileName: f.name });
  }
  const sent = await call("POST /api/messages/{ticketId}", { params: { ticketId }, body: { body: caption, medias } });
  return (Array.isArray(sent) ? sent : [sent]) as Message[];
}

export function useNotes(ticketId: number | undefined, contactId: number | undefined) {
  return useQuery({
    queryKey: ticketsKeys.notes(ticketId ?? 0),
    enabled: !!ticketId,
    queryFn: () => call("GET /api/ticket-notes/list", { query: { ticketId, contactId } }),
  });
}

export function useAddNote() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { note: string; ticketId: number; contactId: number }) => call("POST /api/ticket-notes", { body: b }),
    onSuccess: (_n, b) => void qc.invalidateQueries({ queryKey: ticketsKeys.notes(b.ticketId) }),
  });
}

export function useDeleteNote() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: number; ticketId: number }) => call("DELETE /api/ticket-notes/{id}", { params: { id } }),
    onSuccess: (_r, v) => void qc.invalidateQueries({ queryKey: ticketsKeys.notes(v.ticketId) }),
  });
}

/** Message actions: edit, delete, react, forward (one call each). */
export const messageActions = {
  edit: (id: string, body: string) => call("POST /api/messages/edit/{id}", { params: { id }, body: { body } }),
  remove: (id: string) => call("DELETE /api/messages/{id}", { params: { id } }),
  react: (id: string, type: string) => call("POST /api/messages/{id}/reactions", { params: { id }, body: { type } }),
  forward: (messageId: string, contactId: number, signMessage: boolean) => call("POST /api/message/forward", { body: { messageId, contactId, signMessage } }),
  /** A fresh presigned URL for a message's media (`GET /api/media/{messageId}`). */
  mediaUrl: (id: string) => call("GET /api/media/{messageId}", { params: { messageId: id } }),
};
