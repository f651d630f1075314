/**
 * Internal chat data (docs/product/chats.md):
 * - `useChatPages()`: GET /api/chats?pageNumber → pages of the caller's chats, latest activity first (the page, the
 *   menu's unread dot and the top bar's popover share it);
 * - `useChatMessages(chatId)`: GET /api/chats/{id}/messages?pageNumber → pages newest first (page 2 = earlier ones);
 * - `chatCalls` (POST, PUT /{id}, DELETE /{id}), `sendChatMessage`, `markChatRead` (POST /api/chats/{id}/read).
 * `chatsCache` keeps the lists current from mutations and `company-{id}-chat` frames: a changed chat moves to the
 * top, a new message joins its chat's loaded messages once (by id).
 */
import { useInfiniteQuery, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { isStale, pagedCache, useCrudMutations, useNumberedPages, type CrudCalls, type EntityCache } from "../../ui/kit/crud.ts";

export type Chat = ResponseOf<"POST /api/chats">;
export type ChatMessage = ResponseOf<"POST /api/chats/{id}/messages">;
export type ChatForm = BodyOf<"POST /api/chats">;
type MessagesPage = ResponseOf<"GET /api/chats/{id}/messages">;

const pages = pagedCache<Chat, "records">({ root: "chats", field: "records" });
const messagesKey = (chatId: number) => ["chatMessages", chatId] as const;

/** The chats loaded in the cache (every loaded page), for lookups by id. */
function cachedChat(qc: QueryClient, id: number): Chat | undefined {
  for (const [, data] of qc.getQueriesData<InfiniteData<{ records: Chat[] }>>({ queryKey: pages.keys.pagesAll })) {
    const found = data?.pages.flatMap((p) => p.records).find((c) => c.id === id);
    if (found) return found;
  }
  return undefined;
}

/** The chats cache: an upsert moves the chat to the top (lists are by latest activity); older copies are dropped. */
export const chatsCache: EntityCache<Chat> = {
  upsert(qc, item) {
    if (isStale(cachedChat(qc, item.id), item)) return;
    pages.remove(qc, item.id);
    pages.upsert(qc, item);
  },
  remove(qc, id) {
    pages.remove(qc, id);
    qc.removeQueries({ queryKey: messagesKey(id) });
  },
  reload: (qc) => void qc.invalidateQueries({ queryKey: pages.keys.all }),
};

/** Adds a message to its chat's loaded messages (newest first in page 1), once. */
export function addChatMessage(qc: QueryClient, m: ChatMessage): void {
  qc.setQueryData<InfiniteData<MessagesPage>>(messagesKey(m.chatId), (data) => {
    if (!data || data.pages.some((p) => p.records.some((r) => r.id === m.id))) return data;
    return { ...data, pages: data.pages.map((p, i) => (i === 0 ? { ...p, records: [m, ...p.records], count: p.count + 1 } : p)) };
  });
}

export const useChatPages = () => useNumberedPages(pages, "", (query) => call("GET /api/chats", { query }));

export function useChatMessages(chatId: number | undefined) {
  return useInfiniteQuery({
    queryKey: messagesKey(chatId ?? 0),
    enabled: chatId !== undefined,
    queryFn: ({ pageParam }) => call("GET /api/chats/{id}/messages", { params: { id: chatId! }, query: { pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last: MessagesPage, all: MessagesPage[]) => (last.hasMore ? all.length + 1 : undefined),
  });
}

export const chatCalls: CrudCalls<Chat, ChatForm> = {
  create: (form) => call("POST /api/chats", { body: form }),
  update: (id, form) => call("PUT /api/chats/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/chats/{id}", { params: { id } }),
};

export const useChatMutations = () => useCrudMutations(chatCalls, chatsCache);

export const sendChatMessage = (id: number, message: string) => call("POST /api/chats/{id}/messages", { params: { id }, body: { message } });

export const markChatRead = (id: number, userId: number) => call("POST /api/chats/{id}/read", { params: { id }, body: { userId } });

/** The caller's unread count in a chat. */
export const unreadsOf = (chat: Chat, userId: number): number => chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

/** Chats deleted live (a `delete` frame): the open view listens to clear itself and go back to /chats. */
export const deletedChats = new EventTarget();
