/**
 * The card of a public account page (/signup, /forgetpsw): the login page's frame (language and theme choice, the
 * platform's logo of `logo`'s destination and its head icons) around one form submitted with Enter.
 */
import { Card, Flex } from "@aws-amplify/ui-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSelect, ThemeToggle } from "../../layout/ShellTools.tsx";
import { BrandLogo, useFavicon } from "../logos/Logo.tsx";

export function PublicFormCard({ onSubmit, logo, children }: { onSubmit: () => void; logo: "login" | "signup"; children: ReactNode }) {
  const { t } = useTranslation();
  useFavicon();
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
            onSubmit();
          }}
        >
          <Flex direction="column" gap="1rem">
            <div className="brand">
              <BrandLogo place={logo} alt={t("app.name")} fallback={<><span className="brand-mark" aria-hidden="true">A</span> {t("app.name")}</>} />
            </div>
            {children}
          </Flex>
        </form>
      </Card>
    </div>
  );
}
