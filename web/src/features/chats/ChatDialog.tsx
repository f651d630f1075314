/**
 * New/edit chat dialog on the kit's form dialog: title (required: 'Por favor, preencha o título da conversa.') and
 * the users of the company to talk with (at least one: 'Por favor, selecione pelo menos um usuário.'); the creator is
 * always a member. Only the owner opens it to edit.
 */
import { CheckboxField, Flex, Text, TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../api/session.ts";
import { CrudDialog, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { useUserList } from "../users/api.ts";
import { type Chat, useChatMutations } from "./api.ts";

const { z } = rules;
const schema = z.object({
  title: z.string().trim().min(1, "chats.titleRequired").max(100, "validation.tooLong"),
  users: z.array(z.number()).min(1, "chats.usersRequired"),
});

export function ChatDialog(props: RecordDialogProps<Chat> & { onSaved?: (chat: Chat) => void }) {
  const { record, onSaved, ...rest } = props;
  const { t } = useTranslation();
  const me = useSession()!.user;
  const users = (useUserList().data ?? []).filter((u) => u.id !== me.id);
  const { save } = useChatMutations();
  return (
    <CrudDialog
      ns="chats"
      entity="chat"
      record={record}
      {...rest}
      width="30rem"
      schema={schema}
      initial={() => ({ title: record?.title ?? "", users: record ? record.users.map((u) => u.userId).filter((id) => id !== me.id) : [] })}
      onSubmit={(v) => save.mutateAsync({ id: record?.id, form: v })}
      onSaved={(c) => onSaved?.(c as Chat)}
    >
      {(f) => (
        <>
          <TextField label={t("chats.chatTitle")} {...f.text("title")} isRequired data-testid="chat-title" />
          <fieldset className="fieldset" aria-invalid={f.error("users") ? "true" : undefined} tabIndex={-1}>
            <legend>{t("chats.users")}</legend>
            {users.length ? (
              <Flex direction="column" gap="0.25rem" className="chat-user-list">
                {users.map((u) => (
                  <CheckboxField
                    key={u.id}
                    name="users"
                    value={String(u.id)}
                    label={u.name}
                    checked={f.values.users.includes(u.id)}
                    onChange={(e) => f.set("users", e.target.checked ? [...f.values.users, u.id] : f.values.users.filter((x) => x !== u.id))}
                    data-testid="chat-user"
                  />
                ))}
              </Flex>
            ) : (
              <Text variation="secondary" fontSize="small">
                {t("chats.noUsers")}
              </Text>
            )}
            {f.error("users") && (
              <Text variation="error" fontSize="small" role="alert" data-testid="chat-users-error">
                {f.error("users")}
              </Text>
            )}
          </fieldset>
        </>
      )}
    </CrudDialog>
  );
}
