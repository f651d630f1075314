/** Add/edit contact list dialog on the kit's form dialog: the name, required, 2-50 characters. */
import { TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { CrudDialog, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { type ContactList, useContactListMutations } from "./api.ts";

const schema = rules.z.object({ name: rules.name(2, 50) });

export function ContactListDialog(props: RecordDialogProps<ContactList>) {
  const { t } = useTranslation();
  const { save } = useContactListMutations();
  return (
    <CrudDialog
      ns="contactLists"
      entity="contact-list"
      {...props}
      width="26rem"
      schema={schema}
      initial={() => ({ name: props.record?.name ?? "" })}
      onSubmit={(v) => save.mutateAsync({ id: props.record?.id, form: { name: v.name } })}
    >
      {(f) => <TextField label={t("contactLists.name")} {...f.text("name")} isRequired />}
    </CrudDialog>
  );
}
