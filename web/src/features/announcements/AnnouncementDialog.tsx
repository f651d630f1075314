/**
 * Add/edit announcement dialog on the kit's form dialog: title and text (both required, 'Obrigatório'), priority
 * (1 Alta, 2 Média, 3 Baixa; default 3), status Ativo/Inativo, and one image (.png, .jpg, .jpeg), uploaded after the
 * save or removed.
 */
import { Flex, SelectField, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useToast } from "../../ui/Toast.tsx";
import { AttachmentField, CrudDialog, type RecordDialogProps, rules, useAttachmentChoice } from "../../ui/kit/index.ts";
import { type Announcement, announcementsCache, removeAnnouncementMedia, uploadAnnouncementMedia, useAnnouncementMutations } from "./api.ts";

const IMAGE_TYPES = ["image/png", "image/jpeg"];
const { z } = rules;
const schema = z.object({
  title: z.string().trim().min(1, "announcements.required"),
  text: z.string().trim().min(1, "announcements.required"),
  priority: z.enum(["1", "2", "3"]),
  status: z.enum(["true", "false"]),
});

export function AnnouncementDialog(props: RecordDialogProps<Announcement>) {
  const record = props.record;
  const { t } = useTranslation();
  const qc = useQueryClient();
  const toast = useToast();
  const { save } = useAnnouncementMutations();
  const media = useAttachmentChoice(props.open, record?.mediaName);

  const submit = async (v: { title: string; text: string; priority: "1" | "2" | "3"; status: "true" | "false" }) => {
    const form = { title: v.title, text: v.text, priority: Number(v.priority), status: v.status === "true" };
    let saved = await save.mutateAsync({ id: record?.id, form });
    if (media.file) saved = await uploadAnnouncementMedia(saved.id, media.file);
    else if (media.drop && saved.mediaPath) saved = await removeAnnouncementMedia(saved.id);
    announcementsCache.upsert(qc, saved);
    return saved;
  };

  return (
    <CrudDialog
      ns="announcements"
      entity="announcement"
      {...props}
      width="32rem"
      schema={schema}
      initial={() => ({
        title: record?.title ?? "",
        text: record?.text ?? "",
        priority: String(record?.priority ?? 3) as "1" | "2" | "3",
        status: record?.status === false ? ("false" as const) : ("true" as const),
      })}
      onSubmit={submit}
    >
      {(f) => (
        <>
          <TextField label={t("announcements.field_title")} {...f.text("title")} isRequired />
          <TextAreaField label={t("announcements.text")} rows={5} {...f.text("text")} isRequired />
          <Flex gap="1rem" wrap="wrap">
            <SelectField label={t("announcements.priority")} {...f.text("priority")} data-testid="announcement-priority-select">
              <option value="1">{t("announcements.priority1")}</option>
              <option value="2">{t("announcements.priority2")}</option>
              <option value="3">{t("announcements.priority3")}</option>
            </SelectField>
            <SelectField label={t("announcements.status")} {...f.text("status")}>
              <option value="true">{t("announcements.active")}</option>
              <option value="false">{t("announcements.inactive")}</option>
            </SelectField>
          </Flex>
          <AttachmentField
            label={t("announcements.media")}
            choice={media}
            attachText={t("announcements.attach")}
            removeText={t("announcements.removeMedia")}
            accept=".png,.jpg,.jpeg,image/png,image/jpeg"
            accepts={(x) => {
              if (IMAGE_TYPES.includes(x.type)) return true;
              toast.error(t("announcements.badType"));
              return false;
            }}
            testId="announcement"
          />
        </>
      )}
    </CrudDialog>
  );
}
