/**
 * Add/edit schedule dialog (docs/product/schedules.md) on the kit's form dialog: contact (required, 'Obrigatório'),
 * message (at least 5 characters, 'Mensagem muito curta'; its variables rendered when sent), send time (proposed now
 * plus one hour) and one png, jpg or jpeg, uploaded after the save or removed. A sent schedule opens read-only; a
 * failed one is titled 'Erro de Envio' with its reason and may be saved again (sent at its time).
 */
import { Alert, Button, Flex, Text, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { format } from "date-fns";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../ui/Dialog.tsx";
import { FormDialog, HiddenFileInput, rules } from "../../ui/kit/index.ts";
import { ContactPicker, type Contact } from "../tickets/ContactPicker.tsx";
import { removeSchedulePicture, type Schedule, schedulesCache, uploadSchedulePicture, useScheduleMutations } from "./api.ts";

/** The variables a message may hold (rendered by the server when it is sent). */
const VARIABLES = ["firstName", "name", "ms", "protocol", "hora"].map((v) => `{{${v}}}`).join(", ");
const PICTURE_TYPES = ["image/png", "image/jpeg"];

const { z } = rules;
const schema = z.object({
  contactId: z.number().int().positive("schedules.required"),
  body: z.string().trim().min(1, "schedules.required").min(5, "schedules.tooShort"),
  sendAt: z.string().min(1, "schedules.required"),
});

/** A `datetime-local` value (local time, minutes) of a date. */
export const localInput = (d: Date) => format(d, "yyyy-MM-dd'T'HH:mm");

export interface ScheduleDialogProps {
  open: boolean;
  record: Schedule | null;
  onClose: () => void;
  /** For a new schedule: the contact chosen already (the conversation's, `?contactId=`). */
  contact?: Pick<Contact, "id" | "name" | "number"> | null;
  /** For a new schedule from a conversation: its ticket (its connection sends). */
  ticketId?: number | null;
  /** For a new schedule: the proposed time (default now plus one hour). */
  sendAt?: Date | null;
}

export function ScheduleDialog(props: ScheduleDialogProps) {
  const { record } = props;
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { save } = useScheduleMutations();
  const [contact, setContact] = useState<Pick<Contact, "id" | "name" | "number"> | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState("");
  const [dropPicture, setDropPicture] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const sent = record?.status === "ENVIADA";
  useEffect(() => {
    if (!props.open) return;
    setFile(null);
    setFileError("");
    setDropPicture(false);
    setContact(record?.contact ?? props.contact ?? null);
  }, [props.open, record, props.contact]);

  const submit = async (v: { contactId: number; body: string; sendAt: string }) => {
    const form = { contactId: v.contactId, body: v.body, sendAt: new Date(v.sendAt).toISOString(), ...(record ? {} : props.ticketId ? { ticketId: props.ticketId } : {}) };
    let saved = await save.mutateAsync({ id: record?.id, form });
    if (file) saved = await uploadSchedulePicture(saved.id, file);
    else if (dropPicture && saved.mediaPath) saved = await removeSchedulePicture(saved.id);
    schedulesCache.upsert(qc, saved);
    return saved;
  };

  const pictureName = file?.name ?? (dropPicture ? null : record?.mediaName);
  if (sent && record) return <SentSchedule open={props.open} record={record} onClose={props.onClose} />;
  const title = record?.status === "ERRO" ? t("schedules.errorTitle") : t(record ? "schedules.editTitle" : "schedules.addTitle");
  return (
    <FormDialog
      open={props.open}
      onClose={props.onClose}
      title={title}
      successText={t("schedules.saved")}
      saveTestId="save-schedule"
      width="34rem"
      schema={schema}
      initial={() => ({
        contactId: record?.contactId ?? props.contact?.id ?? 0,
        body: record?.body ?? "",
        sendAt: localInput(record ? new Date(record.sendAt) : (props.sendAt ?? new Date(Date.now() + 3600_000))),
      })}
      onSubmit={submit}
    >
      {(f) => (
        <>
          {record?.status === "ERRO" && (
            <Alert variation="error" data-testid="schedule-error">
              {t(`errors.${record.error}`, { defaultValue: record.error ?? "" })}
            </Alert>
          )}
          {props.contact ? (
            <TextField label={t("schedules.contact")} value={contact?.name ?? ""} isReadOnly data-testid="schedule-contact-fixed" />
          ) : (
            <div>
              <ContactPicker
                label={t("schedules.contact")}
                value={contact as Contact | null}
                onChange={(c) => {
                  setContact(c);
                  f.set("contactId", c?.id ?? 0);
                }}
              />
              {f.error("contactId") && (
                <Text color="font.error" fontSize="small" role="alert">
                  {f.error("contactId")}
                </Text>
              )}
            </div>
          )}
          <TextAreaField
            label={t("schedules.body")}
            descriptiveText={t("schedules.variablesHint", { vars: VARIABLES })}
            rows={5}
            {...f.text("body")}
            isRequired
            data-testid="schedule-body"
          />
          <TextField label={t("schedules.sendAt")} type="datetime-local" {...f.text("sendAt")} isRequired data-testid="schedule-send-at" />
          <Flex alignItems="center" gap="0.75rem" wrap="wrap">
            <Text fontWeight="bold" fontSize="small">
              {t("schedules.picture")}
            </Text>
            {pictureName ? (
              <>
                <Text as="span" className="cell-clip" data-testid="schedule-picture-name">
                  {pictureName}
                </Text>
                <Button
                  size="small"
                  variation="link"
                  onClick={() => {
                    setFile(null);
                    setDropPicture(true);
                  }}
                >
                  {t("schedules.removePicture")}
                </Button>
              </>
            ) : (
              <Button size="small" onClick={() => fileRef.current?.click()} data-testid="schedule-attach">
                {t("schedules.attach")}
              </Button>
            )}
            <HiddenFileInput
              inputRef={fileRef}
              testId="schedule-file"
              accept=".png,.jpg,.jpeg"
              onFiles={([x]) => {
                if (!x) return;
                if (!PICTURE_TYPES.includes(x.type)) {
                  setFileError(t("schedules.pictureType"));
                  return;
                }
                setFileError("");
                setFile(x);
              }}
            />
            {fileError && (
              <Text color="font.error" fontSize="small" role="alert">
                {fileError}
              </Text>
            )}
          </Flex>
        </>
      )}
    </FormDialog>
  );
}

/** A sent schedule, read-only: who it went to, when (and how late), what. */
function SentSchedule(props: { open: boolean; record: Schedule; onClose: () => void }) {
  const { t } = useTranslation();
  const r = props.record;
  return (
    <Dialog
      open={props.open}
      title={t("schedules.sentTitle")}
      onClose={props.onClose}
      width="34rem"
      footer={
        <Button onClick={props.onClose} data-autofocus>
          {t("common.close")}
        </Button>
      }
    >
      <Alert variation="success" data-testid="schedule-sent">
        {t("schedules.readOnly")} {r.sentAt && t("schedules.sentAt", { when: new Date(r.sentAt).toLocaleString() })}
        {r.late && ` · ${t("schedules.late", { minutes: Math.round((r.lateSeconds ?? 0) / 60) })}`}
      </Alert>
      <TextField label={t("schedules.contact")} value={r.contact?.name ?? ""} isReadOnly />
      <TextAreaField label={t("schedules.body")} value={r.body} rows={5} isReadOnly />
      <TextField label={t("schedules.sendAt")} value={new Date(r.sendAt).toLocaleString()} isReadOnly />
      {r.mediaName && <TextField label={t("schedules.picture")} value={r.mediaName} isReadOnly />}
    </Dialog>
  );
}
