/**
 * `/` for admins (docs/product/dashboard.md): the filter (by period: none, last 3, 7, 15, 30, 60, 90 days; or by
 * dates) with its Filter button and 'Parametrize o filtro' while nothing is set; the cards (super users also see
 * active connections and companies); the attendants table (1-3 stars with the rating tooltip, average time, online
 * dot, live); the bar chart of conversations per user and the chart of tickets per day, or per hour for one day.
 * Charts are recharts, coloured from the Amplify theme's CSS variables (light and dark alike).
 */
import { Button, Flex, Heading, Radio, RadioGroupField, SelectField, Table, TableBody, TableCell, TableHead, TableRow, Text, TextField } from "@aws-amplify/ui-react";
import { Star } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { type DashboardFilter, useDashboard, useTicketsDay, useTicketsUsers } from "./api.ts";
import "./dashboard.css";

const PERIODS = [3, 7, 15, 30, 60, 90];

/** yyyy-mm-dd of `d` as the browser's calendar shows it (the period's end for the charts). */
const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

/** The charts' range of a filter: the dates, or the last `days` days ending today. */
function rangeOf(f: DashboardFilter): { from: string; to: string } {
  if (!("days" in f)) return f;
  const from = new Date();
  from.setDate(from.getDate() - (f.days - 1));
  return { from: isoDay(from), to: isoDay(new Date()) };
}

export function DashboardPage() {
  const { t } = useTranslation();
  const [type, setType] = useState<"period" | "dates">("period");
  const [days, setDays] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [filter, setFilter] = useState<DashboardFilter | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (type === "period") setFilter(days ? { days: Number(days) } : null);
    else setFilter(from && to && from <= to ? { from, to } : from || to ? { from: from || to, to: to || from } : null);
  };
  const range = filter ? rangeOf(filter) : null;
  return (
    <Flex direction="column" gap="1rem" padding="1rem" className="dashboard-page">
      <Heading level={3}>{t("dashboard.title")}</Heading>
      <form onSubmit={submit} className="dashboard-filter" aria-label={t("dashboard.filterType")}>
        <RadioGroupField legend={t("dashboard.filterType")} name="filterType" direction="row" value={type} onChange={(e) => setType(e.target.value as "period" | "dates")}>
          <Radio value="period">{t("dashboard.byPeriod")}</Radio>
          <Radio value="dates">{t("dashboard.byDates")}</Radio>
        </RadioGroupField>
        {type === "period" ? (
          <SelectField label={t("dashboard.period")} value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="">{t("dashboard.none")}</option>
            {PERIODS.map((n) => (
              <option key={n} value={n}>
                {t("dashboard.lastDays", { count: n })}
              </option>
            ))}
          </SelectField>
        ) : (
          <Flex gap="0.5rem" wrap="wrap">
            <TextField label={t("dashboard.dateFrom")} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
            <TextField label={t("dashboard.dateTo")} type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          </Flex>
        )}
        <Button type="submit" variation="primary">
          {t("dashboard.filter")}
        </Button>
      </form>
      {filter && range ? <DashboardBody filter={filter} range={range} /> : <Text className="dashboard-empty">{t("dashboard.parametrize")}</Text>}
    </Flex>
  );
}

/** Minutes as "Xh Ym". */
function useHoursMinutes() {
  const { t } = useTranslation();
  return (minutes: number) => t("dashboard.hoursMinutes", { h: Math.floor(minutes / 60), m: Math.round(minutes % 60) });
}

function DashboardBody({ filter, range }: { filter: DashboardFilter; range: { from: string; to: string } }) {
  const { t } = useTranslation();
  const hm = useHoursMinutes();
  const q = useDashboard(filter);
  if (q.isLoading) return <Text>{t("dashboard.loading")}</Text>;
  if (q.isError || !q.data) return <Text role="alert">{t("errors.ERR_INTERNAL", { defaultValue: String(q.error ?? "") })}</Text>;
  const c = q.data.counters;
  const cards: [string, string | number][] = [
    ...(c.totalWhatsappSessions != null ? [["totalWhatsappSessions", c.totalWhatsappSessions] as [string, number]] : []),
    ...(c.totalCompanies != null ? [["totalCompanies", c.totalCompanies] as [string, number]] : []),
    ["supportHappening", c.supportHappening],
    ["supportPending", c.supportPending],
    ["supportFinished", c.supportFinished],
    ["newContacts", c.newContacts],
    ["avgSupportTime", hm(c.avgSupportTime)],
    ["avgWaitTime", hm(c.avgWaitTime)],
  ];
  return (
    <>
      <div className="dashboard-cards">
        {cards.map(([key, value]) => (
          <div key={key} className="dashboard-card" data-testid={`card-${key}`}>
            <span className="dashboard-card-label">{t(`dashboard.${key}`)}</span>
            <span className="dashboard-card-value">{value}</span>
          </div>
        ))}
      </div>
      <Heading level={5}>{t("dashboard.attendants")}</Heading>
      <div className="dashboard-table">
        <Table size="small" highlightOnHover data-testid="attendants">
          <TableHead>
            <TableRow>
              <TableCell as="th">{t("dashboard.name")}</TableCell>
              <TableCell as="th" title={t("dashboard.ratingsTooltip")}>
                {t("dashboard.ratings")}
              </TableCell>
              <TableCell as="th">{t("dashboard.avgSupportTime")}</TableCell>
              <TableCell as="th">{t("dashboard.status")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {q.data.attendants.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>{t("dashboard.noAttendants")}</TableCell>
              </TableRow>
            )}
            {q.data.attendants.map((a) => (
              <TableRow key={a.id}>
                <TableCell>{a.name}</TableCell>
                <TableCell>
                  <Stars rating={a.rating} />
                </TableCell>
                <TableCell>{hm(a.avgSupportTime)}</TableCell>
                <TableCell>
                  <span className={`status-dot ${a.online ? "online" : ""}`} aria-hidden="true" />
                  <span>{a.online ? t("dashboard.online") : t("dashboard.offline")}</span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <div className="dashboard-charts">
        <UsersChart range={range} />
        <DayChart range={range} />
      </div>
    </>
  );
}

/** 1-3 stars, filled up to the (rounded) rating, with the rating tooltip. */
function Stars({ rating }: { rating: number }) {
  const { t } = useTranslation();
  const full = Math.round(rating);
  return (
    <span className="dashboard-stars" title={t("dashboard.ratingsTooltip")} role="img" aria-label={t("dashboard.rated", { rating })} data-rating={rating}>
      {[1, 2, 3].map((i) => (
        <Star key={i} size={16} aria-hidden="true" className={i <= full ? "on" : ""} fill={i <= full ? "currentColor" : "none"} />
      ))}
    </span>
  );
}

/** Axis ticks; their colours, the grid's and the bars' come from the theme's CSS variables in `dashboard.css`. */
const axis = { fontSize: 12 };
const tooltipStyle = { background: "var(--amplify-colors-background-primary)", border: "1px solid var(--amplify-colors-border-primary)", color: "var(--amplify-colors-font-primary)" };

function ChartBox({ title, total, error, loading, empty, children }: { title: string; total?: number; error?: string; loading: boolean; empty: boolean; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="dashboard-chart" aria-label={title}>
      <Flex justifyContent="space-between" alignItems="baseline" wrap="wrap">
        <Heading level={5}>{title}</Heading>
        {total != null && <Text data-testid="chart-total">{t("dashboard.total", { count: total })}</Text>}
      </Flex>
      {error ? (
        <Text role="alert" variation="error">
          {error}
        </Text>
      ) : loading ? (
        <Text>{t("dashboard.loading")}</Text>
      ) : empty ? (
        <Text>{t("dashboard.noData")}</Text>
      ) : (
        <div className="dashboard-chart-area">{children}</div>
      )}
    </section>
  );
}

function UsersChart({ range }: { range: { from: string; to: string } }) {
  const { t } = useTranslation();
  const q = useTicketsUsers(range);
  return (
    <ChartBox title={t("dashboard.ticketsUsers")} total={q.data?.count} error={q.isError ? t("dashboard.errorUsers") : undefined} loading={q.isLoading} empty={!q.data?.data.length}>
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={q.data?.data ?? []} margin={{ top: 8, right: 8, left: -16, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="name" tick={axis} />
          <YAxis allowDecimals={false} tick={axis} />
          <Tooltip contentStyle={tooltipStyle} cursor={{ fill: "var(--amplify-colors-background-tertiary)" }} />
          <Bar dataKey="total" name={t("dashboard.tickets")} className="bar-users" radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </ChartBox>
  );
}

function DayChart({ range }: { range: { from: string; to: string } }) {
  const { t } = useTranslation();
  const q = useTicketsDay(range);
  const oneDay = range.from === range.to;
  const data = (q.data?.data ?? []).map((r) => ({
    label: r.hour != null ? t("dashboard.hourLabel", { h: r.hour }) : (r.date ?? "").split("-").reverse().slice(0, 2).join("/"),
    total: r.total,
  }));
  return (
    <ChartBox
      title={oneDay ? t("dashboard.ticketsHour") : t("dashboard.ticketsDay")}
      total={q.data?.count}
      error={q.isError ? t("dashboard.errorDay") : undefined}
      loading={q.isLoading}
      empty={!q.data?.count}
    >
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={axis} interval="preserveStartEnd" />
          <YAxis allowDecimals={false} tick={axis} />
          <Tooltip contentStyle={tooltipStyle} cursor={{ fill: "var(--amplify-colors-background-tertiary)" }} />
          <Bar dataKey="total" name={t("dashboard.tickets")} className="bar-day" radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </ChartBox>
  );
}
