/**
 * The top bar's announcements popover, for every user: a megaphone button with the number of active announcements this
 * user has not seen (kept per user in the browser: it survives reloads), and a panel listing them highest priority and
 * newest first, each with its priority colour (1 red, 2 orange, 3 grey), text and image. Opening the panel marks what
 * it shows as seen; a new or changed announcement arrives live and counts again. An address with
 * `?announcement=<id>` (what a tapped push notification opens) opens the panel on that announcement, highlighted.
 */
import { Megaphone } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { useSession } from "../../api/session.ts";
import { usePopover } from "../../layout/usePopover.ts";
import { ListNote } from "../../ui/PageState.tsx";
import { byPriority, PRIORITY_COLORS, useAnnouncementPages, useSeenAnnouncements } from "./api.ts";

export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const me = useSession()!.user;
  const pop = usePopover();
  const q = useAnnouncementPages("");
  const list = (q.data?.pages ?? [])
    .flatMap((p) => p.records)
    .filter((a) => a.status)
    .sort(byPriority);
  const { isSeen, markSeen } = useSeenAnnouncements(me.id);
  const [params, setParams] = useSearchParams();
  const linked = Number(params.get("announcement")) || null;
  const [focused, setFocused] = useState<number | null>(null);
  const focusedRef = useRef<HTMLLIElement>(null);
  // A link into the panel opens it on that announcement, then leaves the address clean.
  useEffect(() => {
    if (!linked) return;
    setFocused(linked);
    pop.show();
    const next = new URLSearchParams(params);
    next.delete("announcement");
    setParams(next, { replace: true });
  }, [linked]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (pop.open && focused) focusedRef.current?.scrollIntoView({ block: "nearest" });
  }, [pop.open, focused, list.length]);
  // Closing the panel ends the highlight.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !pop.open) setFocused(null);
    wasOpen.current = pop.open;
  }, [pop.open]);
  const unread = list.filter((a) => !isSeen(a)).length;
  const stamp = list.map((a) => `${a.id}@${a.updatedAt}`).join(",");
  useEffect(() => {
    if (pop.open) markSeen(list);
  }, [pop.open, stamp]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div className="topbar-pop">
      <button type="button" className="topbar-icon" {...pop.buttonProps} aria-label={t("announcements.popoverButton", { count: unread })} title={t("announcements.popover")} data-testid="announcements-button">
        <Megaphone size={22} aria-hidden="true" focusable="false" />
        {unread > 0 && (
          <span className="bell-badge" data-testid="announcements-count" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {pop.open && (
        <div className="topbar-panel notify-panel" role="dialog" aria-label={t("announcements.popover")} tabIndex={-1} {...pop.panelProps} data-testid="announcements-panel">
          <div className="notify-head">
            <strong>{t("announcements.popover")}</strong>
          </div>
          {q.isPending || q.isError || !list.length ? (
            <ListNote pending={q.isPending} error={q.isError ? q.error : undefined} onRetry={() => void q.refetch()} empty={<p className="notify-note">{t("announcements.none")}</p>} note="notify-note" retry="notify-retry" />
          ) : (
            <ul className="notify-list">
              {list.map((a) => (
                <li
                  key={a.id}
                  ref={a.id === focused ? focusedRef : undefined}
                  className={`announcement-item${a.id === focused ? " focused" : ""}`}
                  aria-current={a.id === focused ? "true" : undefined}
                  style={{ borderLeftColor: PRIORITY_COLORS[a.priority] }}
                  data-testid="announcement-item"
                  data-priority={a.priority}
                  data-announcement-id={a.id}
                >
                  <span className="announcement-line1">
                    <strong>{a.title}</strong>
                    <span className="announcement-priority" style={{ background: PRIORITY_COLORS[a.priority] }} data-testid="announcement-priority">
                      {t(`announcements.priority${a.priority}`)}
                    </span>
                  </span>
                  <span className="announcement-text">{a.text}</span>
                  {a.mediaUrl && <img className="announcement-image" src={a.mediaUrl} alt={a.mediaName ?? ""} loading="lazy" />}
                  <time className="announcement-time" dateTime={a.createdAt}>
                    {new Date(a.createdAt).toLocaleString()}
                  </time>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
