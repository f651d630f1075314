/** A schedule's status as a badge: Pendente, Agendada, Enviada (with its lateness), or 'Erro de Envio' with the reason. */
import { Badge } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import type { Schedule } from "./api.ts";

const VARIATION = { PENDENTE: undefined, AGENDADA: "warning", ENVIADA: "success", ERRO: "error" } as const;

export function StatusBadge({ schedule: s }: { schedule: Schedule }) {
  const { t } = useTranslation();
  const text =
    s.status === "ERRO"
      ? `${t("schedules.errorTitle")}: ${t(`errors.${s.error}`, { defaultValue: s.error ?? "" })}`
      : s.late
        ? `${t("schedules.statuses.ENVIADA")} · ${t("schedules.late", { minutes: Math.round((s.lateSeconds ?? 0) / 60) })}`
        : t(`schedules.statuses.${s.status}`);
  return (
    <Badge size="small" variation={VARIATION[s.status]} className="schedule-status" data-testid="schedule-status" data-status={s.status} title={text}>
      {text}
    </Badge>
  );
}
