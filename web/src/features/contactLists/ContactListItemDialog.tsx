/**
 * Add/edit contact dialog of a list: name (required, 2-50), number (8-50 characters; the server normalizes it and
 * checks it on WhatsApp), e-mail (valid or empty, 'Invalid email').
 */
import { TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { CrudDialog, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { type ContactListItem, useContactListItemMutations } from "./api.ts";

const { z } = rules;
const schema = z.object({
  name: rules.name(2, 50),
  number: z.string().trim().min(1, "validation.required").min(8, "validation.tooShort").max(50, "validation.tooLong"),
  email: rules.optionalEmail(),
});

export function ContactListItemDialog(props: RecordDialogProps<ContactListItem> & { contactListId: number }) {
  const { t } = useTranslation();
  const { save } = useContactListItemMutations(props.contactListId);
  const r = props.record;
  return (
    <CrudDialog
      ns="contactListItems"
      entity="contact-list-item"
      {...props}
      width="28rem"
      schema={schema}
      codeFields={{ ERR_CONTACT_LIST_ITEM_DUPLICATED: "number", ERR_INVALID_PHONE_NUMBER: "number" }}
      initial={() => ({ name: r?.name ?? "", number: r?.number ?? "", email: r?.email ?? "" })}
      onSubmit={(v) => save.mutateAsync({ id: r?.id, form: { name: v.name, number: v.number, email: v.email, contactListId: props.contactListId } })}
    >
      {(f) => (
        <>
          <TextField label={t("contactListItems.name")} {...f.text("name")} isRequired />
          <TextField label={t("contactListItems.number")} descriptiveText={t("contactListItems.numberHint")} inputMode="tel" {...f.text("number")} isRequired />
          <TextField label={t("contactListItems.email")} type="email" {...f.text("email")} />
        </>
      )}
    </CrudDialog>
  );
}
