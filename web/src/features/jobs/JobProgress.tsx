/**
 * A background job's progress where it was started: "Excluindo etiqueta… 40/120" with a bar while it runs, then the
 * done message, or the job's error when it failed (or, when its progress cannot be read, the failed one), until
 * dismissed. Calls `onDone` once when the job
 * is done, for the screen to refresh what it changed. Announced politely (role="status"); `data-testid="job-progress"`
 * with `data-status` running | done | failed.
 */
import { Alert } from "@aws-amplify/ui-react";
import type { JobView } from "@atende/shared/jobs/schema";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import i18n from "../../i18n/index.ts";
import { useJob } from "./api.ts";
import "./jobs.css";

export interface JobProgressProps {
  /** The job to follow; null shows nothing. */
  jobId: string | null;
  onDone?: (job: JobView) => void;
  onDismiss: () => void;
}

export function JobProgress({ jobId, onDone, onDismiss }: JobProgressProps) {
  const { t } = useTranslation();
  const q = useJob(jobId);
  const job = q.data;
  const doneFor = useRef<string | null>(null);
  useEffect(() => {
    if (job?.status === "done" && doneFor.current !== job.id) {
      doneFor.current = job.id;
      onDone?.(job);
    }
  }, [job, onDone]);
  if (!jobId) return null;
  if (q.isError) {
    return (
      <Alert variation="error" isDismissible onDismiss={onDismiss} role="status" className="job-progress" data-testid="job-progress" data-status="failed">
        {t("jobs.failed")}
      </Alert>
    );
  }
  if (!job) return null;
  if (job.status === "failed") {
    const reason = job.error && i18n.exists(`errors.${job.error}`) ? t(`errors.${job.error}`) : t("errors.generic");
    return (
      <Alert variation="error" isDismissible onDismiss={onDismiss} role="status" className="job-progress" data-testid="job-progress" data-status="failed">
        {t("jobs.stopped", { reason })}
      </Alert>
    );
  }
  if (job.status === "done") {
    return (
      <Alert variation="success" isDismissible onDismiss={onDismiss} role="status" className="job-progress" data-testid="job-progress" data-status="done">
        {t(`jobs.${job.kind}.done`, { done: job.done })}
      </Alert>
    );
  }
  const counted = job.total !== null;
  return (
    <Alert variation="info" role="status" className="job-progress" data-testid="job-progress" data-status="running">
      <span>{counted ? t(`jobs.${job.kind}.running`, { done: job.done, total: job.total }) : t(`jobs.${job.kind}.counting`)}</span>
      <progress className="job-progress-bar" max={counted ? Math.max(job.total ?? 0, 1) : undefined} value={counted ? job.done : undefined} aria-hidden="true" />
    </Alert>
  );
}
