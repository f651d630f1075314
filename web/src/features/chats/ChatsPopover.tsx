/**
 * The top bar's internal chats popover: a speech-bubble button with the number of chats holding unread messages, and a
 * panel listing the user's chats (latest activity first) with the last message and the unread count. Choosing one
 * opens /chats/{uuid} (which marks it read); Escape or a press outside closes it.
 */
import { MessagesSquare } from "lucide-react";
import { useNavigate } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { useSession } from "../../api/session.ts";
import { usePopover } from "../../layout/usePopover.ts";
import { ListNote } from "../../ui/PageState.tsx";
import { type Chat, unreadsOf, useChatPages } from "./api.ts";

export function ChatsPopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useSession()!.user;
  const pop = usePopover();
  const q = useChatPages();
  const chats = (q.data?.pages ?? []).flatMap((p) => p.records);
  const count = chats.filter((c) => unreadsOf(c, me.id) > 0).length;
  const open = (c: Chat) => {
    pop.close(false);
    navigate(`/chats/${c.uuid}`);
  };
  return (
    <div className="topbar-pop">
      <button type="button" className="topbar-icon" {...pop.buttonProps} aria-label={t("chats.popoverButton", { count })} title={t("chats.popover")} data-testid="chats-button">
        <MessagesSquare size={22} aria-hidden="true" focusable="false" />
        {count > 0 && (
          <span className="bell-badge" data-testid="chats-count" aria-hidden="true">
            {count > 99 ? "99+" : count}
          </span>
        )}
      </button>
      {pop.open && (
        <div className="topbar-panel notify-panel" role="dialog" aria-label={t("chats.popover")} tabIndex={-1} {...pop.panelProps} data-testid="chats-panel">
          <div className="notify-head">
            <strong>{t("chats.popover")}</strong>
            <button type="button" className="link-button" onClick={() => {
                pop.close(false);
                navigate("/chats");
              }}>
              {t("chats.openAll")}
            </button>
          </div>
          {q.isPending || q.isError || !chats.length ? (
            <ListNote pending={q.isPending} error={q.isError ? q.error : undefined} onRetry={() => void q.refetch()} empty={<p className="notify-note">{t("chats.popoverNone")}</p>} note="notify-note" retry="notify-retry" />
          ) : (
            <ul className="notify-list">
              {chats.map((c) => {
                const unread = unreadsOf(c, me.id);
                return (
                  <li key={c.id}>
                    <a
                      className="notify-item"
                      href={`/chats/${c.uuid}`}
                      onClick={(e) => {
                        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                        e.preventDefault();
                        open(c);
                      }}
                      data-testid="chats-popover-item"
                      data-chat-uuid={c.uuid}
                    >
                      <span className="notify-text">
                        <span className="notify-line1">
                          <strong className="notify-name">{c.title}</strong>
                          {unread > 0 && (
                            <span className="chat-unread" data-testid="chats-popover-unread" title={t("chats.unread", { count: unread })}>
                              {unread}
                              <span className="sr-only"> {t("chats.unread", { count: unread })}</span>
                            </span>
                          )}
                        </span>
                        <span className="notify-line2">
                          <span className="notify-last">{c.lastMessage}</span>
                        </span>
                      </span>
                    </a>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
