/**
 * Add/edit quick message dialog on the kit's form dialog: shortcode
 * (required, 'Obrigatório'), message (its variables such as {{name}} rendered when sent), status Ativo/Inativo, the
 * "geral" switch only for those holding `quick-messages:global` (admins), and one media file, uploaded after the save
 * (the server stores its name with underscores for spaces) or removed.
 */
import { can } from "@atende/shared/access/permissions";
import { SelectField, SwitchField, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../api/session.ts";
import { AttachmentField, CrudDialog, type RecordDialogProps, rules, useAttachmentChoice } from "../../ui/kit/index.ts";
import { type QuickMessage, quickMessagesCache, removeQuickMessageMedia, uploadQuickMessageMedia, useQuickMessageMutations } from "./api.ts";
import { useQueryClient } from "@tanstack/react-query";

/** The variables a message may hold (rendered by the server when it is sent). */
const VARIABLES = ["firstName", "name", "ms", "protocol", "hora"].map((v) => `{{${v}}}`).join(", ");

const { z } = rules;
const schema = z.object({
  shortcode: z.string().trim().min(1, "quickMessages.required"),
  message: z.string(),
  status: z.enum(["true", "false"]),
  geral: z.boolean(),
});

export function QuickMessageDialog(props: RecordDialogProps<QuickMessage>) {
  const record = props.record;
  const { t } = useTranslation();
  const qc = useQueryClient();
  const me = useSession()!.user;
  const mayGlobal = can(me, "quick-messages:global");
  const { save } = useQuickMessageMutations();
  const media = useAttachmentChoice(props.open, record?.mediaName);

  const submit = async (v: { shortcode: string; message: string; status: "true" | "false"; geral: boolean }) => {
    const form = { shortcode: v.shortcode, message: v.message, status: v.status === "true", ...(mayGlobal ? { geral: v.geral } : {}) };
    let saved = await save.mutateAsync({ id: record?.id, form });
    if (media.file) saved = await uploadQuickMessageMedia(saved.id, media.file);
    else if (media.drop && saved.isMedia) saved = await removeQuickMessageMedia(saved.id);
    quickMessagesCache.upsert(qc, saved);
    return saved;
  };

  return (
    <CrudDialog
      ns="quickMessages"
      entity="quick-message"
      {...props}
      width="32rem"
      schema={schema}
      initial={() => ({ shortcode: record?.shortcode ?? "", message: record?.message ?? "", status: record?.status === false ? ("false" as const) : ("true" as const), geral: record?.geral ?? false })}
      onSubmit={submit}
    >
      {(f) => (
        <>
          <TextField label={t("quickMessages.shortcode")} descriptiveText={t("quickMessages.shortcodeHint")} {...f.text("shortcode")} isRequired />
          <TextAreaField label={t("quickMessages.message")} descriptiveText={t("quickMessages.variablesHint", { vars: VARIABLES })} rows={5} {...f.text("message")} />
          <SelectField label={t("quickMessages.status")} {...f.text("status")}>
            <option value="true">{t("quickMessages.active")}</option>
            <option value="false">{t("quickMessages.inactive")}</option>
          </SelectField>
          {mayGlobal && <SwitchField label={t("quickMessages.geral")} name="geral" isChecked={f.values.geral} onChange={(e) => f.set("geral", e.target.checked)} />}
          <AttachmentField label={t("quickMessages.media")} choice={media} attachText={t("quickMessages.attach")} removeText={t("quickMessages.removeMedia")} testId="quick-message" />
        </>
      )}
    </CrudDialog>
  );
}
