
import { Button, Card, Flex, Heading, Link as ALink, Text, TextField } from "@aws-amplify/ui-react";
import { PasswordField } from "../../ui/PasswordField.tsx";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import { call } from "../../api/operations.ts";
import { errorMessage } from "../../api/errors.ts";
import { setSession } from "../../api/session.ts";
import { features } from "../registry.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { LanguageSelect, ThemeToggle } from "../../layout/ShellTools.tsx";
import { loginLinks } from "./links.ts";
import { BrandLogo, useFavicon } from "../logos/Logo.tsx";

/** True when a feature registers the public page `path` (sign-up and password reset are not built yet). */
const hasPublicPage = (path: string) => features.some((f) => f.publicRoutes?.some((r) => r.path === path));

/** The platform's register settings, read only when a sign-up page exists (else no link depends on them). */
function useRegisterSettings(signupPage: boolean) {
  const read = (key: "viewregister" | "allowregister") => async () => (await call("GET /api/settings/{key}", { params: { key }, noSessionRule: true })).value;
  const view = useQuery({ queryKey: ["publicSetting", "viewregister"], queryFn: read("viewregister"), enabled: signupPage, staleTime: 60_000 });
  const allow = useQuery({ queryKey: ["publicSetting", "allowregister"], queryFn: read("allowregister"), enabled: signupPage, staleTime: 60_000 });
  return { viewregister: view.data, allowregister: allow.data };
}

export function LoginPage() {
  const pages = { forgetpsw: hasPublicPage("/forgetpsw"), signup: hasPublicPage("/signup") };
  const { forgot, signup } = loginLinks(pages, useRegisterSettings(pages.signup));
  const { t } = useTranslation();
  useFavicon();
  const toast = useToast();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const res = await call("POST /api/auth/login", { body: { email: email.trim(), password }, noSessionRule: true });
      setSession({ token: res.token, user: res.user });
      if (typeof res.dueDateWarningDays === "number") toast.warning(t("login.dueDateWarning", { count: res.dueDateWarningDays }), { durationMs: 6000 });
      navigate("/", { replace: true });
    } catch (e) {
      toast.error(errorMessage(e, t));
      setBusy(false);
    }
  };

  return (
    <div className="login-page">
      <Flex className="login-tools" gap="0.5rem" alignItems="center">
        <LanguageSelect />
        <ThemeToggle />
      </Flex>
      <Card variation="elevated" className="login-card">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Flex direction="column" gap="1rem">
            <div className="brand">
              <BrandLogo place="login" alt={t("app.name")} fallback={<><span className="brand-mark" aria-hidden="true">A</span> {t("app.name")}</>} />
            </div>
            <Heading level={1} className="login-title">
              {t("login.title")}
            </Heading>
            <Text variation="secondary">{t("login.subtitle")}</Text>
            <TextField
              label={t("login.email")}
              name="email"
              type="email"
              autoComplete="email"
              required
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <PasswordField
              label={t("login.password")}
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Button type="submit" variation="primary" isFullWidth isLoading={busy} loadingText={t("login.submitting")}>
              {t("login.submit")}
            </Button>
            {(forgot || signup) && (
              <Flex justifyContent="space-between" wrap="wrap" gap="0.5rem">
                {forgot && (
                  <ALink as={Link} to="/forgetpsw">
                    {t("login.forgot")}
                  </ALink>
                )}
                {signup && (
                  <ALink as={Link} to="/signup">
                    {t("login.signup")}
                  </ALink>
                )}
              </Flex>
            )}
          </Flex>
        </form>
      </Card>
    </div>
  );
}
