/**
 * Internal chat area (docs/product/chats.md): /chats and /chats/{uuid} behind the plan flag useInternalChat, its
 * attendance menu entry with the unread dot (`menu.Badge`), the top bar's chats popover (click opens /chats/{uuid}),
 * texts, and the `company-{id}-chat` frames: create/update → the chat moves to the top with its unread counts,
 * delete → gone (the open view goes back to /chats), new-message → the chat and its loaded messages.
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage, lazyPart } from "../lazy.tsx";
import type { Access, Feature } from "../types.ts";
import { addChatMessage, type Chat, type ChatMessage, chatsCache, deletedChats } from "./api.ts";
import { ChatsDot } from "./ChatsDot.tsx";
import "./chats.css";
import { chatsErrorTexts, chatsMenuTexts, chatsTexts } from "./i18n.ts";

const ChatsPage = lazyPage(() => import("./ChatsPage.tsx"), "ChatsPage");

const access: Access = { planFlag: "useInternalChat" };

const onFrame: RealtimeHandler = (data, { queryClient }) => {
  const d = (data ?? {}) as { action?: string; record?: Chat; id?: number; chat?: Chat; newMessage?: ChatMessage };
  if (d.action === "delete" && typeof d.id === "number") {
    chatsCache.remove(queryClient, d.id);
    deletedChats.dispatchEvent(new CustomEvent("deleted", { detail: d.id }));
  } else if ((d.action === "create" || d.action === "update") && d.record && typeof d.record.id === "number") chatsCache.upsert(queryClient, d.record);
  else if (d.action === "new-message" && d.chat && d.newMessage) {
    chatsCache.upsert(queryClient, d.chat);
    addChatMessage(queryClient, d.newMessage);
  }
};

export const chatsFeature: Feature = {
  id: "chats",
  access,
  routes: [
    { path: "/chats", element: <ChatsPage /> },
    { path: "/chats/:chatUuid", element: <ChatsPage /> },
  ],
  menu: { path: "/chats", labelKey: "menu.chats", group: "attendance", order: 80, Badge: ChatsDot },
  texts: { chats: chatsTexts, menu: chatsMenuTexts, errors: chatsErrorTexts },
  realtime: { chat: onFrame },
  slots: { topBar: [{ id: "chats", order: 30, access, Component: lazyPart(() => import("./ChatsPopover.tsx"), "ChatsPopover") }] },
};
