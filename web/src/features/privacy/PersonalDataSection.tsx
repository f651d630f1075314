/**
 * The contact drawer's personal-data section (the privacy feature's `contactDrawer` slot, admins only;
 * docs/product/personal-data.md): export everything stored about the contact as a zip, or erase it, each after a
 * confirmation; the job's progress shows here, and a finished export offers its download.
 */
import { Button, Flex, Heading, Link, Text } from "@aws-amplify/ui-react";
import { Download, Trash2 } from "lucide-react";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TicketView } from "@atende/shared/tickets/schema";
import { errorMessage } from "../../api/errors.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { JobProgress } from "../jobs/JobProgress.tsx";
import { useSeedJob } from "../jobs/api.ts";
import { exportLink, useStartErase, useStartExport } from "./api.ts";

export function PersonalDataSection({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation();
  const toast = useToast();
  const seed = useSeedJob();
  const startExport = useStartExport();
  const startErase = useStartErase();
  const [confirm, setConfirm] = useState<"export" | "erase" | null>(null);
  const [job, setJob] = useState<{ id: string; kind: "export" | "erase" } | null>(null);
  const [link, setLink] = useState<{ url: string; fileName: string } | null>(null);
  const contactId = ticket.contactId;

  const run = async () => {
    const kind = confirm;
    if (!kind) return;
    try {
      const started = await (kind === "export" ? startExport : startErase).mutateAsync(contactId);
      seed(started.job);
      setLink(null);
      setJob({ id: started.jobId, kind });
    } catch (e) {
      toast.error(errorMessage(e));
    }
    setConfirm(null);
  };
  const onDone = useCallback(async () => {
    if (!job) return;
    if (job.kind === "erase") {
      toast.success(t("privacy.erased"));
      return;
    }
    try {
      setLink(await exportLink(contactId, job.id));
    } catch (e) {
      toast.error(errorMessage(e));
    }
  }, [job, contactId, toast, t]);

  return (
    <section className="personal-data" aria-labelledby="personal-data-title" data-testid="personal-data">
      <Heading level={5} id="personal-data-title">
        {t("privacy.title")}
      </Heading>
      <Text variation="secondary" fontSize="small">
        {t("privacy.hint")}
      </Text>
      <Flex gap="0.5rem" wrap="wrap" marginTop="0.5rem">
        <Button size="small" onClick={() => setConfirm("export")} data-testid="personal-data-export">
          <Download size={16} aria-hidden /> {t("privacy.export")}
        </Button>
        <Button size="small" variation="destructive" onClick={() => setConfirm("erase")} data-testid="personal-data-erase">
          <Trash2 size={16} aria-hidden /> {t("privacy.erase")}
        </Button>
      </Flex>
      <JobProgress jobId={job?.id ?? null} onDone={onDone} onDismiss={() => setJob(null)} />
      {link && (
        <Link href={link.url} download={link.fileName} data-testid="personal-data-download">
          {t("privacy.download")}
        </Link>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === "erase" ? t("privacy.eraseTitle") : t("privacy.exportTitle")}
        message={confirm === "erase" ? t("privacy.eraseMessage") : t("privacy.exportMessage")}
        busy={startExport.isPending || startErase.isPending}
        onConfirm={run}
        onClose={() => setConfirm(null)}
      />
    </section>
  );
}
