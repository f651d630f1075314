/**
 * /campaigns-config: the campaign settings. messageInterval (0, 5, 10, 15, 20 s), longerIntervalAfter and
 * greaterInterval (0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120), and the variables `{key}` the messages may use: a
 * variable whose key already exists is not added. Saved with 'Configurações salvas'.
 */
import { LONGER_OPTIONS, MESSAGE_INTERVALS } from "@atende/shared/campaigns/schema";
import { Button, Card, Flex, Heading, Loader, SelectField, TextField } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { IconAction, useAction } from "../../ui/kit/index.ts";
import { campaignKeys, type CampaignSettings, saveCampaignSettings, useCampaignSettings } from "./api.ts";

export function CampaignSettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const stored = useCampaignSettings();
  const [form, setForm] = useState<CampaignSettings | null>(null);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [dup, setDup] = useState(false);
  const { run, busy } = useAction();
  useEffect(() => {
    if (stored.data && !form) setForm(stored.data);
  }, [stored.data, form]);
  if (!form) return <Loader />;
  const num = (k: "messageInterval" | "longerIntervalAfter" | "greaterInterval", opts: readonly number[]) => (
    <SelectField label={t(`campaigns.${k}`)} value={String(form[k])} onChange={(e) => setForm({ ...form, [k]: Number(e.target.value) })} data-testid={`campaign-settings-${k}`}>
      {opts.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </SelectField>
  );
  const addVariable = () => {
    const k = key.trim();
    if (!k) return;
    if (form.variables.some((v) => v.key === k)) {
      setDup(true);
      return;
    }
    setForm({ ...form, variables: [...form.variables, { key: k, value }] });
    setKey("");
    setValue("");
    setDup(false);
  };
  const save = () =>
    void run(async () => {
      const saved = await saveCampaignSettings(form);
      qc.setQueryData(campaignKeys.settings, saved);
      setForm(saved);
    }, t("campaigns.settingsSaved"));
  return (
    <section className="page" aria-label={t("campaigns.settings")}>
      <Flex className="page-header" alignItems="center" gap="0.75rem" wrap="wrap">
        <Button size="small" onClick={() => navigate("/campaigns")}>
          ← {t("campaigns.back")}
        </Button>
        <Heading level={2}>{t("campaigns.settings")}</Heading>
      </Flex>
      <div className="page-body">
      <Card variation="outlined">
        <Flex direction={{ base: "column", medium: "row" }} gap="1rem">
          {num("messageInterval", MESSAGE_INTERVALS)}
          {num("longerIntervalAfter", LONGER_OPTIONS)}
          {num("greaterInterval", LONGER_OPTIONS)}
        </Flex>
      </Card>
      <Card variation="outlined">
        <Heading level={5}>{t("campaigns.variables")}</Heading>
        <Flex direction={{ base: "column", medium: "row" }} gap="0.5rem" alignItems={{ medium: "flex-end" }}>
          <TextField label={t("campaigns.variableKey")} value={key} onChange={(e) => setKey(e.target.value)} hasError={dup} errorMessage={t("campaigns.duplicateKey")} data-testid="campaign-variable-key" />
          <TextField label={t("campaigns.variableValue")} value={value} onChange={(e) => setValue(e.target.value)} data-testid="campaign-variable-value" />
          <Button size="small" onClick={addVariable} data-testid="campaign-variable-add">
            {t("campaigns.addVariable")}
          </Button>
        </Flex>
        {form.variables.length === 0 ? (
          <p>{t("campaigns.noVariables")}</p>
        ) : (
          <ul data-testid="campaign-variables">
            {form.variables.map((v) => (
              <li key={v.key}>
                <code>{`{${v.key}}`}</code> = {v.value}{" "}
                <IconAction label={`${t("common.delete")}: ${v.key}`} danger onClick={() => setForm({ ...form, variables: form.variables.filter((x) => x.key !== v.key) })}>
                  ✕
                </IconAction>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Button variation="primary" alignSelf="flex-start" onClick={save} isLoading={busy} data-testid="campaign-settings-save">
        {t("campaigns.save")}
      </Button>
      </div>
    </section>
  );
}
