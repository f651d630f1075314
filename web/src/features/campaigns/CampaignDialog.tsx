/**
 * Add/edit campaign dialog on the kit's form dialog: name (2-50, 'Too Short!' / 'Too Long!'), connection, audience
 * (a tag), scheduled date (date-time with seconds; empty = Inativa), five message variants, confirmation with five
 * confirmation variants, close-on-reply, and one media file (uploaded after the save). Read-only (every field
 * disabled, no save) when the campaign is not editable; a Cancelada one keeps its message fields enabled.
 */
import { CheckboxField, SelectField, SwitchField, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { AttachmentField, CrudDialog, type RecordDialogProps, rules, useAttachmentChoice } from "../../ui/kit/index.ts";
import { type Campaign, campaignsCache, removeCampaignMedia, uploadCampaignMedia, useCampaignMutations, useConnectionOptions, useTagOptions } from "./api.ts";

const { z } = rules;
const N = [1, 2, 3, 4, 5] as const;
const schema = z.object({
  name: z.string().trim().min(2, "Too Short!").max(50, "Too Long!"),
  whatsappId: z.string(),
  tagListId: z.string(),
  scheduledAt: z.string(),
  confirmation: z.boolean(),
  closeTicketOnReply: z.boolean(),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  confirmationMessage1: z.string(),
  confirmationMessage2: z.string(),
  confirmationMessage3: z.string(),
  confirmationMessage4: z.string(),
  confirmationMessage5: z.string(),
});
type Values = (typeof schema)["_output"];

/** ISO → the value of a `datetime-local` input (local time, with seconds). */
const toLocal = (iso: string | null | undefined) => {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
};
const emptyNull = (v: string) => (v.trim() ? v : null);
const idOrNull = (v: string) => (v ? Number(v) : null);

export function CampaignDialog(props: RecordDialogProps<Campaign>) {
  const record = props.record;
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { save } = useCampaignMutations();
  const media = useAttachmentChoice(props.open, record?.mediaName);
  const connections = useConnectionOptions(props.open);
  const tags = useTagOptions(props.open);
  const canceled = record?.status === "CANCELADA";
  const locked = !!record && !record.editable && !canceled;

  const submit = async (v: Values) => {
    const messages = Object.fromEntries(N.flatMap((n) => [[`message${n}`, emptyNull(v[`message${n}`])], [`confirmationMessage${n}`, emptyNull(v[`confirmationMessage${n}`])]]));
    const form = {
      name: v.name,
      ...messages,
      confirmation: v.confirmation,
      closeTicketOnReply: v.closeTicketOnReply,
      ...(canceled ? {} : { whatsappId: idOrNull(v.whatsappId), tagListId: idOrNull(v.tagListId), scheduledAt: v.scheduledAt ? new Date(v.scheduledAt).toISOString() : null }),
    };
    let saved = await save.mutateAsync({ id: record?.id, form });
    if (media.file) saved = await uploadCampaignMedia(saved.id, media.file);
    else if (media.drop && saved.mediaPath) saved = await removeCampaignMedia(saved.id);
    campaignsCache.upsert(qc, saved);
    return saved;
  };

  const initial = (): Values => ({
    name: record?.name ?? "",
    whatsappId: record?.whatsappId ? String(record.whatsappId) : "",
    tagListId: record?.tagListId ? String(record.tagListId) : "",
    scheduledAt: toLocal(record?.scheduledAt),
    confirmation: record?.confirmation ?? false,
    closeTicketOnReply: record?.closeTicketOnReply ?? false,
    message1: record?.message1 ?? "",
    message2: record?.message2 ?? "",
    message3: record?.message3 ?? "",
    message4: record?.message4 ?? "",
    message5: record?.message5 ?? "",
    confirmationMessage1: record?.confirmationMessage1 ?? "",
    confirmationMessage2: record?.confirmationMessage2 ?? "",
    confirmationMessage3: record?.confirmationMessage3 ?? "",
    confirmationMessage4: record?.confirmationMessage4 ?? "",
    confirmationMessage5: record?.confirmationMessage5 ?? "",
  });

  return (
    <CrudDialog ns="campaigns" entity="campaign" {...props} width="44rem" schema={schema} initial={initial} onSubmit={locked ? async () => record : submit}>
      {(f) => (
        <fieldset disabled={locked} className="campaign-form" data-testid={locked ? "campaign-readonly" : undefined}>
          {locked && <p role="status">{t("campaigns.readOnly")}</p>}
          <TextField label={t("campaigns.name")} {...f.text("name")} isRequired data-testid="campaign-name" />
          <SelectField label={t("campaigns.connection")} {...f.text("whatsappId")} isDisabled={locked || canceled} data-testid="campaign-connection">
            <option value="">{t("campaigns.none")}</option>
            {(connections.data ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </SelectField>
          <SelectField label={`${t("campaigns.audience")}: ${t("campaigns.tag")}`} {...f.text("tagListId")} isDisabled={locked || canceled} data-testid="campaign-tag">
            <option value="">{t("campaigns.none")}</option>
            {(tags.data ?? []).map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.name}
              </option>
            ))}
          </SelectField>
          <TextField label={t("campaigns.scheduledAt")} type="datetime-local" step={1} {...f.text("scheduledAt")} isDisabled={locked || canceled} data-testid="campaign-scheduled" />
          <SwitchField label={t("campaigns.confirmation")} name="confirmation" isChecked={f.values.confirmation} onChange={(e) => f.set("confirmation", e.target.checked)} data-testid="campaign-confirmation" />
          <CheckboxField label={t("campaigns.closeTicketOnReply")} name="closeTicketOnReply" checked={f.values.closeTicketOnReply} onChange={(e) => f.set("closeTicketOnReply", e.target.checked)} />
          <p className="hint">{t("campaigns.variablesHint")}</p>
          {N.map((n) => (
            <TextAreaField key={n} label={t("campaigns.message", { n })} rows={2} {...f.text(`message${n}`)} data-testid={`campaign-message${n}`} />
          ))}
          {f.values.confirmation &&
            N.map((n) => (
              <TextAreaField key={n} label={t("campaigns.confirmationMessage", { n })} rows={2} {...f.text(`confirmationMessage${n}`)} data-testid={`campaign-confirmationMessage${n}`} />
            ))}
          {!locked && <AttachmentField label={t("campaigns.media")} choice={media} attachText={t("campaigns.attach")} removeText={t("campaigns.removeMedia")} testId="campaign" />}
        </fieldset>
      )}
    </CrudDialog>
  );
}
