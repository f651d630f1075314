/**
 * The account menu's profile edit (docs/product/users.md#passwords): the
 * logged-in user changes their own name (2-50) and, optionally, their password (5-50) through
 * `PUT /api/users/{id}` — the only fields a user may change about themselves. The greeting follows at once.
 */
import { Button, TextField } from "@aws-amplify/ui-react";
import { PasswordField } from "../ui/PasswordField.tsx";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { rotatingSession } from "../api/client.ts";
import { call } from "../api/operations.ts";
import { reportSaveError } from "../api/errors.ts";
import { setSession, updateSessionUser, useSession } from "../api/session.ts";
import { Dialog } from "../ui/Dialog.tsx";
import { useToast } from "../ui/Toast.tsx";
import { length, optional, required, validate } from "../ui/validation.ts";

type Fields = "name" | "password" | "oldPassword";
const rules = { name: [required, length(2, 50)], password: [optional(length(5, 50))], oldPassword: [optional(length(1, 200))] };

export function ProfileDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const session = useSession();
  const [values, setValues] = useState({ name: "", password: "", oldPassword: "" });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues({ name: session?.user.name ?? "", password: "", oldPassword: "" });
    setErrors({});
    setTouched(false);
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps

  const set = (k: Fields, v: string) => {
    const next = { ...values, [k]: v };
    setValues(next);
    if (touched) setErrors(validate<Fields>(next, rules));
  };
  const err = (k: Fields) => (errors[k] ? (errors[k]!.startsWith("validation.") ? t(errors[k]!) : errors[k]) : undefined);

  const submit = async () => {
    if (!session) return;
    setTouched(true);
    const errs = validate<Fields>(values, rules);
    // A new password needs the current one (the server checks it too).
    if (values.password && !values.oldPassword) errs.oldPassword = "validation.required";
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      const name = values.name.trim();
      const save = async () => {
        const res = await call("PUT /api/users/{id}", {
          params: { id: session.user.id },
          body: { name, ...(values.password ? { password: values.password, oldPassword: values.oldPassword } : {}) },
        });
        // A password change revokes the other sessions and hands this one new tokens.
        if (res?.token) setSession({ token: res.token, user: { ...session.user, name } });
        else updateSessionUser({ ...session.user, name });
      };
      // Requests this tab sends meanwhile (the socket's reconnect among them) wait for the new token, not log out.
      await (values.password ? rotatingSession(save) : save());
      toast.success(t("users.saved"));
      onClose();
    } catch (e) {
      reportSaveError(e, setErrors, (m) => toast.error(m), t);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={t("shell.profile")}
      onClose={onClose}
      onSubmit={submit}
      width="26rem"
      footer={
        <>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isLoading={busy}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      <TextField label={t("users.name")} value={values.name} onChange={(e) => set("name", e.target.value)} hasError={!!err("name")} errorMessage={err("name")} autoComplete="name" />
      <PasswordField
        label={t("users.password")}
        descriptiveText={t("users.passwordEditHint")}
        value={values.password}
        onChange={(e) => set("password", e.target.value)}
        hasError={!!err("password")}
        errorMessage={err("password")}
        autoComplete="new-password"
      />
      {values.password ? (
        <PasswordField
          label={t("users.currentPassword", "Senha atual")}
          value={values.oldPassword}
          onChange={(e) => set("oldPassword", e.target.value)}
          hasError={!!err("oldPassword")}
          errorMessage={err("oldPassword")}
          autoComplete="current-password"
        />
      ) : null}
    </Dialog>
  );
}
