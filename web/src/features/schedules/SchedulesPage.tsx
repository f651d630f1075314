/**
 * /schedules (docs/product/schedules.md#screens): the calendar (month, week, day, agenda, in the interface's language)
 * and the list (search of text or contact, infinite scroll, status, edit and delete where the rules allow them);
 * `?contactId=<id>` opens the dialog for that contact. Live through `company-{id}-schedule`.
 */
import { Button, Flex, Heading, Loader, TableCell, TableRow, ToggleButton, ToggleButtonGroup } from "@aws-amplify/ui-react";
import { Eye } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { canEditSchedule } from "@atende/shared/schedules/access";
import { useSession } from "../../api/session.ts";
import { fromPages, ListPage, RowActions, useCrudPage, useListSearch } from "../../ui/kit/index.ts";
import { useContact } from "../contacts/api.ts";
import { type Schedule, useAllSchedules, useScheduleMutations, useSchedulePages } from "./api.ts";
import { SchedulesCalendar } from "./Calendar.tsx";
import { ScheduleDialog } from "./ScheduleDialog.tsx";
import { StatusBadge } from "./StatusBadge.tsx";

export function SchedulesPage() {
  const { t } = useTranslation();
  const me = useSession()!.user;
  const [params, setParams] = useSearchParams();
  const askedContact = Number(params.get("contactId")) || undefined;
  const contact = useContact(askedContact);
  const search = useListSearch(1);
  const list = fromPages(useSchedulePages(search.term), "schedules");
  const all = useAllSchedules();
  const page = useCrudPage<Schedule>(useScheduleMutations().remove, t("schedules.deleted"));
  const [slot, setSlot] = useState<Date | null>(null);
  const [view, setView] = useState<"calendar" | "list">("calendar");
  const mayEdit = (s: Schedule) => canEditSchedule({ ...me, userId: me.id }, s);
  const openForContact = !!askedContact && !!contact.data;
  const closeContact = () => {
    params.delete("contactId");
    setParams(params, { replace: true });
  };
  const newAt = (at: Date) => {
    setSlot(at);
    page.add();
  };
  const tools = (
    <>
      <ToggleButtonGroup value={view} isExclusive size="small" onChange={(v) => v && setView(v as "calendar" | "list")}>
        <ToggleButton value="calendar" data-testid="schedules-view-calendar">
          {t("schedules.calendar")}
        </ToggleButton>
        <ToggleButton value="list" data-testid="schedules-view-list">
          {t("schedules.list")}
        </ToggleButton>
      </ToggleButtonGroup>
      <Button
        variation="primary"
        size="small"
        onClick={() => {
          setSlot(null);
          page.add();
        }}
        data-testid="schedules-add"
      >
        {t("schedules.add")}
      </Button>
    </>
  );
  const dialogs = (
    <>
      <ScheduleDialog open={page.open} record={page.record} onClose={page.close} sendAt={slot} />
      <ScheduleDialog open={openForContact} record={null} onClose={closeContact} contact={contact.data ?? null} />
      {page.confirmDialog}
    </>
  );
  if (view === "calendar") {
    return (
      <section className="page" aria-labelledby="schedules-title">
        <Flex className="page-header" alignItems="center" justifyContent="space-between" wrap="wrap" gap="0.75rem">
          <Heading level={2} id="schedules-title">
            {t("schedules.title")}
          </Heading>
          <Flex gap="0.5rem" alignItems="center" className="page-tools">
            {tools}
          </Flex>
        </Flex>
        <div className="table-scroll schedules-calendar-wrap">
          {all.isPending ? (
            <Loader variation="linear" aria-label={t("schedules.loading")} />
          ) : (
            <SchedulesCalendar schedules={all.data ?? []} onOpen={(s) => page.edit(s)} onSlot={newAt} />
          )}
        </div>
        {dialogs}
      </section>
    );
  }
  return (
    <ListPage
      id="schedules"
      title={t("schedules.title")}
      countText={list.count === undefined ? undefined : t("schedules.count", { count: list.count })}
      search={search}
      searchPlaceholder={t("schedules.searchPlaceholder")}
      tools={tools}
      list={list}
      columns={[
        { label: t("schedules.contact") },
        { label: t("schedules.body"), className: "hide-narrow" },
        { label: t("schedules.sendAt") },
        { label: t("schedules.status") },
        { label: t("common.actions"), className: "col-actions" },
      ]}
      row={(s) => (
        <TableRow key={s.id} data-testid="schedule-row" data-schedule-id={s.id}>
          <TableCell>{s.contact?.name ?? "—"}</TableCell>
          <TableCell className="hide-narrow cell-clip">{s.body}</TableCell>
          <TableCell>{new Date(s.sendAt).toLocaleString()}</TableCell>
          <TableCell>
            <StatusBadge schedule={s} />
          </TableCell>
          <TableCell className="col-actions">
            <Flex gap="0.25rem" justifyContent="flex-end" alignItems="center">
              {s.status === "ENVIADA" && (
                <button type="button" className="icon-btn" onClick={() => page.edit(s)} aria-label={t("schedules.sentTitle")} title={t("schedules.sentTitle")} data-testid="schedule-view">
                  <Eye size={18} aria-hidden="true" />
                </button>
              )}
              <RowActions
                name={s.contact?.name ?? String(s.id)}
                onEdit={mayEdit(s) && s.status !== "ENVIADA" ? () => page.edit(s) : undefined}
                onDelete={mayEdit(s) ? () => page.ask(s) : undefined}
                testIdPrefix="schedule"
              />
            </Flex>
          </TableCell>
        </TableRow>
      )}
    >
      {dialogs}
    </ListPage>
  );
}
