/**
 * Internal chat rules (docs/product/chats.md).
 *
 * - Any user of a company whose plan has `useInternalChat` creates chats with other users of the same company; the
 *   creator is the owner and a member. Members are users of the caller's company only (another id → 400
 *   `ERR_VALIDATION` on `users`, nothing written).
 * - Only members see a chat, its messages, and write in it; to anyone else (another company, a non-member) it is
 *   missing (404 `ERR_NO_CHAT_FOUND`).
 * - Only the owner edits (title, members) or deletes a chat (403 `ERR_NO_PERMISSION` for the other members).
 * - A message adds 1 to every other member's unread count; reading (`POST /api/chats/{id}/read`) clears the caller's.
 * - Every change dispatches a `chat.*` event (`./events.ts`): frames to the members only.
 */
import { randomUUID } from "node:crypto";
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { listUsers } from "../users/repository.ts";
import "./errors.ts";
import "./events.ts";
import { addChatMessage, clearUnreads, deleteChatItems, getChat, listCompanyChats, pageChatMessages, putNewChat, replaceChat } from "./repository.ts";
import {
  CHAT_MESSAGES_PAGE_SIZE,
  CHATS_PAGE_SIZE,
  type Chat,
  type ChatItem,
  type ChatMessage,
  type ChatMessageItem,
  type ChatMessagesPage,
  type ChatsPage,
  type CreateChatBody,
  type ListChatsQuery,
  type UpdateChatBody,
} from "./schema.ts";

/** A chat as the API answers it: members with their unread counts, the owner first. */
export function chatView(c: ChatItem): Chat {
  const users = Object.entries(c.members)
    .map(([id, name]) => ({ userId: Number(id), name, unreads: c.unreads[id] ?? 0 }))
    .sort((a, b) => Number(b.userId === c.ownerId) - Number(a.userId === c.ownerId) || a.name.localeCompare(b.name, "pt"));
  return { id: c.id, uuid: c.uuid, title: c.title, ownerId: c.ownerId, users, lastMessage: c.lastMessage, createdAt: c.createdAt, updatedAt: c.updatedAt };
}

/** A chat message as the API answers it. */
const messageView = (m: ChatMessageItem): ChatMessage => ({ ...m, sender: { id: m.senderId, name: m.senderName } });

const isMember = (c: ChatItem, userId: number) => Object.hasOwn(c.members, String(userId));

/** A chat the caller is a member of, else 404 `ERR_NO_CHAT_FOUND` (another company's chat is never read). */
async function requireMember(auth: AuthContext, id: number): Promise<ChatItem> {
  const c = await getChat(auth.companyId, id);
  if (!c || !isMember(c, auth.userId)) throw new AppError("ERR_NO_CHAT_FOUND");
  return c;
}

/** A chat the caller owns: 404 as {@link requireMember}, 403 `ERR_NO_PERMISSION` for a member who is not the owner. */
async function requireOwner(auth: AuthContext, id: number): Promise<ChatItem> {
  const c = await requireMember(auth, id);
  if (c.ownerId !== auth.userId) throw new AppError("ERR_NO_PERMISSION");
  return c;
}

/**
 * The members of a chat from the form's user ids plus the owner: `{userId: name}`. Every id must be a user of the
 * caller's company, else 400 `ERR_VALIDATION` on `users` (a user of another company is never added).
 */
async function membersFrom(auth: AuthContext, ownerId: number, ids: number[]): Promise<Record<string, string>> {
  const users = new Map((await listUsers(auth.companyId)).map((u) => [u.id, u.name]));
  const members: Record<string, string> = {};
  for (const id of new Set([ownerId, ...ids])) {
    const name = users.get(id);
    if (name === undefined) throw new AppError("ERR_VALIDATION", { fields: [{ path: "users", message: "Usuário não encontrado" }] });
    members[String(id)] = name;
  }
  return members;
}

/** `GET /api/chats`: the caller's chats, most recent activity first, {@link CHATS_PAGE_SIZE} a page, filtered by title. */
export async function listChats(auth: AuthContext, q: ListChatsQuery): Promise<ChatsPage> {
  const term = normalizeName(q.searchParam ?? "");
  const mine = (await listCompanyChats(auth.companyId))
    .filter((c) => isMember(c, auth.userId) && (!term || normalizeName(c.title).includes(term)))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
  const from = (q.pageNumber - 1) * CHATS_PAGE_SIZE;
  const records = mine.slice(from, from + CHATS_PAGE_SIZE).map(chatView);
  return { records, count: mine.length, hasMore: from + records.length < mine.length };
}

/** `POST /api/chats`: a chat owned by the caller with the given users (same company) as members. Dispatches `chat.created`. */
export async function createChat(auth: AuthContext, body: CreateChatBody): Promise<Chat> {
  const members = await membersFrom(auth, auth.userId, body.users);
  const now = nowIso();
  const item: ChatItem = {
    id: await nextId(auth.companyId, "chat"),
    uuid: randomUUID(),
    companyId: auth.companyId,
    title: body.title,
    ownerId: auth.userId,
    members,
    unreads: Object.fromEntries(Object.keys(members).map((id) => [id, 0])),
    lastMessage: "",
    createdAt: now,
    updatedAt: now,
  };
  await putNewChat(item);
  const record = chatView(item);
  await dispatch({ type: "chat.created", companyId: auth.companyId, record });
  return record;
}

/**
 * `PUT /api/chats/{id}` (owner only): new title and/or members (the owner stays). 409 `ERR_CONFLICT` when the chat
 * moved meanwhile. Dispatches `chat.updated` (removed members get a delete frame).
 */
export async function updateChat(auth: AuthContext, id: number, body: UpdateChatBody): Promise<Chat> {
  const before = await requireOwner(auth, id);
  const members = body.users ? await membersFrom(auth, before.ownerId, body.users) : before.members;
  const unreads = Object.fromEntries(Object.keys(members).map((uid) => [uid, before.unreads[uid] ?? 0]));
  const after: ChatItem = { ...before, title: body.title ?? before.title, members, unreads, updatedAt: nowIso() };
  if (!(await replaceChat(before, after))) throw new AppError("ERR_CONFLICT");
  const record = chatView(after);
  const removed = Object.keys(before.members).filter((uid) => !(uid in members)).map(Number);
  await dispatch({ type: "chat.updated", companyId: auth.companyId, record, removed });
  return record;
}

/** `DELETE /api/chats/{id}` (owner only): the chat and its messages. Dispatches `chat.deleted` to its members. */
export async function deleteChat(auth: AuthContext, id: number): Promise<void> {
  const before = await requireOwner(auth, id);
  if (!(await deleteChatItems(before))) throw new AppError("ERR_CONFLICT");
  await dispatch({ type: "chat.deleted", companyId: auth.companyId, id, members: Object.keys(before.members).map(Number) });
}

/** `GET /api/chats/{id}/messages` (members): page `pageNumber` of {@link CHAT_MESSAGES_PAGE_SIZE}, newest first. */
export async function listChatMessages(auth: AuthContext, id: number, pageNumber: number): Promise<ChatMessagesPage> {
  await requireMember(auth, id);
  const { items, count } = await pageChatMessages(auth.companyId, id, pageNumber, CHAT_MESSAGES_PAGE_SIZE);
  return { records: items.map(messageView), count, hasMore: (pageNumber - 1) * CHAT_MESSAGES_PAGE_SIZE + items.length < count };
}

/**
 * `POST /api/chats/{id}/messages` (members): stores the message (blank refused at the edge), makes it the chat's last
 * message and adds 1 to every other member's unread count. Dispatches `chat.message`.
 */
export async function postChatMessage(auth: AuthContext, id: number, text: string): Promise<ChatMessage> {
  const chat = await requireMember(auth, id);
  const item: ChatMessageItem = {
    id: await nextId(auth.companyId, "chatMessage"),
    chatId: id,
    companyId: auth.companyId,
    senderId: auth.userId,
    senderName: chat.members[String(auth.userId)] ?? auth.name,
    message: text,
    createdAt: nowIso(),
  };
  const others = Object.keys(chat.members).map(Number).filter((uid) => uid !== auth.userId);
  const after = await addChatMessage(item, others);
  if (!after) throw new AppError("ERR_NO_CHAT_FOUND");
  const newMessage = messageView(item);
  await dispatch({ type: "chat.message", companyId: auth.companyId, newMessage, chat: chatView(after) });
  return newMessage;
}

/** `POST /api/chats/{id}/read` (members): clears the caller's unread count. Dispatches `chat.read` to the caller. */
export async function readChat(auth: AuthContext, id: number): Promise<Chat> {
  await requireMember(auth, id);
  const after = await clearUnreads(auth.companyId, id, auth.userId);
  if (!after) throw new AppError("ERR_NO_CHAT_FOUND");
  const record = chatView(after);
  await dispatch({ type: "chat.read", companyId: auth.companyId, record, userId: auth.userId });
  return record;
}
