/**
 * /forgetpsw (docs/product/companies.md#password-reset): an email and 'Enviar Email'; after the request the form
 * switches to the reset mode (verification code, new password, confirmation, each password with show/hide) and
 * 'Redefinir Senha'; success goes to /login. The rules are checked here and again by the server.
 */
import { Button, Flex, Heading, Link as ALink, TextField } from "@aws-amplify/ui-react";
import { StrongPassword } from "@atende/shared/auth/reset-schema";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import { call } from "../../api/operations.ts";
import { errorMessage } from "../../api/errors.ts";
import { PasswordField } from "../../ui/PasswordField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { PublicFormCard } from "./PublicFormCard.tsx";

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [token, setToken] = useState("");
  const [pw, setPw] = useState("");
  const [pw2, setPw2] = useState("");
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const pwError = !pw ? t("account.required") : StrongPassword.safeParse(pw).success ? undefined : t("account.rule");
  const pw2Error = !pw2 ? t("account.required") : pw2 !== pw ? t("account.mismatch") : undefined;

  const submit = async () => {
    if (busy) return;
    if (sent) {
      setTried(true);
      if (pwError || pw2Error || !token.trim()) return;
    }
    setBusy(true);
    try {
      if (!sent) {
        await call("POST /api/auth/forgot-password", { body: { email: email.trim() }, noSessionRule: true });
        toast.success(t("account.emailSent"));
        setSent(true);
      } else {
        await call("POST /api/auth/reset-password", { body: { email: email.trim(), token: token.trim(), newPassword: pw, confirmPassword: pw2 }, noSessionRule: true });
        toast.success(t("account.resetDone"));
        navigate("/login", { replace: true });
      }
    } catch (e) {
      toast.error(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicFormCard onSubmit={() => void submit()} logo="login">
            <Heading level={1} className="login-title">
              {t("account.forgotTitle")}
            </Heading>
            <TextField label={t("account.email")} name="email" type="email" autoComplete="email" required autoFocus isDisabled={sent} value={email} onChange={(e) => setEmail(e.target.value)} />
            {sent && (
              <>
                <TextField label={t("account.code")} name="token" inputMode="numeric" autoComplete="one-time-code" required value={token} onChange={(e) => setToken(e.target.value)} />
                <PasswordField label={t("account.newPassword")} name="newPassword" autoComplete="new-password" required value={pw} onChange={(e) => setPw(e.target.value)} hasError={tried && !!pwError} errorMessage={pwError} />
                <PasswordField label={t("account.confirmPassword")} name="confirmPassword" autoComplete="new-password" required value={pw2} onChange={(e) => setPw2(e.target.value)} hasError={tried && !!pw2Error} errorMessage={pw2Error} />
              </>
            )}
            <Button type="submit" variation="primary" isFullWidth isLoading={busy}>
              {sent ? t("account.reset") : t("account.sendEmail")}
            </Button>
            <Flex justifyContent="space-between" wrap="wrap" gap="0.5rem">
              <ALink as={Link} to="/login">
                {t("account.toLogin")}
              </ALink>
              <ALink as={Link} to="/signup">
                {t("account.toSignup")}
              </ALink>
            </Flex>
    </PublicFormCard>
  );
}
