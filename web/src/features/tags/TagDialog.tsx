/**
 * Add/edit tag dialog (docs/product/tags.md) on the kit's form dialog: name required, at least 3
 * characters ('Obrigatório', 'Mensagem muito curta'; a name another tag has shows `ERR_TAG_NAME_ALREADY_EXISTS` under
 * it), colour (text plus a colour picker, a valid CSS colour) and the
 * kanban switch, shown only to admin and supervisor profiles (and super users). Sends name, color, kanban (0/1) and
 * the saving user's id.
 */
import { SwitchField, TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../api/session.ts";
import { ColorField, CrudDialog, randomColor, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { mayAccess } from "../access.tsx";
import type { Access } from "../types.ts";
import { useTagMutations } from "./api.ts";
import type { Tag } from "./types.ts";

/** Who may flag a tag as a kanban lane (docs/product/tags.md#rights): the shared table's `tags:kanban`. */
export const KANBAN_SWITCH: Access = { permission: "tags:kanban" };

const { z } = rules;
const schema = z.object({
  name: z.string().trim().min(1, "tags.validation.required").min(3, "tags.validation.tooShort"),
  color: rules.color(),
  kanban: z.boolean(),
});

export function TagDialog(props: RecordDialogProps<Tag>) {
  const tag = props.record;
  const { t } = useTranslation();
  const me = useSession()!.user;
  const { save } = useTagMutations();
  const canKanban = mayAccess(me, KANBAN_SWITCH, undefined);
  return (
    <CrudDialog
      ns="tags"
      entity="tag"
      {...props}
      width="26rem"
      schema={schema}
      codeFields={{ ERR_TAG_NAME_ALREADY_EXISTS: "name" }}
      initial={() => ({ name: tag?.name ?? "", color: tag?.color ?? randomColor(), kanban: !!tag?.kanban })}
      onSubmit={(v) => save.mutateAsync({ id: tag?.id, form: { name: v.name, color: v.color, kanban: canKanban ? (v.kanban ? 1 : 0) : (tag?.kanban ?? 0), userId: me.id } })}
    >
      {(f) => (
        <>
          <TextField label={t("tags.name")} {...f.text("name")} isRequired />
          <ColorField label={t("tags.color")} {...f.text("color")} onChange={(v) => f.set("color", v)} isRequired />
          {canKanban && <SwitchField label={t("tags.kanbanHint")} name="kanban" isChecked={f.values.kanban} onChange={(e) => f.set("kanban", e.target.checked)} />}
        </>
      )}
    </CrudDialog>
  );
}
