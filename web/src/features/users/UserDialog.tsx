/**
 * Add/edit user dialog (attendance.md §2 Users page, §5 User form): name (2-50), email (valid), password (5-50;
 * optional on edit), profile, queues, default connection and allTicket (admin fields: user-modal:editProfile and
 * user-modal:editQueues). Server validation (`ERR_VALIDATION` fields) and error codes show under the fields / as toasts.
 */
import { Button, CheckboxField, Flex, PasswordField, SelectField, SwitchField, Text, TextField } from "@aws-amplify/ui-react";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../api/client.ts";
import { reportSaveError } from "../../api/errors.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { email, length, optional, required, validate } from "../../ui/validation.ts";
import { useQueues } from "../queues/api.ts";
import { useSaveUser } from "./api.ts";
import type { User } from "./types.ts";

interface Props {
  open: boolean;
  user: User | null;
  onClose: () => void;
}

type Fields = "name" | "email" | "password";

export function UserDialog({ open, user, onClose }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveUser();
  const queues = useQueues();
  const connections = useQuery({
    queryKey: ["whatsapp", "list"],
    queryFn: () => apiRequest<{ id: number; name: string }[]>("GET", "/whatsapp"),
    enabled: open,
    retry: false,
  });
  const [values, setValues] = useState({ name: "", email: "", password: "" });
  const [profile, setProfile] = useState<"admin" | "user">("user");
  const [queueIds, setQueueIds] = useState<number[]>([]);
  const [whatsappId, setWhatsappId] = useState<number | null>(null);
  const [allTicket, setAllTicket] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues({ name: user?.name ?? "", email: user?.email ?? "", password: "" });
    setProfile(user?.profile === "admin" ? "admin" : "user");
    setQueueIds(user?.queueIds ?? user?.queues?.map((q) => q.id) ?? []);
    setWhatsappId(user?.whatsappId ?? null);
    setAllTicket(user?.allTicket === "enabled");
    setErrors({});
    setTouched(false);
  }, [open, user]);

  const rules = {
    name: [required, length(2, 50)],
    email: [required, email],
    password: user ? [optional(length(5, 50))] : [required, length(5, 50)],
  };
  const check = (v = values) => validate<Fields>(v, rules);
  const set = (k: Fields, v: string) => {
    const next = { ...values, [k]: v };
    setValues(next);
    if (touched) setErrors(check(next));
  };

  const submit = async () => {
    setTouched(true);
    const errs = check();
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      await save.mutateAsync({
        id: user?.id,
        form: {
          name: values.name.trim(),
          email: values.email.trim(),
          ...(values.password ? { password: values.password } : {}),
          profile,
          allTicket: allTicket ? "enabled" : "desabled",
          whatsappId,
          queueIds,
        },
      });
      toast.success(t("users.saved"));
      onClose();
    } catch (e) {
      reportSaveError(e, setErrors, (m) => toast.error(m), t);
    }
  };

  const err = (k: string) => (errors[k] ? (errors[k]!.startsWith("validation.") ? t(errors[k]!) : errors[k]) : undefined);

  return (
    <Dialog
      open={open}
      title={user ? t("users.editTitle") : t("users.addTitle")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isLoading={save.isPending}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      <Flex direction={{ base: "column", medium: "row" }} gap="1rem">
        <TextField
          flex="1"
          label={t("users.name")}
          name="name"
          value={values.name}
          onChange={(e) => set("name", e.target.value)}
          hasError={!!errors.name}
          errorMessage={err("name")}
          isRequired
        />
        <SelectField flex="1" label={t("users.profile")} name="profile" value={profile} onChange={(e) => setProfile(e.target.value as "admin" | "user")}>
          <option value="admin">{t("users.profiles.admin")}</option>
          <option value="user">{t("users.profiles.user")}</option>
        </SelectField>
      </Flex>
      <Flex direction={{ base: "column", medium: "row" }} gap="1rem">
        <TextField
          flex="1"
          label={t("users.email")}
          name="email"
          type="email"
          autoComplete="off"
          value={values.email}
          onChange={(e) => set("email", e.target.value)}
          hasError={!!errors.email}
          errorMessage={err("email")}
          isRequired
        />
        <PasswordField
          flex="1"
          label={t("users.password")}
          name="password"
          autoComplete="new-password"
          descriptiveText={user ? t("users.passwordEditHint") : undefined}
          value={values.password}
          onChange={(e) => set("password", e.target.value)}
          hasError={!!errors.password}
          errorMessage={err("password")}
          isRequired={!user}
          showPasswordButtonLabel={t("login.showPassword")}
          hidePasswordButtonLabel={t("login.hidePassword")}
        />
      </Flex>
      <fieldset className="fieldset">
        <legend>{t("users.queues")}</legend>
        {queues.data?.length ? (
          <Flex wrap="wrap" gap="0.25rem 1rem">
            {queues.data.map((q) => (
              <CheckboxField
                key={q.id}
                name="queueIds"
                value={String(q.id)}
                label={
                  <span className="queue-chip">
                    <span className="swatch" style={{ background: q.color }} aria-hidden="true" />
                    {q.name}
                  </span>
                }
                checked={queueIds.includes(q.id)}
                onChange={(e) => setQueueIds((ids) => (e.target.checked ? [...ids, q.id] : ids.filter((x) => x !== q.id)))}
              />
            ))}
          </Flex>
        ) : (
          <Text variation="secondary" fontSize="small">
            {t("users.noQueues")}
          </Text>
        )}
      </fieldset>
      {connections.isSuccess && Array.isArray(connections.data) && (
        <SelectField
          label={t("users.connection")}
          name="whatsappId"
          value={whatsappId === null ? "" : String(whatsappId)}
          onChange={(e) => setWhatsappId(e.target.value ? Number(e.target.value) : null)}
        >
          <option value="">{t("users.noConnection")}</option>
          {connections.data.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
      )}
      <SwitchField label={t("users.allTicket")} name="allTicket" isChecked={allTicket} onChange={(e) => setAllTicket(e.target.checked)} />
    </Dialog>
  );
}
