/**
 * The schedules calendar on react-big-calendar with the date-fns localizer in the interface's language (pt-BR by
 * default, en, es): month, week, day and agenda views; each schedule an event at its `sendAt` coloured by status
 * (PENDENTE, AGENDADA, ENVIADA, ERRO); choosing an empty slot proposes that time, choosing an event opens it.
 */
import { format, getDay, parse, startOfWeek } from "date-fns";
import { enUS, es, ptBR } from "date-fns/locale";
import { useMemo, useState } from "react";
import { Calendar as BigCalendar, dateFnsLocalizer, type View, Views } from "react-big-calendar";
import "react-big-calendar/lib/css/react-big-calendar.css";
import { useTranslation } from "react-i18next";
import type { Schedule } from "./api.ts";
import "./schedules.css";

const LOCALES = { pt: ptBR, en: enUS, es };
const localizer = dateFnsLocalizer({ format, parse, startOfWeek, getDay, locales: LOCALES });
const culture = (lang: string) => (lang.startsWith("en") ? "en" : lang.startsWith("es") ? "es" : "pt");
/** A schedule's event lasts 30 minutes on the week and day views. */
const EVENT_MS = 30 * 60_000;

interface ScheduleEvent {
  title: string;
  start: Date;
  end: Date;
  resource: Schedule;
}

export function SchedulesCalendar(props: { schedules: Schedule[]; onOpen: (s: Schedule) => void; onSlot: (at: Date) => void }) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useState<View>(Views.MONTH);
  const [date, setDate] = useState(() => new Date());
  const events = useMemo<ScheduleEvent[]>(
    () =>
      props.schedules.map((s) => {
        const start = new Date(s.sendAt);
        return { title: `${s.contact?.name ?? "?"}: ${s.body}`, start, end: new Date(start.getTime() + EVENT_MS), resource: s };
      }),
    [props.schedules],
  );
  const messages = useMemo(
    () => ({
      month: t("schedules.cal.month"),
      week: t("schedules.cal.week"),
      day: t("schedules.cal.day"),
      agenda: t("schedules.cal.agenda"),
      today: t("schedules.cal.today"),
      previous: t("schedules.cal.previous"),
      next: t("schedules.cal.next"),
      date: t("schedules.cal.date"),
      time: t("schedules.cal.time"),
      event: t("schedules.cal.event"),
      allDay: t("schedules.cal.allDay"),
      noEventsInRange: t("schedules.cal.noEvents"),
      showMore: (count: number) => t("schedules.cal.more", { count }),
    }),
    [t],
  );
  return (
    <div className="schedules-calendar" data-testid="schedules-calendar">
      <BigCalendar<ScheduleEvent>
        localizer={localizer}
        culture={culture(i18n.resolvedLanguage ?? i18n.language ?? "pt")}
        events={events}
        view={view}
        onView={setView}
        date={date}
        onNavigate={setDate}
        views={[Views.MONTH, Views.WEEK, Views.DAY, Views.AGENDA]}
        messages={messages}
        formats={{ weekdayFormat: (d, c, l) => l?.format(d, "EEE", c) ?? "" }}
        selectable
        popup
        onSelectEvent={(e) => props.onOpen(e.resource)}
        onSelectSlot={(slot) => props.onSlot(slot.start)}
        eventPropGetter={(e) => ({ className: `schedule-event status-${e.resource.status}`, "data-schedule-id": e.resource.id } as never)}
        components={{
          event: ({ event }) => (
            <span data-testid="schedule-event" data-schedule-id={event.resource.id} data-status={event.resource.status} title={`${t(`schedules.statuses.${event.resource.status}`)} · ${event.title}`}>
              {event.title}
            </span>
          ),
        }}
      />
    </div>
  );
}
