/**
 * Add/edit contact dialog (docs/product/contacts.md#fields) on the kit's form dialog: name required 2-50, number 8-50
 * (placeholder in the country-code format), email optional and valid ('Invalid email'), disable-bot flag and extra
 * info fields. Calls `onSaved(contact)` after a successful save; API errors (e.g. `ERR_DUPLICATED_CONTACT`) show as
 * toasts. The saved contact updates every cached copy (pages, the contact drawer) through `contactsCache`.
 */
import { X } from "lucide-react";
import { Button, CheckboxField, Flex, TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { CrudDialog, rules } from "../../ui/kit/index.ts";
import { ATTENDANCE_TOAST_MS } from "../../ui/Toast.tsx";
import { useContactMutations, type Contact } from "./api.ts";

const { z } = rules;
const schema = z.object({
  name: rules.name(2, 50),
  number: rules.name(8, 50).transform((v) => v.replace(/\D/g, "")),
  email: rules.optionalEmail(),
  disableBot: z.boolean(),
  extraInfo: z.array(z.object({ name: z.string(), value: z.string() })).transform((xs) => xs.filter((x) => x.name.trim()).map((x) => ({ name: x.name.trim(), value: x.value }))),
});

export function ContactDialog(props: { open: boolean; contact: Contact | null; initialName?: string; initialNumber?: string; onClose: () => void; onSaved?: (c: Contact) => void }) {
  const { t } = useTranslation();
  const { save } = useContactMutations();
  const c = props.contact;
  return (
    <CrudDialog
      ns="contacts"
      entity="contact"
      record={c}
      open={props.open}
      onClose={props.onClose}
      schema={schema}
      initial={() => ({
        name: c?.name ?? props.initialName ?? "",
        number: c?.number ?? props.initialNumber ?? "",
        email: c?.email ?? "",
        disableBot: !!c?.disableBot,
        extraInfo: (c?.extraInfo ?? []).map((x) => ({ name: x.name, value: x.value })),
      })}
      onSubmit={(form) => save.mutateAsync({ id: c?.id, form })}
      onSaved={(saved) => props.onSaved?.(saved as Contact)}
      toastMs={ATTENDANCE_TOAST_MS}
    >
      {(f) => {
        const extra = f.values.extraInfo;
        const setExtra = (i: number, k: "name" | "value", v: string) => f.set("extraInfo", extra.map((y, j) => (j === i ? { ...y, [k]: v } : y)));
        return (
          <>
            <TextField label={t("contacts.name")} {...f.text("name")} isRequired />
            <TextField label={t("contacts.number")} inputMode="tel" placeholder="5511999999999" {...f.text("number")} isRequired />
            <TextField label={t("contacts.email")} type="email" {...f.text("email")} />
            <CheckboxField label={t("contacts.disableBot")} name="disableBot" checked={f.values.disableBot} onChange={(e) => f.set("disableBot", e.target.checked)} />
            <fieldset className="fieldset">
              <legend>{t("contacts.extraInfo")}</legend>
              <Flex direction="column" gap="0.5rem">
                {extra.map((x, i) => (
                  <Flex key={i} gap="0.5rem" alignItems="flex-end">
                    <TextField flex="1" size="small" label={t("contacts.extraName")} value={x.name} onChange={(e) => setExtra(i, "name", e.target.value)} />
                    <TextField flex="1" size="small" label={t("contacts.extraValue")} value={x.value} onChange={(e) => setExtra(i, "value", e.target.value)} />
                    <Button size="small" onClick={() => f.set("extraInfo", extra.filter((_, j) => j !== i))} aria-label={t("common.delete")}>
                      <X size={14} aria-hidden="true" />
                    </Button>
                  </Flex>
                ))}
                <Button size="small" onClick={() => f.set("extraInfo", [...extra, { name: "", value: "" }])}>
                  {t("contacts.addExtra")}
                </Button>
              </Flex>
            </fieldset>
          </>
        );
      }}
    </CrudDialog>
  );
}
