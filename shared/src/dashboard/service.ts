/**
 * The dashboard's rules (docs/product/dashboard.md): periods are the company's local days; every figure comes from
 * the counter items (`./repository.ts`): the period's sums (its sealed months' and weeks' roll-ups and the days left;
 * the per-day chart reads the day items), one read of the current counts, the company's users (names, online) and,
 * for super users, the platform's counts. No ticket is read.
 */
import { TZDate } from "@date-fns/tz";
import { addDays, differenceInCalendarDays, format, parseISO } from "date-fns";
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { companyTimeZone } from "../companies/service.ts";
import { AppError } from "../errors.ts";
import { listUsers } from "../users/repository.ts";
import { readCurrentCounts } from "../db/counters.ts";
import { readPeriodStats, readPeriodTotals, readPlatformCounts } from "./repository.ts";
import { DASHBOARD_MAX_DAYS, type DashboardChartQuery, type DashboardQuery, type DashboardResponse, type TicketsDayResponse, type TicketsUsersResponse } from "./schema.ts";

/** Minutes, one decimal, from a sum of seconds over a count (0 when the count is 0). */
const avgMinutes = (seconds: number, count: number) => (count > 0 ? Math.round((seconds / count / 60) * 10) / 10 : 0);

/** Today in zone `tz` (`yyyy-mm-dd`). */
const todayIn = (tz: string, now = Date.now()) => format(new TZDate(now, tz), "yyyy-MM-dd");

/** The local days `from`..`to` of a dashboard query: the last `days` days, or the dates given (one missing: that day alone), or today. */
export function periodOf(q: DashboardQuery, today: string): { from: string; to: string } {
  if (q.days) return { from: format(addDays(parseISO(today), 1 - q.days), "yyyy-MM-dd"), to: today };
  const from = q.date_from ?? q.date_to ?? today;
  const to = q.date_to ?? q.date_from ?? today;
  return { from, to };
}

function checkSpan(from: string, to: string): void {
  if (differenceInCalendarDays(parseISO(to), parseISO(from)) + 1 > DASHBOARD_MAX_DAYS) throw new AppError("ERR_VALIDATION", { message: `at most ${DASHBOARD_MAX_DAYS} days` });
}

function requireViewer(auth: AuthContext, companyId?: number): void {
  if (!can(auth, "dashboard:view")) throw new AppError("ERR_NO_PERMISSION");
  if (companyId != null && companyId !== auth.companyId) throw new AppError("ERR_NO_PERMISSION");
}

/**
 * `GET /api/dashboard`: the cards and the attendants table of the caller's company for the period. Super users also
 * get the platform cards. 403 `ERR_NO_PERMISSION` without `dashboard:view`.
 */
export async function getDashboard(auth: AuthContext, q: DashboardQuery): Promise<DashboardResponse> {
  requireViewer(auth);
  const { from, to } = periodOf(q, todayIn(await companyTimeZone(auth.companyId)));
  checkSpan(from, to);
  const [stats, now, users, platform] = await Promise.all([
    readPeriodTotals(auth.companyId, from, to),
    readCurrentCounts(auth.companyId),
    listUsers(auth.companyId),
    can(auth, "dashboard:platform") ? readPlatformCounts() : null,
  ]);
  const period = stats.company;
  return {
    counters: {
      supportHappening: now.open,
      supportPending: now.pending,
      supportFinished: period.ticketsClosed,
      newContacts: period.contactsCreated,
      avgSupportTime: avgMinutes(period.handlingSeconds, period.handled),
      avgWaitTime: avgMinutes(period.waitSeconds, period.ticketsAccepted),
      messagesIn: period.messagesIn,
      messagesOut: period.messagesOut,
      ...(platform ? { totalWhatsappSessions: platform.sessions, totalCompanies: platform.companies } : {}),
    },
    attendants: users.map((u) => {
      const c = stats.users.get(u.id);
      return {
        id: u.id,
        name: u.name,
        rating: c && c.ratings > 0 ? Math.round((c.ratingSum / c.ratings) * 10) / 10 : 0,
        avgSupportTime: c ? avgMinutes(c.handlingSeconds, c.handled) : 0,
        tickets: c?.ticketsAccepted ?? 0,
        messagesIn: c?.messagesIn ?? 0,
        messagesOut: c?.messagesOut ?? 0,
        online: u.online,
      };
    }),
  };
}

/** `GET /api/dashboard/ticketsUsers`: the cycles each attendant accepted from `initialDate` to `finalDate`, busiest first. */
export async function ticketsUsers(auth: AuthContext, q: DashboardChartQuery): Promise<TicketsUsersResponse> {
  requireViewer(auth, q.companyId);
  checkSpan(q.initialDate, q.finalDate);
  const [stats, users] = await Promise.all([readPeriodTotals(auth.companyId, q.initialDate, q.finalDate), listUsers(auth.companyId)]);
  const data = users
    .map((u) => ({ userId: u.id, name: u.name, total: stats.users.get(u.id)?.ticketsAccepted ?? 0 }))
    .filter((r) => r.total > 0)
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  return { data, count: data.reduce((n, r) => n + r.total, 0) };
}

/**
 * `GET /api/dashboard/ticketsDay`: tickets opened per local day from `initialDate` to `finalDate` (every day, zeros
 * included), or per local hour (0-23) when both are the same day.
 */
export async function ticketsDay(auth: AuthContext, q: DashboardChartQuery): Promise<TicketsDayResponse> {
  requireViewer(auth, q.companyId);
  checkSpan(q.initialDate, q.finalDate);
  const oneDay = q.initialDate === q.finalDate;
  const stats = await readPeriodStats(auth.companyId, q.initialDate, q.finalDate, { counters: ["ticketsOpened"], hours: oneDay });
  let data: TicketsDayResponse["data"];
  if (oneDay) {
    const hours = stats.days.get(q.initialDate)?.hours ?? Array(24).fill(0);
    data = hours.map((total, hour) => ({ hour, total }));
  } else {
    data = [];
    for (let d = parseISO(q.initialDate); format(d, "yyyy-MM-dd") <= q.finalDate; d = addDays(d, 1)) {
      const date = format(d, "yyyy-MM-dd");
      data.push({ date, total: stats.days.get(date)?.ticketsOpened ?? 0 });
    }
  }
  return { data, count: data.reduce((n, r) => n + r.total, 0) };
}
