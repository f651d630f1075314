/**
 * Internal chat (docs/product/chats.md): conversations between users of one company, outside WhatsApp. Three blocks:
 *
 * 1. the stored items (what DynamoDB holds),
 * 2. request schemas (bodies, queries, path params) — the edge parses every input with these,
 * 3. response and realtime shapes (what the API answers and what `company-{id}-chat` carries).
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";

/** Chats per page of `GET /api/chats`. */
export const CHATS_PAGE_SIZE = 20;
/** Messages per page of `GET /api/chats/{id}/messages`. */
export const CHAT_MESSAGES_PAGE_SIZE = 20;
/** Longest chat title. */
export const CHAT_TITLE_MAX = 100;
/** Longest chat message. */
export const CHAT_MESSAGE_MAX = 10000;
/** Most members of one chat (the owner included). */
export const CHAT_MEMBERS_MAX = 100;

// ---------------------------------------------------------------------------------------------
// 1. Stored items

/** One member of a chat: the user, the name shown, and how many messages they have not read. */
export const ChatMember = z.object({ userId: z.number().int(), name: z.string(), unreads: z.number().int().min(0) });
export type ChatMember = z.infer<typeof ChatMember>;

/**
 * Chat item `C#<cid>` / `CHAT#<id>` (`keys.chat`). `ownerId` is its creator (the only one who edits or deletes it);
 * `members` maps each member's user id to their name; `unreads` maps it to their unread count (kept apart so a new
 * message adds to every other member's count in one atomic update).
 */
export const ChatItem = z.object({
  id: z.number().int(),
  uuid: z.string(),
  companyId: z.number().int(),
  title: z.string(),
  ownerId: z.number().int(),
  members: z.record(z.string(), z.string()),
  unreads: z.record(z.string(), z.number().int()).default({}),
  lastMessage: z.string().default(""),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChatItem = z.infer<typeof ChatItem>;

/** Chat message item `C#<cid>#CHAT#<chatId>` / `CM#<createdAt>#<id>` (`keys.chatMessage`). */
export const ChatMessageItem = z.object({
  id: z.number().int(),
  chatId: z.number().int(),
  companyId: z.number().int(),
  senderId: z.number().int(),
  senderName: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type ChatMessageItem = z.infer<typeof ChatMessageItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

const title = z
  .string({ error: () => "Por favor, preencha o título da conversa." })
  .trim()
  .min(1, "Por favor, preencha o título da conversa.")
  .max(CHAT_TITLE_MAX, "Too Long!");

/** The members a form sends: user ids, or `{id}` objects as the old screens sent them. */
const users = z
  .array(z.union([zId, z.object({ id: zId }).transform((u) => u.id)]), { error: () => "Por favor, selecione pelo menos um usuário." })
  .min(1, "Por favor, selecione pelo menos um usuário.")
  .max(CHAT_MEMBERS_MAX);

/** `POST /api/chats`: title (required) and the users (at least one; the caller is added as owner and member). */
export const CreateChatBody = z.object({ title, users });
export type CreateChatBody = z.infer<typeof CreateChatBody>;

/** `PUT /api/chats/{id}` (owner only): the new title and/or member list (the owner always stays a member). */
export const UpdateChatBody = z.object({ title: title.optional(), users: users.optional() });
export type UpdateChatBody = z.infer<typeof UpdateChatBody>;

/** `GET /api/chats`: `searchParam` (title contains, accent- and case-insensitive), `pageNumber`. */
export const ListChatsQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber: zPageNumber });
export type ListChatsQuery = z.infer<typeof ListChatsQuery>;

/** `GET /api/chats/{id}/messages`: `pageNumber` (1 = the newest messages). */
export const ChatMessagesQuery = z.object({ pageNumber: zPageNumber });
export type ChatMessagesQuery = z.infer<typeof ChatMessagesQuery>;

/** `POST /api/chats/{id}/messages`: the text; blank is refused (an empty message is not sent). */
export const PostChatMessageBody = z.object({
  message: z.string({ error: () => "Required" }).trim().min(1, "Required").max(CHAT_MESSAGE_MAX, "Too Long!"),
});
export type PostChatMessageBody = z.infer<typeof PostChatMessageBody>;

/** `POST /api/chats/{id}/read`: the spec's `userId` is accepted and ignored (the reader is always the caller). */
export const ReadChatBody = z.object({ userId: z.union([z.number(), z.string()]).optional() }).optional();

export const ChatIdParams = z.object({ id: zId });

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/** A chat as every route answers it: `users` lists each member with their unread count. */
export const Chat = z.object({
  id: z.number().int(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().int(),
  users: z.array(ChatMember),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Chat = z.infer<typeof Chat>;

/** `GET /api/chats`: the caller's chats, most recent activity first. */
export const ChatsPage = z.object({ records: z.array(Chat), count: z.number().int(), hasMore: z.boolean() });
export type ChatsPage = z.infer<typeof ChatsPage>;

/** A chat message as answered and carried by frames. */
export const ChatMessage = ChatMessageItem.extend({ sender: z.object({ id: z.number().int(), name: z.string() }) });
export type ChatMessage = z.infer<typeof ChatMessage>;

/** `GET /api/chats/{id}/messages`: one page, newest first (page 1 = the newest). */
export const ChatMessagesPage = z.object({ records: z.array(ChatMessage), count: z.number().int(), hasMore: z.boolean() });
export type ChatMessagesPage = z.infer<typeof ChatMessagesPage>;

export const ChatDeleted = z.object({ message: z.string() });

/**
 * `company-{id}-chat` frames, to the chat's members only: `{action: "create"|"update", record}`,
 * `{action: "delete", id}` (also to members just removed), `{action: "new-message", newMessage, chat}`.
 */
export const ChatEvent = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), record: Chat }),
  z.object({ action: z.literal("update"), record: Chat }),
  z.object({ action: z.literal("delete"), id: z.number().int() }),
  z.object({ action: z.literal("new-message"), newMessage: ChatMessage, chat: Chat }),
]);
export type ChatEvent = z.infer<typeof ChatEvent>;
