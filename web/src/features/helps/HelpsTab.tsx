/**
 * The Ajuda tab of /settings (docs/product/helps.md#managing-helps), for super users only: a form (title, video code
 * or YouTube address, description) that adds a help or, after a row's edit button, updates it ('Limpar' goes back to
 * adding), and the table of every help (title, video code, description) with edit and delete after
 * 'Deseja realmente excluir este registro?'. Field errors show under the fields (the same rules the server applies);
 * a failed save shows the product's 'Não foi possível realizar a operação...' message.
 */
import { videoCodeOf } from "@atende/shared/helps/schema";
import { Button, Flex, Table, TableBody, TableCell, TableHead, TableRow, Text, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { reportSaveError } from "../../api/errors.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { HeaderCells } from "../../ui/HeaderCells.tsx";
import { fieldErrors, RowActions, rules } from "../../ui/kit/index.ts";
import { PageState } from "../../ui/PageState.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { type Help, useHelpMutations, useHelps } from "./api.ts";

const { z } = rules;
/** The form's rules, as the server's (`shared/src/helps/schema.ts`), with i18n keys as messages. */
const schema = z.object({
  title: z.string().trim().min(1, "helps.required").max(100, "validation.tooLong"),
  video: z
    .string()
    .trim()
    .min(1, "helps.required")
    .refine((v) => !!videoCodeOf(v), "helps.invalidVideo"),
  description: z.string().trim().max(1000, "validation.tooLong"),
});
type Values = { title: string; video: string; description: string };
const EMPTY: Values = { title: "", video: "", description: "" };

export function HelpsTab() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const helps = useHelps();
  const { save, remove } = useHelpMutations();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState<Help | null>(null);
  const [deleting, setDeleting] = useState<Help | null>(null);
  const [touched, setTouched] = useState(false);

  const check = (v: Values) => {
    const r = schema.safeParse(v);
    return r.success ? { data: r.data, errors: {} } : { data: undefined, errors: fieldErrors(r.error) };
  };
  const set = (k: keyof Values, v: string) => {
    const next = { ...values, [k]: v };
    setValues(next);
    if (touched) setErrors(check(next).errors);
  };
  const reset = () => {
    setValues(EMPTY);
    setErrors({});
    setTouched(false);
    setEditing(null);
  };
  const edit = (h: Help) => {
    setEditing(h);
    setValues({ title: h.title, video: h.video, description: h.description });
    setErrors({});
    setTouched(false);
  };
  const submit = async () => {
    setTouched(true);
    const r = check(values);
    setErrors(r.errors);
    if (!r.data) return;
    try {
      await save.mutateAsync({ id: editing?.id, form: r.data });
      toast.success(t("helps.saved"));
      reset();
    } catch (e) {
      reportSaveError(e, setErrors, () => toast.error(t("helps.saveFailed")), t);
    }
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t("helps.deleted"));
      if (editing?.id === deleting.id) reset();
    } catch {
      toast.error(t("helps.deleteFailed"));
    }
    setDeleting(null);
  };
  const field = (k: keyof Values) => {
    const m = errors[k];
    return { name: k, value: values[k], onChange: (e: { target: { value: string } }) => set(k, e.target.value), hasError: !!m, errorMessage: m && i18n.exists(m) ? t(m) : m };
  };
  const items = helps.data ?? [];

  return (
    <Flex direction="column" gap="1.5rem" className="helps-tab" data-testid="helps-tab">
      <form
        className="helps-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {editing && (
          <Text fontSize="small" variation="secondary" className="helps-form-editing" data-testid="help-editing">
            {t("helps.editing", { title: editing.title })}
          </Text>
        )}
        <TextField label={t("helps.helpTitle")} isRequired {...field("title")} />
        <TextField label={t("helps.video")} descriptiveText={t("helps.videoHint")} isRequired {...field("video")} />
        <TextAreaField label={t("helps.description")} rows={3} className="helps-form-wide" {...field("description")} />
        <Flex gap="0.5rem" justifyContent="flex-end" className="helps-form-wide">
          <Button type="button" onClick={reset}>
            {t("helps.clear")}
          </Button>
          <Button type="submit" variation="primary" isLoading={save.isPending} data-testid="save-help">
            {editing ? t("helps.update") : t("helps.add")}
          </Button>
        </Flex>
      </form>
      <PageState loading={helps.isPending} error={helps.isError ? t("helps.loadFailed") : undefined} empty={items.length === 0} onRetry={() => void helps.refetch()}>
        <div className="helps-table-scroll">
          <Table className="data-table" size="small" highlightOnHover>
            <TableHead>
              <TableRow>
                <HeaderCells
                  columns={[
                    { label: t("helps.helpTitle") },
                    { label: t("helps.video"), className: "hide-narrow" },
                    { label: t("helps.description"), className: "hide-narrow" },
                    { label: t("common.actions"), className: "col-actions" },
                  ]}
                />
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((h) => (
                <TableRow key={h.id} data-testid="help-row" data-help-id={h.id} className={editing?.id === h.id ? "row-selected" : undefined}>
                  <TableCell className="cell-clip">{h.title}</TableCell>
                  <TableCell className="hide-narrow">
                    <code>{h.video}</code>
                  </TableCell>
                  <TableCell className="hide-narrow cell-clip">{h.description}</TableCell>
                  <TableCell className="col-actions">
                    <RowActions name={h.title} onEdit={() => edit(h)} onDelete={() => setDeleting(h)} testIdPrefix="help" />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </PageState>
      <ConfirmDialog open={!!deleting} busy={remove.isPending} onConfirm={() => void confirmDelete()} onClose={() => setDeleting(null)} />
    </Flex>
  );
}
