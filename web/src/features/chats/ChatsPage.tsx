/**
 * /chats and /chats/{uuid} (docs/product/chats.md): the user's chats (latest activity first, last message, unread
 * count; more on scroll) beside the open chat's messages (earlier pages load when scrolled within 600 px of the top)
 * and its composer (Enter sends, Shift+Enter breaks the line; a blank message is not sent). Selecting a chat opens
 * /chats/{uuid} and marks it read, and so does a message arriving while it is open. The owner edits and deletes it;
 * a chat deleted elsewhere clears the view and goes back to /chats. Below the md breakpoint (768 px) two tabs,
 * Chats and Mensagens, show one pane at a time.
 */
import { Button } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, SendHorizontal } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { ListNote } from "../../ui/PageState.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { IconAction, useDeleteConfirm } from "../../ui/kit/index.ts";
import { DeleteIcon, EditIcon } from "../../ui/kit/icons.tsx";
import { addChatMessage, type Chat, chatsCache, deletedChats, markChatRead, sendChatMessage, unreadsOf, useChatMessages, useChatMutations, useChatPages } from "./api.ts";
import { ChatDialog } from "./ChatDialog.tsx";

/** Earlier messages load when the list is scrolled within this many px of its top (a product constant). */
export const LOAD_EARLIER_PX = 600;
/** The chat list loads its next page within this many px of its bottom. */
const NEAR_BOTTOM_PX = 100;

const timeOf = (iso: string) => new Date(iso).toLocaleString([], { day: "2-digit", month: "2-digit", hour: "2-digit", minute: "2-digit" });

export function ChatsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const me = useSession()!.user;
  const { chatUuid } = useParams();
  const list = useChatPages();
  const chats = (list.data?.pages ?? []).flatMap((p) => p.records);
  const selected = chatUuid ? chats.find((c) => c.uuid === chatUuid) : undefined;
  const [tab, setTab] = useState<"chats" | "messages">(chatUuid ? "messages" : "chats");
  const [dialog, setDialog] = useState<{ open: boolean; record: Chat | null }>({ open: false, record: null });
  const { remove } = useChatMutations();
  const confirm = useDeleteConfirm<Chat>(remove, t("chats.deleted"));

  // A chat deleted while open (by its owner, elsewhere or here) clears the view.
  useEffect(() => {
    const onDeleted = (e: Event) => {
      if (selected && (e as CustomEvent<number>).detail === selected.id) navigate("/chats", { replace: true });
    };
    deletedChats.addEventListener("deleted", onDeleted);
    return () => deletedChats.removeEventListener("deleted", onDeleted);
  }, [selected, navigate]);
  // A link to a chat the user no longer has (deleted, or they were removed) goes back to /chats once the list is known.
  useEffect(() => {
    if (chatUuid && list.isSuccess && !list.hasNextPage && !selected) navigate("/chats", { replace: true });
  }, [chatUuid, list.isSuccess, list.hasNextPage, selected, navigate]);
  useEffect(() => {
    if (chatUuid && !selected && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  }, [chatUuid, selected, list.hasNextPage, list.isFetchingNextPage]); // eslint-disable-line react-hooks/exhaustive-deps

  // The open chat is read: at selection and whenever a message arrives while it is open.
  const unread = selected ? unreadsOf(selected, me.id) : 0;
  const reading = useRef("");
  useEffect(() => {
    if (!selected || !unread) return;
    const key = `${selected.id}@${selected.updatedAt}`;
    if (reading.current === key) return;
    reading.current = key;
    markChatRead(selected.id, me.id)
      .then((c) => chatsCache.upsert(qc, c))
      .catch(() => undefined);
  }, [selected?.id, selected?.updatedAt, unread]); // eslint-disable-line react-hooks/exhaustive-deps

  const choose = (c: Chat) => {
    setTab("messages");
    navigate(`/chats/${c.uuid}`);
  };
  const onListScroll = (e: React.UIEvent<HTMLUListElement>) => {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };

  return (
    <div className="chats-page" data-tab={tab} data-testid="chats-page">
      <div className="chats-tabs" role="tablist" aria-label={t("chats.title")}>
        {(["chats", "messages"] as const).map((k) => (
          <button key={k} type="button" role="tab" aria-selected={tab === k} className={`chats-tab ${tab === k ? "active" : ""}`} onClick={() => setTab(k)} data-testid={`chats-tab-${k}`}>
            {t(k === "chats" ? "chats.tabChats" : "chats.tabMessages")}
          </button>
        ))}
      </div>
      <section className="chats-list-pane" aria-label={t("chats.tabChats")}>
        <header className="chats-pane-head">
          <h1 className="chats-heading">{t("chats.title")}</h1>
          <Button size="small" variation="primary" onClick={() => setDialog({ open: true, record: null })} data-testid="chats-add">
            {t("chats.add")}
          </Button>
        </header>
        {list.isPending || list.isError || !chats.length ? (
          <ListNote pending={list.isPending} error={list.isError ? list.error : undefined} onRetry={() => void list.refetch()} empty={<p className="chats-note">{t("chats.none")}</p>} note="chats-note" retry="chats-retry" />
        ) : (
          <ul className="chats-list" onScroll={onListScroll} data-testid="chats-list">
            {chats.map((c) => {
              const n = unreadsOf(c, me.id);
              return (
                <li key={c.id}>
                  <button
                    type="button"
                    className={`chats-item ${c.id === selected?.id ? "active" : ""}`}
                    aria-current={c.id === selected?.id ? "true" : undefined}
                    onClick={() => choose(c)}
                    data-testid="chat-item"
                    data-chat-uuid={c.uuid}
                  >
                    <span className="chats-item-line1">
                      <strong className="chats-item-title">{c.title}</strong>
                      {n > 0 && (
                        <span className="chat-unread" title={t("chats.unread", { count: n })} data-testid="chat-item-unread">
                          {n}
                          <span className="sr-only"> {t("chats.unread", { count: n })}</span>
                        </span>
                      )}
                    </span>
                    <span className="chats-item-last">{c.lastMessage || t("chats.members", { count: c.users.length })}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section className="chats-messages-pane" aria-label={t("chats.tabMessages")}>
        {selected ? (
          <ChatView
            key={selected.id}
            chat={selected}
            onBack={() => setTab("chats")}
            onEdit={() => setDialog({ open: true, record: selected })}
            onDelete={() => confirm.ask(selected)}
          />
        ) : (
          <p className="chats-note chats-pick" data-testid="chats-pick">
            {t("chats.pick")}
          </p>
        )}
      </section>
      <ChatDialog open={dialog.open} record={dialog.record} onClose={() => setDialog({ open: false, record: null })} onSaved={(c) => !dialog.record && choose(c)} />
      {confirm.dialog}
    </div>
  );
}

function ChatView({ chat, onBack, onEdit, onDelete }: { chat: Chat; onBack: () => void; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const toast = useToast();
  const me = useSession()!.user;
  const q = useChatMessages(chat.id);
  const messages = (q.data?.pages ?? []).flatMap((p) => p.records).slice().reverse();
  const box = useRef<HTMLDivElement>(null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const newest = messages[messages.length - 1]?.id;

  // Keeps the view where it was when earlier messages are added above; goes to the newest one otherwise.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    } else el.scrollTop = el.scrollHeight;
  }, [messages.length, newest]);

  const onScroll = () => {
    const el = box.current;
    if (!el || el.scrollTop > LOAD_EARLIER_PX || !q.hasNextPage || q.isFetchingNextPage) return;
    anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    void q.fetchNextPage();
  };

  const send = async () => {
    const body = text.trim();
    if (!body || busy) return;
    setBusy(true);
    try {
      addChatMessage(qc, await sendChatMessage(chat.id, body));
      setText("");
    } catch (e) {
      toast.error(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };

  const owner = chat.ownerId === me.id;
  return (
    <div className="chat-view" data-testid="chat-view" data-chat-id={chat.id}>
      <header className="chats-pane-head chat-view-head">
        <button type="button" className="chats-back" onClick={onBack} aria-label={t("chats.back")} title={t("chats.back")}>
          <ArrowLeft size={18} aria-hidden="true" />
        </button>
        <div className="chat-view-title">
          <strong data-testid="chat-view-title">{chat.title}</strong>
          <span className="chat-view-members" title={chat.users.map((u) => u.name).join(", ")}>
            {chat.users.map((u) => u.name).join(", ")}
          </span>
        </div>
        {owner && (
          <div className="row-actions">
            <IconAction label={`${t("chats.edit")} ${chat.title}`} onClick={onEdit} testId="chat-edit">
              <EditIcon />
            </IconAction>
            <IconAction label={`${t("chats.delete")} ${chat.title}`} onClick={onDelete} danger testId="chat-delete">
              <DeleteIcon />
            </IconAction>
          </div>
        )}
      </header>
      <div className="chat-messages" ref={box} onScroll={onScroll} data-testid="chat-messages" aria-live="polite">
        {q.isFetchingNextPage && <p className="chats-note">{t("chats.loadingEarlier")}</p>}
        {q.isPending || q.isError || !messages.length ? (
          <ListNote pending={q.isPending} error={q.isError ? q.error : undefined} onRetry={() => void q.refetch()} empty={<p className="chats-note">{t("chats.noMessages")}</p>} note="chats-note" retry="chats-retry" />
        ) : (
          messages.map((m) => {
            const mine = m.senderId === me.id;
            return (
              <div key={m.id} className={`chat-bubble ${mine ? "mine" : ""}`} data-testid="chat-message">
                {!mine && <span className="chat-bubble-sender">{m.sender.name}</span>}
                <span className="chat-bubble-text">{m.message}</span>
                <time className="chat-bubble-time" dateTime={m.createdAt}>
                  {timeOf(m.createdAt)}
                </time>
              </div>
            );
          })
        )}
      </div>
      <form
        className="chat-composer"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          className="chat-input"
          rows={1}
          value={text}
          placeholder={t("chats.placeholder")}
          aria-label={t("chats.placeholder")}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
          data-testid="chat-input"
        />
        <button type="submit" className="chat-send" disabled={busy || !text.trim()} aria-label={t("chats.send")} title={t("chats.send")} data-testid="chat-send">
          <SendHorizontal size={20} aria-hidden="true" />
        </button>
      </form>
    </div>
  );
}
