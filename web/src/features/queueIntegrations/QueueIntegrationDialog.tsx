/**
 * Add/edit queue integration dialog (docs/product/integrations.md#fields) on the kit's form dialog: the type (a new
 * one is Typebot) and the fields of that type. Name 2-50 ('Required', 'Too Short!', 'Too Long!'); URL required for
 * n8n, webhook and typebot, slug for typebot, language and credentials for Dialogflow (with a "test session" button).
 * For n8n, webhook and typebot the project name is the name. The credentials (Dialogflow's JSON key, the n8n and
 * webhook signing secret) are answered only masked (docs/product/integrations.md#credentials): a saved one is kept
 * while its field stays blank; a new n8n or webhook integration proposes a random secret to copy before saving.
 */
import { Button, Flex, PasswordField, SelectField, TextAreaField, TextField } from "@aws-amplify/ui-react";
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
    jsonContentSaved: z.boolean(),
    language: z.string(),
    urlN8N: z.string().trim(),
    typebotSlug: z.string().trim(),
    typebotExpires: rules.numberText(),
    typebotDelayMessage: rules.numberText(),
    typebotKeywordFinish: z.string(),
    typebotKeywordRestart: z.string(),
    typebotUnknownMessage: z.string(),
    typebotRestartMessage: z.string(),
    webhookSecret: z.string().trim(),
  })
  .superRefine((v, ctx) => {
    const required = (path: string) => ctx.addIssue({ code: "custom", path: [path], message: "validation.required" });
    if (v.type !== "dialogflow" && !v.urlN8N) required("urlN8N");
    if (v.type === "typebot" && !v.typebotSlug) required("typebotSlug");
    if (v.type === "dialogflow") {
      if (!v.language) required("language");
      if (!v.projectName.trim()) required("projectName");
      if (!v.jsonContent.trim() && !v.jsonContentSaved) required("jsonContent");
    }
    if ((v.type === "n8n" || v.type === "webhook") && v.webhookSecret && v.webhookSecret.length < 16) ctx.addIssue({ code: "custom", path: ["webhookSecret"], message: "queueIntegrations.secretTooShort" });
  });

/** A random signing secret (32 bytes, hex), proposed for a new n8n or webhook integration. */
const randomSecret = () => Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");

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
        jsonContent: "",
        jsonContentSaved: !!it?.jsonContent,
        language: it?.language ?? "",
        urlN8N: it?.urlN8N ?? "",
        typebotSlug: it?.typebotSlug ?? "",
        typebotExpires: String(it?.typebotExpires ?? 1),
        typebotDelayMessage: String(it?.typebotDelayMessage ?? 1000),
        typebotKeywordFinish: it?.typebotKeywordFinish ?? "",
        typebotKeywordRestart: it?.typebotKeywordRestart ?? "",
        typebotUnknownMessage: it?.typebotUnknownMessage ?? "",
        typebotRestartMessage: it?.typebotRestartMessage ?? "",
        webhookSecret: it?.webhookSecret ? "" : randomSecret(),
      })}
      onSubmit={({ jsonContentSaved: _saved, jsonContent, webhookSecret, ...v }) =>
        save.mutateAsync({
          id: it?.id,
          form: {
            ...v,
            language: v.type === "dialogflow" ? (v.language as (typeof LANGUAGES)[number]) : "",
            projectName: v.type === "dialogflow" ? v.projectName.trim() : v.name,
            // A credential is replaced only when a new one is typed (blank keeps the saved one).
            ...(v.type === "dialogflow" && jsonContent.trim() ? { jsonContent } : {}),
            ...((v.type === "n8n" || v.type === "webhook") && webhookSecret ? { webhookSecret } : {}),
          },
        })
      }
    >
      {(f) => {
        const type = f.values.type;
        const test = async () => {
          setTesting(true);
          try {
            const typed = f.values.jsonContent.trim();
            const r = await testDialogflowSession({
              ...(typed ? { jsonContent: f.values.jsonContent } : { id: it?.id, jsonContent: it?.jsonContent ?? "" }),
              projectName: f.values.projectName,
              language: (f.values.language || "pt-BR") as (typeof LANGUAGES)[number],
            });
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
                <TextAreaField
                  label={t("queueIntegrations.jsonContent")}
                  rows={5}
                  {...f.text("jsonContent")}
                  isRequired={!it?.jsonContent}
                  descriptiveText={it?.jsonContent ? t("queueIntegrations.credentialKept", { mask: it.jsonContent }) : undefined}
                  data-testid="integration-json"
                />
                <Flex justifyContent="flex-end">
                  <Button size="small" onClick={test} isLoading={testing} isDisabled={!(f.values.jsonContent.trim() || it?.jsonContent) || !f.values.projectName.trim()}>
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
            {(type === "n8n" || type === "webhook") && (
              <PasswordField
                label={t("queueIntegrations.webhookSecret")}
                {...f.text("webhookSecret")}
                autoComplete="off"
                descriptiveText={it?.webhookSecret ? t("queueIntegrations.credentialKept", { mask: it.webhookSecret }) : t("queueIntegrations.secretHint")}
                data-testid="integration-secret"
              />
            )}
          </>
        );
      }}
    </CrudDialog>
  );
}
