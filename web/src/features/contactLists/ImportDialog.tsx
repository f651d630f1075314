/**
 * The spreadsheet import dialog (contact lists and contacts share it): choose a file, see the preview report (what
 * each row would become: new, updated, skipped with its reason, a dropped e-mail), confirm, and read the final
 * report. An import that runs as a background job (a contact list's: the upload answers with the job) shows its
 * progress ("Importando… 3.200 de 10.000") and, when done, its counts; the dialog may be closed meanwhile (the page
 * follows the job). Errors (a refused type, an unreadable file, answered by the upload or by its failed job) show as
 * the error's text.
 */
import { Alert, Button, Flex, Loader, Text } from "@aws-amplify/ui-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import i18n from "../../i18n/index.ts";
import type { JobView } from "@atende/shared/jobs/schema";
import { Dialog } from "../../ui/Dialog.tsx";
import { HiddenFileInput } from "../../ui/kit/index.ts";
import type { ImportReport } from "./api.ts";
import "./contactLists.css";

/** Rows of a report shown (the totals count them all). */
const SHOWN_ROWS = 200;

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** `accept` of the file input (".xls,.xlsx"). */
  accept: string;
  hint: string;
  /** The preview's report, or (confirmed) the final report or the background job importing the file. */
  upload: (file: File, preview: boolean) => Promise<ImportReport | { jobId: string; job: JobView }>;
  /** The background import's job as it stands (the page follows it), once `upload` started one. */
  job?: JobView | null;
  onDone?: (report: ImportReport) => void;
}

export function ImportDialog(p: ImportDialogProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState<"preview" | "import" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const [started, setStarted] = useState<string | null>(null);
  const reset = () => {
    setFile(null);
    setReport(null);
    setBusy(null);
    setError(null);
    setStarted(null);
  };
  const close = () => {
    if (busy === "import") return;
    reset();
    p.onClose();
  };
  const run = async (f: File, preview: boolean) => {
    setBusy(preview ? "preview" : "import");
    setError(null);
    try {
      const r = await p.upload(f, preview);
      if ("jobId" in r) setStarted(r.jobId);
      else {
        setReport(r);
        if (!preview) p.onDone?.(r);
      }
    } catch (e) {
      setError(errorMessage(e, t));
    } finally {
      setBusy(null);
    }
  };
  const choose = (files: File[]) => {
    const f = files[0];
    if (!f) return;
    setFile(f);
    setReport(null);
    setStarted(null);
    void run(f, true);
  };
  const toImport = report ? report.added + report.updated : 0;
  const job = started && p.job?.id === started ? p.job : null;
  const counts = (r: JobView["result"]) => ({ added: r?.added ?? 0, updated: r?.updated ?? 0, skipped: r?.skipped ?? 0 });
  const reason = (r: ImportReport["rows"][number]) =>
    r.reason ? t(`contactListItems.reason.${r.reason}`, { row: r.duplicateOf }) : r.warning ? t(`contactListItems.reason.${r.warning}`) : "";

  return (
    <Dialog
      open={p.open}
      title={t("contactListItems.importTitle")}
      onClose={close}
      width="40rem"
      footer={
        <>
          <Button onClick={close} isDisabled={busy === "import"}>
            {t("contactListItems.close")}
          </Button>
          {report?.preview && file && !started && (
            <Button variation="primary" isLoading={busy === "import"} isDisabled={!toImport} onClick={() => void run(file, false)} data-testid="import-confirm">
              {t("contactListItems.confirmImport", { count: toImport })}
            </Button>
          )}
        </>
      }
    >
      <Flex direction="column" gap="0.75rem">
        <Text>{p.hint}</Text>
        <HiddenFileInput inputRef={input} accept={p.accept} onFiles={choose} testId="import-file" />
        <Flex alignItems="center" gap="0.5rem" wrap="wrap">
          <Button size="small" onClick={() => input.current?.click()} isDisabled={!!busy || job?.status === "running"} data-testid="import-choose">
            {t("contactListItems.chooseFile")}
          </Button>
          {file && <Text className="cell-clip">{file.name}</Text>}
        </Flex>
        {busy === "preview" && (
          <Flex alignItems="center" gap="0.5rem" role="status">
            <Loader /> {t("contactListItems.previewing")}
          </Flex>
        )}
        {busy === "import" && (
          <Flex alignItems="center" gap="0.5rem" role="status">
            <Loader /> {t("contactListItems.sending")}
          </Flex>
        )}
        {job?.status === "running" && (
          <div role="status" data-testid="import-progress">
            <Text>{t("contactListItems.importing", { done: job.done, total: job.total ?? toImport })}</Text>
            <progress className="import-progress" max={Math.max(job.total ?? toImport, 1)} value={job.done} />
            <Text className="sub-line">{t("contactListItems.importingBackground")}</Text>
          </div>
        )}
        {job?.status === "done" && (
          <Alert variation="success" data-testid="import-summary" role="status">
            <strong>{t("contactListItems.importDone")}: </strong>
            {t("contactListItems.summary", counts(job.result))}
          </Alert>
        )}
        {job?.status === "failed" && (
          <Alert variation="error" role="alert" data-testid="import-failed">
            {job.error && i18n.exists(`errors.${job.error}`) ? t(`errors.${job.error}`) : t("errors.generic")}
          </Alert>
        )}
        {error && (
          <Alert variation="error" role="alert">
            {error}
          </Alert>
        )}
        {report && job?.status !== "failed" && (
          <>
            {!started && (
              <Alert variation={report.preview ? "info" : "success"} data-testid="import-summary">
                {!report.preview && <strong>{t("contactListItems.importDone")}: </strong>}
                {t(report.preview ? "contactListItems.previewSummary" : "contactListItems.summary", report)}
              </Alert>
            )}
            <div className="import-report">
              <table>
                <thead>
                  <tr>
                    <th>{t("contactListItems.row")}</th>
                    <th>{t("contactListItems.name")}</th>
                    <th className="hide-narrow">{t("contactListItems.number")}</th>
                    <th>{t("contactListItems.result")}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.rows.slice(0, SHOWN_ROWS).map((r) => (
                    <tr key={r.row} data-status={r.status} data-testid="import-row">
                      <td>{r.row}</td>
                      <td className="cell-clip">
                        {r.name}
                        <span className="import-number-narrow sub-line">{r.number}</span>
                      </td>
                      <td className="hide-narrow">{r.number}</td>
                      <td>
                        {t(`contactListItems.status.${r.status}`)}
                        {reason(r) && <span className="sub-line">{reason(r)}</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {report.rows.length > SHOWN_ROWS && <Text>…</Text>}
            </div>
          </>
        )}
      </Flex>
    </Dialog>
  );
}
