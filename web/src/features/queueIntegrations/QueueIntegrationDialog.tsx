/**
 * Add/edit queue integration dialog (docs/product/integrations.md#fields) on the kit's form dialog: the type (a new
 * one is Typebot) and the fields of that type. Name 2-50 ('Required', 'Too Short!', 'Too Long!'); URL required for
 * n8n, webhook and typebot, slug for typebot, language and credentials for Dialogflow (with a "test session" button).
 * For n8n, webhook and typebot the project name is the name. n8n and webhook show their signing secret (hidden, with
 * a toggle) once saved.
 */
import { Button, Flex, SelectField, Text, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useToast } from "../../ui/Toast.tsx";
import { CrudDialog, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { type Integration, testDialogflowSession, useIntegrationMutations } from "./api.ts";

const { z } = rules;
const TYPES = ["typebot", "n8n", "webhook", "dialogflow"] as const;
const LANGUAGES = ["pt-BR", "en", "es"] as const;

const schema = z
  .object({
    type: z.enum(TYPES),
    name: rules.name(2, 50),
    projectName: z.string(),
    jsonContent: z.string(),
    language: z.string(),
    urlN8N: z.string().trim(),
    typebotSlug: z.string().trim(),
    typebotExpires: rules.numberText(),
    typebotDelayMessage: rules.numberText(),
    typebotKeywordFinish: z.string(),
    typebotKeywordRestart: z.string(),
    typebotUnknownMessage: z.string(),
    typebotRestartMessage: z.string(),
  })
  .superRefine((v, ctx) => {
    const required = (path: string) => ctx.addIssue({ code: "custom", path: [path], message: "validation.required" });
    if (v.type !== "dialogflow" && !v.urlN8N) required("urlN8N");
    if (v.type === "typebot" && !v.typebotSlug) required("typebotSlug");
    if (v.type === "dialogflow") {
      if (!v.language) required("language");
      if (!v.projectName.trim()) required("projectName");
      if (!v.jsonContent.trim()) required("jsonContent");
    }
  });

function SecretField({ secret }: { secret: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Flex gap="0.5rem" alignItems="flex-end">
      <TextField
        flex="1"
        label={t("queueIntegrations.webhookSecret")}
        descriptiveText={t("queueIntegrations.secretHint")}
        value={shown ? secret : "•".repeat(24)}
        isReadOnly
        data-testid="integration-secret"
      />
      <Button size="small" onClick={() => setShown((s) => !s)} aria-label={t(shown ? "queueIntegrations.hideSecret" : "queueIntegrations.showSecret")}>
        {shown ? <EyeOff size={18} aria-hidden="true" /> : <Eye size={18} aria-hidden="true" />}
      </Button>
    </Flex>
  );
}

export function QueueIntegrationDialog(props: RecordDialogProps<Integration>) {
  const it = props.record;
  const { t } = useTranslation();
  const toast = useToast();
  const { save } = useIntegrationMutations();
  const [testing, setTesting] = useState(false);
  return (
    <CrudDialog
      ns="queueIntegrations"
      entity="integration"
      {...props}
      width="36rem"
      schema={schema}
      initial={() => ({
        type: it?.type ?? "typebot",
        name: it?.name ?? "",
        projectName: it?.projectName ?? "",
        jsonContent: it?.jsonContent ?? "",
        language: it?.language ?? "",
        urlN8N: it?.urlN8N ?? "",
        typebotSlug: it?.typebotSlug ?? "",
        typebotExpires: String(it?.typebotExpires ?? 1),
        typebotDelayMessage: String(it?.typebotDelayMessage ?? 1000),
        typebotKeywordFinish: it?.typebotKeywordFinish ?? "",
        typebotKeywordRestart: it?.typebotKeywordRestart ?? "",
        typebotUnknownMessage: it?.typebotUnknownMessage ?? "",
        typebotRestartMessage: it?.typebotRestartMessage ?? "",
      })}
      onSubmit={(v) =>
        save.mutateAsync({
          id: it?.id,
          form: {
            ...v,
            language: v.type === "dialogflow" ? (v.language as (typeof LANGUAGES)[number]) : "",
            projectName: v.type === "dialogflow" ? v.projectName.trim() : v.name,
          },
        })
      }
    >
      {(f) => {
        const type = f.values.type;
        const test = async () => {
          setTesting(true);
          try {
            const r = await testDialogflowSession({ projectName: f.values.projectName, jsonContent: f.values.jsonContent, language: (f.values.language || "pt-BR") as (typeof LANGUAGES)[number] });
            toast.success(t("queueIntegrations.testOk", { reply: r.replies[0] ?? "—" }));
          } catch (err) {
            toast.error(errorMessage(err, t));
          } finally {
            setTesting(false);
          }
        };
        return (
          <>
            <SelectField label={t("queueIntegrations.type")} value={type} onChange={(e) => f.set("type", e.target.value as (typeof TYPES)[number])} isRequired data-testid="integration-type-select">
              {TYPES.map((x) => (
                <option key={x} value={x}>
                  {t(`queueIntegrations.types.${x}`)}
                </option>
              ))}
            </SelectField>
            <TextField label={t("queueIntegrations.name")} {...f.text("name")} isRequired />
            {type === "dialogflow" ? (
              <>
                <Flex gap="1rem" direction={{ base: "column", medium: "row" }}>
                  <TextField flex="1" label={t("queueIntegrations.projectName")} {...f.text("projectName")} isRequired />
                  <SelectField
                    flex="1"
                    label={t("queueIntegrations.language")}
                    value={f.values.language}
                    onChange={(e) => f.set("language", e.target.value)}
                    hasError={!!f.error("language")}
                    errorMessage={f.error("language")}
                    isRequired
                  >
                    <option value="">—</option>
                    {LANGUAGES.map((l) => (
                      <option key={l} value={l}>
                        {t(`queueIntegrations.languages.${l}`)}
                      </option>
                    ))}
                  </SelectField>
                </Flex>
                <TextAreaField label={t("queueIntegrations.jsonContent")} rows={5} {...f.text("jsonContent")} isRequired />
                <Flex justifyContent="flex-end">
                  <Button size="small" onClick={test} isLoading={testing} isDisabled={!f.values.jsonContent.trim() || !f.values.projectName.trim()}>
                    {t("queueIntegrations.test")}
                  </Button>
                </Flex>
              </>
            ) : (
              <TextField label={t(type === "typebot" ? "queueIntegrations.typebotUrl" : "queueIntegrations.urlN8N")} type="url" inputMode="url" {...f.text("urlN8N")} isRequired />
            )}
            {type === "typebot" && (
              <>
                <TextField label={t("queueIntegrations.typebotSlug")} {...f.text("typebotSlug")} isRequired />
                <Flex gap="1rem" direction={{ base: "column", medium: "row" }}>
                  <TextField flex="1" inputMode="numeric" label={t("queueIntegrations.typebotExpires")} {...f.text("typebotExpires")} />
                  <TextField flex="1" inputMode="numeric" label={t("queueIntegrations.typebotDelayMessage")} {...f.text("typebotDelayMessage")} />
                </Flex>
                <Flex gap="1rem" direction={{ base: "column", medium: "row" }}>
                  <TextField flex="1" label={t("queueIntegrations.typebotKeywordFinish")} {...f.text("typebotKeywordFinish")} />
                  <TextField flex="1" label={t("queueIntegrations.typebotKeywordRestart")} {...f.text("typebotKeywordRestart")} />
                </Flex>
                <TextAreaField label={t("queueIntegrations.typebotUnknownMessage")} rows={2} {...f.text("typebotUnknownMessage")} />
                <TextAreaField label={t("queueIntegrations.typebotRestartMessage")} rows={2} {...f.text("typebotRestartMessage")} />
              </>
            )}
            {(type === "n8n" || type === "webhook") &&
              (it?.webhookSecret ? <SecretField secret={it.webhookSecret} /> : <Text fontSize="small">{t("queueIntegrations.secretHint")}</Text>)}
          </>
        );
      }}
    </CrudDialog>
  );
}
