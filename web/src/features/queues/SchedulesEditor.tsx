/**
 * Weekly hours editor (queue and company schedules, docs/product/business-hours.md): one row per weekday,
 * Monday to Sunday, with start and end times (HH:MM, native time inputs). Used by the queue dialog's schedules tab and
 * the Settings page's Horários tab. 00:00-00:00 means closed.
 */
import { Text } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import type { Schedule } from "./types.ts";

export function SchedulesEditor({ value, onChange, testId = "schedules" }: { value: Schedule[]; onChange: (next: Schedule[]) => void; testId?: string }) {
  const { t } = useTranslation();
  const set = (i: number, field: "startTime" | "endTime", v: string) => onChange(value.map((s, k) => (k === i ? { ...s, [field]: v } : s)));
  return (
    <table className="schedules-table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t("queues.weekday")}</th>
          <th scope="col">{t("queues.startTime")}</th>
          <th scope="col">{t("queues.endTime")}</th>
        </tr>
      </thead>
      <tbody>
        {value.map((s, i) => {
          const day = t(`weekdays.${s.weekdayEn}`);
          return (
            <tr key={s.weekdayEn}>
              <th scope="row">
                <Text as="span">{day}</Text>
              </th>
              <td>
                <input
                  className="time-input"
                  type="time"
                  value={s.startTime}
                  aria-label={`${day}: ${t("queues.startTime")}`}
                  data-testid={`${testId}-${s.weekdayEn}-start`}
                  onChange={(e) => set(i, "startTime", e.target.value)}
                />
              </td>
              <td>
                <input
                  className="time-input"
                  type="time"
                  value={s.endTime}
                  aria-label={`${day}: ${t("queues.endTime")}`}
                  data-testid={`${testId}-${s.weekdayEn}-end`}
                  onChange={(e) => set(i, "endTime", e.target.value)}
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
