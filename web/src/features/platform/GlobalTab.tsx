/**
 * The super user's Global tab of /settings (docs/product/settings.md): sign-up allowed and visible and the trial
 * days (platform-wide), and the company's IXC, MK-AUTH and ASAAS credentials. A credential is never shown: the field
 * says whether one is set; a new value replaces it, Remover clears it.
 */
import { Button, Flex, Heading, PasswordField, SelectField, Text, TextField } from "@aws-amplify/ui-react";
import type { SettingKey } from "@atende/shared/settings/schema";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useToast } from "../../ui/Toast.tsx";
import { useSettings, useUpdateSetting } from "../settings/api.ts";

const CREDENTIALS: { key: SettingKey; secret: boolean }[] = [
  { key: "ipixc", secret: false },
  { key: "tokenixc", secret: true },
  { key: "ipmkauth", secret: false },
  { key: "clientidmkauth", secret: true },
  { key: "clientsecretmkauth", secret: true },
  { key: "asaas", secret: true },
];

export function GlobalTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const settings = useSettings();
  const update = useUpdateSetting();
  const [draft, setDraft] = useState<Partial<Record<SettingKey, string>>>({});
  const value = (k: SettingKey) => settings.data?.find((s) => s.key === k)?.value ?? "";
  const save = async (key: SettingKey, v: string) => {
    try {
      await update.mutateAsync({ key, value: v });
      setDraft((d) => ({ ...d, [key]: undefined }));
      toast.success(t("platform.saved"));
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
  };
  const select = (key: SettingKey, options: string[], label: (v: string) => string) => (
    <SelectField label={t(`platform.${key}`)} value={value(key)} onChange={(e) => void save(key, e.target.value)} data-testid={`global-${key}`}>
      {options.map((v) => (
        <option key={v} value={v}>
          {label(v)}
        </option>
      ))}
    </SelectField>
  );
  return (
    <Flex direction="column" gap="1.25rem" data-testid="settings-global">
      <Heading level={4}>{t("platform.signup")}</Heading>
      <div className="settings-grid">
        {select("allowregister", ["enabled", "disabled"], (v) => t(`platform.${v}`))}
        {select("viewregister", ["enabled", "disabled"], (v) => t(`platform.${v}`))}
        {select("trial", ["1", "2", "3", "4", "5", "6", "7"], (v) => t("platform.trialDays", { count: Number(v) }))}
      </div>
      <Heading level={4}>{t("platform.integrations")}</Heading>
      <div className="settings-grid">
        {CREDENTIALS.map(({ key, secret }) => {
          const set = value(key) !== "";
          const Field = secret ? PasswordField : TextField;
          const typed = draft[key] ?? "";
          return (
            <form
              key={key}
              onSubmit={(e) => {
                e.preventDefault();
                if (typed.trim()) void save(key, typed.trim());
              }}
            >
              <Field
                label={t(`platform.${key}`)}
                value={typed}
                autoComplete="off"
                placeholder={set ? "********" : ""}
                descriptiveText={<Text fontSize="small">{set ? t("platform.credentialSet") : t("platform.credentialUnset")}</Text>}
                onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                data-testid={`global-${key}`}
              />
              <Flex gap="0.5rem" marginTop="0.25rem">
                <Button size="small" type="submit" isDisabled={!typed.trim()}>
                  {t("platform.save")}
                </Button>
                {set && (
                  <Button size="small" variation="link" onClick={() => void save(key, "")}>
                    {t("platform.clear")}
                  </Button>
                )}
              </Flex>
            </form>
          );
        })}
      </div>
    </Flex>
  );
}
