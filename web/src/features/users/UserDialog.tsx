/**
 * Add/edit user dialog (docs/product/users.md#fields) on the kit's form dialog: name (2-50), email
 * (valid), password (5-50; may stay empty on edit), profile, queues, default connection and allTicket (admin fields:
 * user-modal:editProfile and user-modal:editQueues). The connections come from the connections feature's cache, so
 * the select follows live connection changes.
 */
import { Flex, SelectField, SwitchField, TextField } from "@aws-amplify/ui-react";
import { PasswordField } from "../../ui/PasswordField.tsx";
import { useTranslation } from "react-i18next";
import { CrudDialog, rules } from "../../ui/kit/index.ts";
import { useWhatsapps } from "../connections/api.ts";
import { QueueChecklist } from "../queues/QueueChecklist.tsx";
import { useUserMutations } from "./api.ts";
import type { User } from "./types.ts";

const { z } = rules;
const base = {
  name: rules.name(2, 50),
  email: rules.email(),
  profile: z.enum(["admin", "supervisor", "user"]),
  queueIds: z.array(z.number()),
  whatsappId: z.number().nullable(),
  allTicket: z.boolean(),
};
const addSchema = z.object({ ...base, password: rules.name(5, 50) });
const editSchema = z.object({ ...base, password: rules.optionalLength(5, 50) });

export function UserDialog({ open, user, onClose }: { open: boolean; user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { save } = useUserMutations();
  const connections = useWhatsapps(open);
  return (
    <CrudDialog
      ns="users"
      entity="user"
      record={user}
      open={open}
      onClose={onClose}
      schema={user ? editSchema : addSchema}
      initial={() => ({
        name: user?.name ?? "",
        email: user?.email ?? "",
        password: "",
        profile: user?.profile ?? ("user" as const),
        queueIds: user?.queueIds ?? user?.queues?.map((q) => q.id) ?? [],
        whatsappId: user?.whatsappId ?? null,
        allTicket: user?.allTicket === "enabled",
      })}
      onSubmit={({ password, allTicket, ...v }) =>
        save.mutateAsync({ id: user?.id, form: { ...v, ...(password ? { password } : {}), allTicket: allTicket ? "enabled" : "desabled" } })
      }
    >
      {(f) => (
        <>
          <Flex direction={{ base: "column", medium: "row" }} gap="1rem">
            <TextField flex="1" label={t("users.name")} {...f.text("name")} isRequired />
            <SelectField flex="1" label={t("users.profile")} name="profile" value={f.values.profile} onChange={(e) => f.set("profile", e.target.value as "admin" | "supervisor" | "user")}>
              <option value="admin">{t("users.profiles.admin")}</option>
              <option value="supervisor">{t("users.profiles.supervisor")}</option>
              <option value="user">{t("users.profiles.user")}</option>
            </SelectField>
          </Flex>
          <Flex direction={{ base: "column", medium: "row" }} gap="1rem">
            <TextField flex="1" label={t("users.email")} type="email" autoComplete="off" {...f.text("email")} isRequired />
            <PasswordField
              flex="1"
              label={t("users.password")}
              autoComplete="new-password"
              descriptiveText={user ? t("users.passwordEditHint") : undefined}
              {...f.text("password")}
              isRequired={!user}
            />
          </Flex>
          <QueueChecklist legend={t("users.queues")} emptyText={t("users.noQueues")} value={f.values.queueIds} onChange={(ids) => f.set("queueIds", ids)} />
          {connections.isSuccess && (
            <SelectField
              label={t("users.connection")}
              name="whatsappId"
              value={f.values.whatsappId === null ? "" : String(f.values.whatsappId)}
              onChange={(e) => f.set("whatsappId", e.target.value ? Number(e.target.value) : null)}
            >
              <option value="">{t("users.noConnection")}</option>
              {connections.data.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
          )}
          <SwitchField label={t("users.allTicket")} name="allTicket" isChecked={f.values.allTicket} onChange={(e) => f.set("allTicket", e.target.checked)} />
        </>
      )}
    </CrudDialog>
  );
}
