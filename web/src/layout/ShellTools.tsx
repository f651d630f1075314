/**
 * The language switch and the light/dark toggle, shown on the login page and in the app's top bar.
 * `short` shows language codes instead of names (narrow top bar).
 */
import { Button, SelectField } from "@aws-amplify/ui-react";
import { Moon, Sun } from "lucide-react";
import { useTranslation } from "react-i18next";
import { LANGUAGES, setLanguage, type Language } from "../i18n/index.ts";
import { useColorMode } from "../ui/theme.tsx";

export function LanguageSelect({ short = false }: { short?: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <SelectField label={t("shell.language")} labelHidden size="small" value={i18n.language} onChange={(e) => setLanguage(e.target.value as Language)} data-testid="language-select">
      {LANGUAGES.map((l) => (
        <option key={l} value={l}>
          {short ? l.toUpperCase() : t(`languages.${l}`)}
        </option>
      ))}
    </SelectField>
  );
}

export function ThemeToggle() {
  const { t } = useTranslation();
  const { mode, toggle } = useColorMode();
  const label = mode === "dark" ? t("shell.themeToLight") : t("shell.themeToDark");
  return (
    <Button variation="link" className="icon-button" onClick={toggle} aria-label={label} title={label}>
      {mode === "dark" ? <Sun size={18} aria-hidden="true" /> : <Moon size={18} aria-hidden="true" />}
    </Button>
  );
}
