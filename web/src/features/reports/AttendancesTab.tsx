/**
 * The ticket area's second tab, Atendimentos (docs/product/reports.md): the earlier attendances of the open ticket's
 * contact, newest first, each with its queue, attendant, times and rating, and a button that opens that ticket's
 * history read-only.
 */
import { Badge, Button } from "@aws-amplify/ui-react";
import type { TicketView } from "@atende/shared/tickets/schema";
import { Star } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ListNote } from "../../ui/PageState.tsx";
import { type ReportRow, useContactAttendances } from "./api.ts";
import { dateTime, duration } from "./format.ts";
import { TicketHistoryDialog } from "./TicketHistoryDialog.tsx";
import "./reports.css";

export function Stars({ rate }: { rate: number | null }) {
  const { t } = useTranslation();
  if (rate == null) return <span className="report-muted">{t("reports.noRate")}</span>;
  return (
    <span className="report-stars" role="img" aria-label={t("reports.rates", { rate, label: t(`reports.rateLabels.${rate}`) })} title={t(`reports.rateLabels.${rate}`)}>
      {[1, 2, 3].map((n) => (
        <Star key={n} size={14} aria-hidden="true" fill={n <= rate ? "currentColor" : "none"} />
      ))}
    </span>
  );
}

function Attendance({ a, onOpen }: { a: ReportRow; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <li className="attendance" data-testid="attendance" data-ticket-id={a.ticketId}>
      <div className="attendance-head">
        <strong>#{a.ticketId}</strong>
        {a.queue && (
          <Badge size="small" style={{ borderLeft: `4px solid ${a.queue.color || "transparent"}` }}>
            {a.queue.name}
          </Badge>
        )}
        <span className="report-muted">{a.user?.name ?? "—"}</span>
        <Stars rate={a.rate} />
        <Button size="small" onClick={onOpen} className="attendance-open" aria-label={t("reports.rowLabel", { id: a.ticketId })}>
          {t("reports.open")}
        </Button>
      </div>
      <dl className="attendance-times">
        <div>
          <dt>{t("reports.openedAt")}</dt>
          <dd>{dateTime(a.openedAt)}</dd>
        </div>
        <div>
          <dt>{t("reports.acceptedAt")}</dt>
          <dd>{dateTime(a.acceptedAt) || "—"}</dd>
        </div>
        <div>
          <dt>{t("reports.closedAt")}</dt>
          <dd>{dateTime(a.closedAt) || "—"}</dd>
        </div>
        <div>
          <dt>{t("reports.wait")}</dt>
          <dd>{duration(a.waitSeconds)}</dd>
        </div>
        <div>
          <dt>{t("reports.handling")}</dt>
          <dd>{duration(a.handlingSeconds)}</dd>
        </div>
      </dl>
    </li>
  );
}

export function AttendancesTab({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation();
  const q = useContactAttendances(ticket.id);
  const [open, setOpen] = useState<number | null>(null);
  const list = q.data?.attendances ?? [];
  return (
    <div className="attendances" data-testid="attendances">
      {q.isPending || q.isError || !list.length ? (
        <ListNote pending={q.isPending} error={q.isError ? q.error : undefined} onRetry={() => void q.refetch()} empty={<div className="list-note">{t("reports.attendancesEmpty")}</div>} note="list-note" retry="chip-button" />
      ) : (
        <ul className="attendance-list">
          {list.map((a) => (
            <Attendance key={`${a.ticketId}-${a.closedAt}`} a={a} onOpen={() => setOpen(a.ticketId)} />
          ))}
        </ul>
      )}
      {q.data?.hasMore && <p className="report-muted">{t("reports.attendancesMore")}</p>}
      <TicketHistoryDialog ticketId={open} onClose={() => setOpen(null)} />
    </div>
  );
}
