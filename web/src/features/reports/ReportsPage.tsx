/**
 * `/reports` (admins; docs/product/reports.md): the filters (period, status, queue, attendant, connection, tag,
 * contact, rating) applied with Filtrar; the attendances in a virtualized table (@tanstack/react-virtual) that loads
 * the next page as it nears the bottom; Exportar .xlsx / .csv runs the whole filtered result as a background job
 * with its progress, then downloads the file; a row's click (or Enter) opens the ticket's history read-only.
 */
import { Button, Flex, Heading, SelectField, TextField } from "@aws-amplify/ui-react";
import type { JobView } from "@atende/shared/jobs/schema";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Download, FileSpreadsheet } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useToast } from "../../ui/Toast.tsx";
import { useWhatsapps } from "../connections/api.ts";
import { JobProgress } from "../jobs/JobProgress.tsx";
import { useSeedJob } from "../jobs/api.ts";
import { useQueues } from "../queues/api.ts";
import { useTagList } from "../tags/api.ts";
import { ContactPicker } from "../tickets/ContactPicker.tsx";
import { useMediaQuery } from "../tickets/listView.ts";
import { useUserList } from "../users/api.ts";
import { EMPTY_FILTER, type ReportFilter, type ReportRow, reportExportLink, useReport, useStartReportExport } from "./api.ts";
import { Stars } from "./AttendancesTab.tsx";
import { dateTime, duration } from "./format.ts";
import { TicketHistoryDialog } from "./TicketHistoryDialog.tsx";
import "./reports.css";

/** Rows this close to the end of the loaded ones load the next page. */
const PREFETCH_ROWS = 10;

type Contact = Parameters<Parameters<typeof ContactPicker>[0]["onChange"]>[0];

function Filters({ onApply }: { onApply: (f: ReportFilter) => void }) {
  const { t } = useTranslation();
  const [f, setF] = useState<ReportFilter>(EMPTY_FILTER);
  const [contact, setContact] = useState<Contact>(null);
  const queues = useQueues();
  const users = useUserList();
  const whatsapps = useWhatsapps();
  const tags = useTagList();
  const set = (k: keyof ReportFilter) => (e: { target: { value: string } }) => setF((x) => ({ ...x, [k]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ ...f, contactId: contact ? String(contact.id) : "" });
  };
  const tagList = Array.isArray(tags.data) ? tags.data : [];
  return (
    <form className="report-filters" onSubmit={submit} aria-label={t("reports.filters")} data-testid="report-filters">
      <TextField label={t("reports.dateFrom")} type="date" value={f.initialDate} onChange={set("initialDate")} size="small" descriptiveText={f.initialDate || f.finalDate ? undefined : t("reports.defaultPeriod")} />
      <TextField label={t("reports.dateTo")} type="date" value={f.finalDate} onChange={set("finalDate")} size="small" />
      <SelectField label={t("reports.status")} value={f.status} onChange={set("status")} size="small" name="status">
        <option value="">{t("reports.all")}</option>
        {(["open", "pending", "closed"] as const).map((s) => (
          <option key={s} value={s}>
            {t(`reports.statuses.${s}`)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("reports.queue")} value={f.queueId} onChange={set("queueId")} size="small" name="queueId">
        <option value="">{t("reports.all")}</option>
        {(queues.data ?? []).map((q) => (
          <option key={q.id} value={q.id}>
            {q.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("reports.user")} value={f.userId} onChange={set("userId")} size="small" name="userId">
        <option value="">{t("reports.all")}</option>
        {(users.data ?? []).map((u) => (
          <option key={u.id} value={u.id}>
            {u.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("reports.whatsapp")} value={f.whatsappId} onChange={set("whatsappId")} size="small" name="whatsappId">
        <option value="">{t("reports.all")}</option>
        {(whatsapps.data ?? []).map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("reports.tag")} value={f.tagId} onChange={set("tagId")} size="small" name="tagId">
        <option value="">{t("reports.all")}</option>
        {tagList.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("reports.rate")} value={f.rate} onChange={set("rate")} size="small" name="rate">
        <option value="">{t("reports.all")}</option>
        {[1, 2, 3].map((r) => (
          <option key={r} value={r}>
            {t("reports.rates", { rate: r, label: t(`reports.rateLabels.${r}`) })}
          </option>
        ))}
      </SelectField>
      <div className="report-contact">
        <ContactPicker label={t("reports.contact")} value={contact} onChange={setContact} />
      </div>
      <Flex gap="0.5rem" alignItems="flex-end" className="report-filter-buttons">
        <Button type="submit" variation="primary" size="small" data-testid="report-filter">
          {t("reports.filter")}
        </Button>
        <Button
          type="button"
          size="small"
          onClick={() => {
            setF(EMPTY_FILTER);
            setContact(null);
            onApply(EMPTY_FILTER);
          }}
        >
          {t("reports.clear")}
        </Button>
      </Flex>
    </form>
  );
}

const COLUMNS = ["ticket", "status", "contact", "queue", "user", "openedAt", "acceptedAt", "closedAt", "wait", "handling", "rate"] as const;

function Row({ r, onOpen }: { r: ReportRow; onOpen: () => void }) {
  const { t } = useTranslation();
  const cells: Record<(typeof COLUMNS)[number], React.ReactNode> = {
    ticket: `#${r.ticketId}`,
    status: <span className={`report-status ${r.status}`}>{t(`reports.statuses.${r.status}`)}</span>,
    contact: (
      <>
        <strong>{r.contact.name}</strong>
        <span className="report-muted report-number">{r.contact.number}</span>
      </>
    ),
    queue: r.queue ? (
      <span className="report-queue" style={{ borderLeftColor: r.queue.color || "transparent" }}>
        {r.queue.name}
      </span>
    ) : (
      "—"
    ),
    user: r.user?.name ?? "—",
    openedAt: dateTime(r.openedAt),
    acceptedAt: dateTime(r.acceptedAt) || "—",
    closedAt: dateTime(r.closedAt) || "—",
    wait: duration(r.waitSeconds),
    handling: duration(r.handlingSeconds),
    rate: <Stars rate={r.rate} />,
  };
  return (
    <button type="button" className="report-row" title={t("reports.rowLabel", { id: r.ticketId })} data-testid="report-row" data-ticket-id={r.ticketId} onClick={onOpen}>
      {COLUMNS.map((c) => (
        <span key={c} className={`report-cell c-${c}`} data-label={t(`reports.${c}`)}>
          {cells[c]}
        </span>
      ))}
    </button>
  );
}

function Table({ filter, onOpen }: { filter: ReportFilter; onOpen: (ticketId: number) => void }) {
  const { t } = useTranslation();
  const q = useReport(filter);
  const rows = q.data?.pages.flatMap((p) => p.tickets) ?? [];
  const narrow = useMediaQuery("(max-width: 899px)");
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => (narrow ? 164 : 48), overscan: 8 });
  const items = v.getVirtualItems();
  const last = items[items.length - 1]?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && last >= rows.length - PREFETCH_ROWS) void fetchNextPage();
  }, [last, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);
  useEffect(() => v.measure(), [narrow, v]);
  if (q.isPending) return <p className="list-note" role="status">{t("reports.loading")}</p>;
  if (q.isError)
    return (
      <div className="list-note" role="alert">
        {t("reports.loadError")}{" "}
        <Button size="small" onClick={() => void q.refetch()}>
          {t("reports.retry")}
        </Button>
      </div>
    );
  if (!rows.length) return <p className="list-note" data-testid="report-empty">{t("reports.empty")}</p>;
  return (
    <section className="report-table" aria-label={t("reports.title")}>
      <div className="report-row report-head" aria-hidden="true">
        {COLUMNS.map((c) => (
          <div key={c} className={`report-cell c-${c}`}>
            {t(`reports.${c}`)}
          </div>
        ))}
      </div>
      <div className="report-scroll" ref={scroller} data-testid="report-scroll">
        <div style={{ height: v.getTotalSize(), position: "relative" }}>
          {items.map((it) => (
            <div key={it.key} style={{ position: "absolute", top: 0, left: 0, right: 0, height: it.size, transform: `translateY(${it.start}px)` }}>
              <Row r={rows[it.index]} onOpen={() => onOpen(rows[it.index].ticketId)} />
            </div>
          ))}
        </div>
      </div>
      <p className="report-muted report-count" role="status" data-testid="report-count">
        {t("reports.shown", { count: rows.length })}
        {isFetchingNextPage ? ` · ${t("reports.loading")}` : ""}
      </p>
    </section>
  );
}

function Export({ filter }: { filter: ReportFilter }) {
  const { t } = useTranslation();
  const toast = useToast();
  const seed = useSeedJob();
  const start = useStartReportExport();
  const [jobId, setJobId] = useState<string | null>(null);
  const [link, setLink] = useState<{ url: string; fileName: string } | null>(null);
  const run = async (format: "xlsx" | "csv") => {
    try {
      const started = await start.mutateAsync({ format, filter });
      seed(started.job);
      setLink(null);
      setJobId(started.jobId);
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };
  const onDone = useCallback(
    async (job: JobView) => {
      try {
        const l = await reportExportLink(job.id);
        setLink(l);
        const a = document.createElement("a");
        a.href = l.url;
        a.download = l.fileName;
        a.click();
      } catch (e) {
        toast.error(errorMessage(e));
      }
    },
    [toast],
  );
  const busy = start.isPending || (!!jobId && !link);
  return (
    <div className="report-export">
      <Flex gap="0.5rem" wrap="wrap">
        <Button size="small" onClick={() => void run("xlsx")} isDisabled={busy} data-testid="report-export-xlsx">
          <FileSpreadsheet size={16} aria-hidden="true" /> {t("reports.exportXlsx")}
        </Button>
        <Button size="small" onClick={() => void run("csv")} isDisabled={busy} data-testid="report-export-csv">
          <Download size={16} aria-hidden="true" /> {t("reports.exportCsv")}
        </Button>
      </Flex>
      <JobProgress
        jobId={jobId}
        onDone={onDone}
        onDismiss={() => {
          setJobId(null);
          setLink(null);
        }}
      />
      {link && (
        <a href={link.url} download={link.fileName} data-testid="report-download">
          {t("reports.download", { name: link.fileName })}
        </a>
      )}
    </div>
  );
}

export function ReportsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<ReportFilter>(EMPTY_FILTER);
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Flex direction="column" gap="1rem" padding="1rem" className="reports-page">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="0.5rem">
        <Heading level={3}>{t("reports.title")}</Heading>
        <Export filter={filter} />
      </Flex>
      <Filters onApply={setFilter} />
      <Table filter={filter} onOpen={setOpen} />
      <TicketHistoryDialog ticketId={open} onClose={() => setOpen(null)} />
    </Flex>
  );
}
