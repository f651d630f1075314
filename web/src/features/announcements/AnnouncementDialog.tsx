/**
 * Add/edit announcement dialog on the kit's form dialog: title and text (both required, 'Obrigatório'), priority
 * (1 Alta, 2 Média, 3 Baixa; default 3), status Ativo/Inativo, and one image (.png, .jpg, .jpeg), uploaded after the
 * save or removed.
 */
import { Button, Flex, SelectField, Text, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "../../ui/Toast.tsx";
import { CrudDialog, HiddenFileInput, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
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
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!props.open) return;
    setFile(null);
    setDropMedia(false);
  }, [props.open]);

  const submit = async (v: { title: string; text: string; priority: "1" | "2" | "3"; status: "true" | "false" }) => {
    const form = { title: v.title, text: v.text, priority: Number(v.priority), status: v.status === "true" };
    let saved = await save.mutateAsync({ id: record?.id, form });
    if (file) saved = await uploadAnnouncementMedia(saved.id, file);
    else if (dropMedia && saved.mediaPath) saved = await removeAnnouncementMedia(saved.id);
    announcementsCache.upsert(qc, saved);
    return saved;
  };

  const mediaName = file?.name ?? (dropMedia ? null : record?.mediaName);
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
          <Flex alignItems="center" gap="0.75rem" wrap="wrap">
            <Text fontWeight="bold" fontSize="small">
              {t("announcements.media")}
            </Text>
            {mediaName ? (
              <>
                <Text as="span" className="cell-clip" data-testid="announcement-media-name">
                  {mediaName}
                </Text>
                <Button
                  size="small"
                  variation="link"
                  onClick={() => {
                    setFile(null);
                    setDropMedia(true);
                  }}
                >
                  {t("announcements.removeMedia")}
                </Button>
              </>
            ) : (
              <Button size="small" onClick={() => fileRef.current?.click()}>
                {t("announcements.attach")}
              </Button>
            )}
            <HiddenFileInput
              inputRef={fileRef}
              accept=".png,.jpg,.jpeg,image/png,image/jpeg"
              testId="announcement-file"
              onFiles={([x]) => {
                if (!x) return;
                if (!IMAGE_TYPES.includes(x.type)) toast.error(t("announcements.badType"));
                else setFile(x);
              }}
            />
          </Flex>
        </>
      )}
    </CrudDialog>
  );
}
