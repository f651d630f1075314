/**
 * The file list modal: name (at least 3 characters, 'nome muito curto'), message (required), and its files: each
 * option a name and a chosen file, added or removed in the modal; the files are uploaded after the save, one per
 * option (an option's earlier file is replaced on the server).
 */
import { Button, Flex, Text, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CrudDialog, HiddenFileInput, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { type FileList, fileListsCache, uploadFileListFile, useFileListMutations } from "./api.ts";

const { z } = rules;
const schema = z.object({
  name: z.string().trim().min(1, "fileLists.validation.required").min(3, "fileLists.validation.nameTooShort"),
  message: z.string().trim().min(1, "fileLists.validation.required"),
});

/** An option while editing: its id once saved, its name, the file chosen now (uploaded after the save). */
interface Draft {
  key: number;
  id?: number;
  name: string;
  path: string | null;
  file?: File;
}

export function FileListDialog(props: RecordDialogProps<FileList>) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { save } = useFileListMutations();
  const r = props.record;
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const nextKey = useRef(1);
  const input = useRef<HTMLInputElement>(null);
  const [picking, setPicking] = useState<number | null>(null);
  useEffect(() => {
    if (props.open) setDrafts((r?.options ?? []).map((o) => ({ key: nextKey.current++, id: o.id, name: o.name, path: o.path })));
  }, [props.open, r]);
  const patch = (key: number, change: Partial<Draft>) => setDrafts((ds) => ds.map((d) => (d.key === key ? { ...d, ...change } : d)));

  const submit = async (v: { name: string; message: string }) => {
    const options = drafts.filter((d) => d.name.trim() || d.file).map((d) => ({ ...(d.id ? { id: d.id } : {}), name: d.name.trim() || d.file?.name || "arquivo" }));
    let saved = await save.mutateAsync({ id: r?.id, form: { name: v.name, message: v.message, options } });
    const kept = drafts.filter((d) => d.name.trim() || d.file);
    for (const [i, d] of kept.entries()) {
      const option = saved.options[i];
      if (d.file && option) saved = await uploadFileListFile(saved.id, option.id, d.file);
    }
    fileListsCache.upsert(qc, saved);
    return saved;
  };

  return (
    <CrudDialog
      ns="fileLists"
      entity="file-list"
      {...props}
      width="34rem"
      schema={schema}
      initial={() => ({ name: r?.name ?? "", message: r?.message ?? "" })}
      onSubmit={submit}
    >
      {(f) => (
        <>
          <TextField label={t("fileLists.name")} {...f.text("name")} isRequired />
          <TextAreaField label={t("fileLists.message")} rows={3} {...f.text("message")} isRequired />
          <Text fontWeight="600">{t("fileLists.files")}</Text>
          <HiddenFileInput
            inputRef={input}
            testId="file-list-file"
            onFiles={(files) => {
              const file = files[0];
              if (file && picking !== null) patch(picking, { file, name: drafts.find((d) => d.key === picking)?.name || file.name });
              setPicking(null);
            }}
          />
          {drafts.map((d) => (
            <Flex key={d.key} alignItems="flex-end" gap="0.5rem" wrap="wrap" data-testid="file-list-option">
              <TextField label={t("fileLists.optionName")} value={d.name} onChange={(e) => patch(d.key, { name: e.target.value })} flex="1 1 10rem" />
              <Text fontSize="small" className="cell-clip" flex="1 1 8rem">
                {d.file?.name ?? d.path ?? t("fileLists.noFile")}
              </Text>
              <Button
                size="small"
                onClick={() => {
                  setPicking(d.key);
                  input.current?.click();
                }}
              >
                {t("fileLists.chooseFile")}
              </Button>
              <Button size="small" variation="link" onClick={() => setDrafts((ds) => ds.filter((x) => x.key !== d.key))}>
                {t("fileLists.removeOption")}
              </Button>
            </Flex>
          ))}
          <Button size="small" onClick={() => setDrafts((ds) => [...ds, { key: nextKey.current++, name: "", path: null }])} data-testid="file-list-add-option">
            {t("fileLists.addOption")}
          </Button>
        </>
      )}
    </CrudDialog>
  );
}
