/**
 * /tickets and /tickets/{uuid} (the Tickets screen): the list on the left, the open conversation (or a
 * welcome panel) on the right; one pane at a time on narrow screens (under 900 px).
 */
import { useTranslation } from "react-i18next";
import { useParams } from "react-router-dom";
import { Conversation } from "./Conversation.tsx";
import { TicketList } from "./TicketList.tsx";

export function TicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  return (
    <section className={`tickets-page ${ticketId ? "has-ticket" : ""}`} aria-label={t("tickets.title")}>
      <div className="tickets-left">
        <TicketList selectedUuid={ticketId} />
      </div>
      <div className="tickets-right">
        {ticketId ? (
          <Conversation uuid={ticketId} />
        ) : (
          <div className="welcome-panel">
            <div className="brand">
              <span className="brand-mark">A</span> {t("app.name")}
            </div>
            <p>{t("tickets.welcome")}</p>
          </div>
        )}
      </div>
    </section>
  );
}
