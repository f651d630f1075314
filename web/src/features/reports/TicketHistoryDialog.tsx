/**
 * The ticket view dialog (docs/product/reports.md#read-only-history): one ticket's messages, read-only (no composer,
 * no message menu), newest at the bottom; "Carregar mensagens anteriores" (or scrolling to the top) loads the older
 * pages. Opened from a report row or an attendance of the Atendimentos tab; nothing is marked read.
 */
import { Button } from "@aws-amplify/ui-react";
import { Fragment, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../ui/Dialog.tsx";
import { ListNote } from "../../ui/PageState.tsx";
import { flattenMessages } from "../tickets/cache.ts";
import { dayOf } from "../tickets/format.ts";
import { MessageBubble } from "../tickets/MessageBubble.tsx";
import { useHistoryMessages } from "./api.ts";
import "./reports.css";

const none = () => undefined;

export function TicketHistoryDialog({ ticketId, onClose }: { ticketId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const pages = useHistoryMessages(ticketId);
  const messages = flattenMessages(pages.data);
  const listRef = useRef<HTMLDivElement>(null);
  const firstPageLoaded = !!pages.data && pages.data.pages.length === 1;
  useEffect(() => {
    // open at the newest message
    if (firstPageLoaded && listRef.current) listRef.current.scrollTop = listRef.current.scrollHeight;
  }, [firstPageLoaded]);
  return (
    <Dialog
      open={ticketId != null}
      title={t("reports.history", { id: ticketId ?? "" })}
      onClose={onClose}
      width="44rem"
      footer={
        <Button onClick={onClose} data-autofocus>
          {t("reports.close")}
        </Button>
      }
    >
      <p className="report-readonly" role="note">
        {t("reports.historyReadOnly")}
      </p>
      <div
        className="report-history message-list"
        ref={listRef}
        data-testid="report-history"
        onScroll={(e) => {
          if (e.currentTarget.scrollTop < 50 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
        }}
      >
        {pages.hasNextPage && (
          <Button size="small" variation="link" onClick={() => void pages.fetchNextPage()} isLoading={pages.isFetchingNextPage}>
            {t("reports.earlier")}
          </Button>
        )}
        {pages.isPending || pages.isError || !messages.length ? (
          <ListNote
            pending={pages.isPending}
            error={pages.isError ? pages.error : undefined}
            onRetry={() => void pages.refetch()}
            empty={<div className="list-note">{t("reports.noMessages")}</div>}
            note="list-note"
            retry="chip-button"
          />
        ) : (
          messages.map((m, i) => (
            <Fragment key={m.id}>
              {(i === 0 || dayOf(messages[i - 1].waTimestamp) !== dayOf(m.waTimestamp)) && (
                <div className="day-sep">
                  <span>{dayOf(m.waTimestamp)}</span>
                </div>
              )}
              <MessageBubble
                m={m}
                canAct={false}
                selecting={false}
                selected={false}
                onToggleSelect={none}
                onReply={none}
                onEdit={none}
                onDelete={none}
                onForward={none}
                onReact={none}
                onMoreReactions={none}
                onRetry={none}
                onQuoteClick={none}
                onEnlarge={none}
              />
            </Fragment>
          ))
        )}
      </div>
    </Dialog>
  );
}
