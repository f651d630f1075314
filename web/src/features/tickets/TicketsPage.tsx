/**
 * /tickets and /tickets/{uuid} (the Tickets screen): the list on the left, the open conversation (or a
 * welcome panel) on the right; one pane at a time on narrow screens (under 900 px). `?peek` opens the conversation
 * read-only without attending it (an admin's eye on a waiting ticket).
 */
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router-dom";
import { Conversation } from "./Conversation.tsx";
import { TicketList } from "./TicketList.tsx";

export function TicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  const [search] = useSearchParams();
  return (
    <section className={`tickets-page ${ticketId ? "has-ticket" : ""}`} aria-label={t("tickets.title")}>
      <div className="tickets-left">
        <TicketList selectedUuid={ticketId} />
      </div>
      <div className="tickets-right">
        {ticketId ? (
          <Conversation uuid={ticketId} peek={search.has("peek")} />
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
