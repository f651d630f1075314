/**
 * Top-bar unread-tickets popover (docs/product/tickets.md#notifications): a bell with a
 * badge counting the tickets with unread messages the user can see (open ones assigned to the user, pending ones of the
 * user's queues; without queue for admins and allTicket users), and a panel listing them newest first with contact,
 * last message, unread count, queue and age. Choosing one opens `/tickets/{uuid}` and closes the panel; Escape or a
 * press outside closes it. The list is `notifications/unread.ts` (first load through `GET /api/tickets
 * ?withUnreadMessages=true`, then live from the realtime table). Opening the panel asks for the browser-notification
 * permission once (a user gesture) and unlocks audio for the chime.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ticketAge, useNow } from "../format.ts";
import { useUnreadTickets } from "./unread.ts";
import { unlockAudio } from "../realtime.ts";
import type { Ticket } from "../types.ts";
import { BellIcon } from "../../../layout/icons.tsx";
import { WhatsappText } from "../WhatsappText.tsx";
import { usePopover } from "../../../layout/usePopover.ts";
import { ListNote } from "../../../ui/PageState.tsx";

/** Badge text: the count, capped at 99+; a `+` when the server had more than were loaded. */
export function badgeText(count: number, more: boolean): string {
  if (count > 99) return "99+";
  return `${count}${more ? "+" : ""}`;
}

/** Contact picture, or the name's initial on a colour derived from the name (no import of the lazy tickets page). */
function ContactAvatar({ name, url }: { name: string; url?: string | null }) {
  const [broken, setBroken] = useState(false);
  if (url && !broken) return <img className="avatar notify-avatar" src={url} alt="" onError={() => setBroken(true)} />;
  const hue = [...(name || "?")].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 7);
  return (
    <span className="avatar avatar-initial notify-avatar" aria-hidden="true" style={{ background: `hsl(${hue} 45% 42%)` }}>
      {(name || "?").trim().charAt(0).toUpperCase()}
    </span>
  );
}

function askNotificationPermission() {
  if (typeof Notification === "undefined") {
    console.info("browser notifications unsupported");
    return;
  }
  if (Notification.permission === "default") void Notification.requestPermission().catch(() => undefined);
}

export function NotificationsPopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pop = usePopover();
  const q = useUnreadTickets();
  const tickets = q.data?.tickets ?? [];
  const count = tickets.length;
  const badge = badgeText(count, !!q.data?.more);

  // Browsers allow audio only after a gesture: unlock it on the first click or key press anywhere.
  useEffect(() => {
    const once = () => {
      unlockAudio();
      window.removeEventListener("pointerdown", once);
      window.removeEventListener("keydown", once);
    };
    window.addEventListener("pointerdown", once);
    window.addEventListener("keydown", once);
    return () => {
      window.removeEventListener("pointerdown", once);
      window.removeEventListener("keydown", once);
    };
  }, []);

  useEffect(() => {
    if (!pop.open) return;
    askNotificationPermission();
    pop.panelRef.current?.querySelector<HTMLElement>(".notify-item")?.focus();
  }, [pop.open]); // eslint-disable-line react-hooks/exhaustive-deps

  const openTicket = (tk: Ticket) => {
    pop.close(false);
    navigate(`/tickets/${tk.uuid}`);
  };

  return (
    <div className="topbar-pop">
      <button type="button" className="topbar-icon" {...pop.buttonProps} aria-label={t("tickets.notify.bell", { count })} title={t("tickets.notify.unreadTitle")} data-testid="notifications-button">
        <BellIcon />
        {count > 0 && (
          <span className="bell-badge" data-testid="notifications-count" aria-hidden="true">
            {badge}
          </span>
        )}
      </button>
      {pop.open && (
        <div className="topbar-panel notify-panel" role="dialog" aria-label={t("tickets.notify.unreadTitle")} tabIndex={-1} {...pop.panelProps} data-testid="notifications-panel">
          <div className="notify-head">
            <strong>{t("tickets.notify.unreadTitle")}</strong>
            {count > 0 && <span className="count-pill">{badge}</span>}
          </div>
          <NotificationList q={q} tickets={tickets} onOpen={openTicket} />
        </div>
      )}
    </div>
  );
}

function NotificationList({ q, tickets, onOpen }: { q: ReturnType<typeof useUnreadTickets>; tickets: Ticket[]; onOpen: (t: Ticket) => void }) {
  const { t } = useTranslation();
  const now = useNow();
  if (q.isPending || q.isError || !tickets.length)
    return (
      <ListNote
        pending={q.isPending}
        error={q.isError ? q.error : undefined}
        onRetry={() => void q.refetch()}
        empty={
          <p className="notify-note" data-testid="notifications-empty">
            {t("tickets.notify.none")}
          </p>
        }
        note="notify-note"
        retry="notify-retry"
      />
    );
  return (
    <>
      <ul className="notify-list" data-testid="notifications-list">
        {tickets.map((tk) => {
          const age = ticketAge(tk.updatedAt, now);
          return (
            <li key={tk.id}>
              <a
                className="notify-item"
                href={`/tickets/${tk.uuid}`}
                onClick={(e) => {
                  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                  e.preventDefault();
                  onOpen(tk);
                }}
                data-testid="notification-item"
                data-ticket-uuid={tk.uuid}
              >
                {tk.queue?.color && <span className="notify-queue" style={{ background: tk.queue.color }} aria-hidden="true" />}
                <ContactAvatar name={tk.contact?.name ?? ""} url={tk.contact?.profilePicUrl} />
                <span className="notify-text">
                  <span className="notify-line1">
                    <strong className="notify-name">{tk.contact?.name}</strong>
                    <span className={`age age-${age.color ?? "none"}`}>{t(`tickets.age.${age.unit}`, { n: age.n })}</span>
                  </span>
                  <span className="notify-line2">
                    <span className="notify-last">
                      <WhatsappText text={tk.lastMessage} links={false} />
                    </span>
                    <span className="unread" role="img" aria-label={t("tickets.notify.unreadMessages", { count: tk.unreadMessages })}>
                      {tk.unreadMessages}
                    </span>
                  </span>
                  <span className="notify-line3">{tk.queue?.name ?? t("tickets.noQueue")}</span>
                </span>
              </a>
            </li>
          );
        })}
      </ul>
      {q.data?.more && <p className="notify-note small">{t("tickets.notify.more", { count: tickets.length })}</p>}
    </>
  );
}
