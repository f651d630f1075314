/**
 * Quick messages data:
 * - `useQuickMessagePages(search)`: GET /api/quick-messages?searchParam&pageNumber → pages of `{records, count, hasMore}`;
 * - `useComposerQuickMessages(userId, enabled)`: GET /api/quick-messages/list?userId&status=true → the active ones
 *   the user may send (their own and the `geral` ones), what the composer's "/" list offers;
 * - `quickMessageCalls` (POST, PUT /{id}, DELETE /{id}) run by `useQuickMessageMutations()`, and the media
 *   (`POST /api/quick-messages/{id}/media-upload` with one `file`, `DELETE .../media-upload`);
 * - `sendQuickMessage(ticketId, body, id)`: POST /api/messages/{ticketId} `{body, quickMessageId}`: the server sends
 *   the quick message's media with `body` as caption (or `body` alone), its variables rendered.
 * `quickMessagesCache` keeps the pages current for mutations and `company-{id}-quickmessage` frames; the composer's
 * list is refetched on any of them.
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls, type EntityCache } from "../../ui/kit/crud.ts";

export type QuickMessage = ResponseOf<"GET /api/quick-messages/{id}">;
export type QuickMessageForm = BodyOf<"POST /api/quick-messages">;

const pages = pagedCache<QuickMessage, "records">({
  root: "quickMessages",
  field: "records",
  matches: (q, s) => !s || `${q.shortcode} ${q.message}`.toLowerCase().includes(s.toLowerCase()),
});
export const quickMessagesKeys = { ...pages.keys, composer: (userId: number) => ["quickMessages", "composer", userId] as const };

/** The pages and the composer's list: a change upserts into the pages and refetches the composer's list. */
export const quickMessagesCache: EntityCache<QuickMessage> = {
  upsert(qc, item) {
    pages.upsert(qc, item);
    refetchComposer(qc);
  },
  remove(qc, id) {
    pages.remove(qc, id);
    refetchComposer(qc);
  },
  reload: (qc) => void qc.invalidateQueries({ queryKey: pages.keys.all }),
};
const refetchComposer = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: ["quickMessages", "composer"] });

export const useQuickMessagePages = (search: string) => useNumberedPages(pages, search, (query) => call("GET /api/quick-messages", { query }));

export function useComposerQuickMessages(userId: number, enabled: boolean) {
  return useQuery({
    queryKey: quickMessagesKeys.composer(userId),
    enabled,
    staleTime: 60_000,
    queryFn: () => call("GET /api/quick-messages/list", { query: { userId, status: "true" } }),
  });
}

export const quickMessageCalls: CrudCalls<QuickMessage, QuickMessageForm> = {
  create: (form) => call("POST /api/quick-messages", { body: form }),
  update: (id, form) => call("PUT /api/quick-messages/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/quick-messages/{id}", { params: { id } }),
};

export const useQuickMessageMutations = () => useCrudMutations(quickMessageCalls, quickMessagesCache);

/** Uploads (replacing) the media of a saved quick message; the spec's `typeArch` goes along. */
export function uploadQuickMessageMedia(id: number, file: File): Promise<QuickMessage> {
  const form = new FormData();
  form.append("typeArch", "quickMessage");
  form.append("file", file, file.name);
  return call("POST /api/quick-messages/{id}/media-upload", { params: { id }, form });
}

/** Removes the media of a quick message. */
export const removeQuickMessageMedia = (id: number) => call("DELETE /api/quick-messages/{id}/media-upload", { params: { id } });

/** Sends a quick message into a ticket: its media (with `body` as caption) or `body` alone. */
export const sendQuickMessage = (ticketId: number, body: string, quickMessageId: number) =>
  call("POST /api/messages/{ticketId}", { params: { ticketId }, body: { body, quickMessageId } });
