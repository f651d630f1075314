/**
 * Add/edit contact dialog (attendance.md §5 Contact form): name required 2-50, number 8-50 (placeholder in the
 * country-code format), email optional and valid ('Invalid email'), disable-bot flag and extra info fields.
 * Calls `onSaved(contact)` after a successful save; API errors (e.g. `ERR_DUPLICATED_CONTACT`) show as toasts.
 */
import { Button, CheckboxField, Flex, TextField } from "@aws-amplify/ui-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { reportSaveError } from "../../api/errors.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { ATTENDANCE_TOAST_MS, useToast } from "../../ui/Toast.tsx";
import { email, length, optional, required, validate } from "../../ui/validation.ts";
import { useSaveContact, type Contact } from "./api.ts";
import "./i18n.ts";

type Fields = "name" | "number" | "email";

export function ContactDialog(props: { open: boolean; contact: Contact | null; initialName?: string; initialNumber?: string; onClose: () => void; onSaved?: (c: Contact) => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveContact();
  const [values, setValues] = useState<Record<Fields, string>>({ name: "", number: "", email: "" });
  const [disableBot, setDisableBot] = useState(false);
  const [extra, setExtra] = useState<{ name: string; value: string }[]>([]);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});

  useEffect(() => {
    if (!props.open) return;
    const c = props.contact;
    setValues({ name: c?.name ?? props.initialName ?? "", number: c?.number ?? props.initialNumber ?? "", email: c?.email ?? "" });
    setDisableBot(!!c?.disableBot);
    setExtra((c?.extraInfo ?? []).map((x) => ({ name: x.name, value: x.value })));
    setErrors({});
  }, [props.open, props.contact, props.initialName, props.initialNumber]);

  const rules = { name: [required, length(2, 50)], number: [required, length(8, 50)], email: [optional(email)] };
  const err = (k: string) => (errors[k] ? (errors[k]!.startsWith("validation.") ? t(errors[k]!) : errors[k]) : undefined);
  const submit = async () => {
    const errs = validate<Fields>(values, rules);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      const c = await save.mutateAsync({
        id: props.contact?.id,
        form: {
          name: values.name.trim(),
          number: values.number.replace(/\D/g, ""),
          email: values.email.trim(),
          disableBot,
          extraInfo: extra.filter((x) => x.name.trim()).map((x) => ({ name: x.name.trim(), value: x.value })),
        },
      });
      toast.success(t("contacts.saved"), { durationMs: ATTENDANCE_TOAST_MS });
      props.onSaved?.(c);
      props.onClose();
    } catch (e) {
      reportSaveError(e, setErrors, (m) => toast.error(m, { durationMs: ATTENDANCE_TOAST_MS }), t);
    }
  };
  return (
    <Dialog
      open={props.open}
      title={props.contact ? t("contacts.editTitle") : t("contacts.addTitle")}
      onClose={props.onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={props.onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isLoading={save.isPending}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      <TextField label={t("contacts.name")} name="name" value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} hasError={!!errors.name} errorMessage={err("name")} isRequired />
      <TextField
        label={t("contacts.number")}
        name="number"
        inputMode="tel"
        placeholder="5511999999999"
        value={values.number}
        onChange={(e) => setValues({ ...values, number: e.target.value })}
        hasError={!!errors.number}
        errorMessage={err("number")}
        isRequired
      />
      <TextField label={t("contacts.email")} name="email" type="email" value={values.email} onChange={(e) => setValues({ ...values, email: e.target.value })} hasError={!!errors.email} errorMessage={err("email")} />
      <CheckboxField label={t("contacts.disableBot")} name="disableBot" checked={disableBot} onChange={(e) => setDisableBot(e.target.checked)} />
      <fieldset className="fieldset">
        <legend>{t("contacts.extraInfo")}</legend>
        <Flex direction="column" gap="0.5rem">
          {extra.map((x, i) => (
            <Flex key={i} gap="0.5rem" alignItems="flex-end">
              <TextField flex="1" size="small" label={t("contacts.extraName")} value={x.name} onChange={(e) => setExtra(extra.map((y, j) => (j === i ? { ...y, name: e.target.value } : y)))} />
              <TextField flex="1" size="small" label={t("contacts.extraValue")} value={x.value} onChange={(e) => setExtra(extra.map((y, j) => (j === i ? { ...y, value: e.target.value } : y)))} />
              <Button size="small" onClick={() => setExtra(extra.filter((_, j) => j !== i))} aria-label={t("common.delete")}>
                ✕
              </Button>
            </Flex>
          ))}
          <Button size="small" onClick={() => setExtra([...extra, { name: "", value: "" }])}>
            {t("contacts.addExtra")}
          </Button>
        </Flex>
      </fieldset>
    </Dialog>
  );
}
