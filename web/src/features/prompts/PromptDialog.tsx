/**
 * Add/edit prompt dialog (docs/product/prompts.md) on the kit's form dialog: name, the API key (hidden, with a
 * show/hide toggle; when editing it starts empty and the saved key shows masked: typing a new one replaces it), the
 * prompt (10 rows), the voice select (Texto or a Brazilian-Portuguese neural voice) with its key and region, the
 * temperature, max tokens, max messages, the sector (a queue: 'Informe o setor' without one, nothing sent), the model
 * and an optional OpenAI-compatible API URL.
 */
import { Flex, SelectField, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { PROMPT_DEFAULTS, PROMPT_VOICES } from "@atende/shared/prompts/schema";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { PasswordField } from "../../ui/PasswordField.tsx";
import { CrudDialog, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { useQueues } from "../queues/api.ts";
import { type Prompt, type PromptForm, usePromptMutations } from "./api.ts";

const { z } = rules;
const decimal = (min: number, max: number, int: boolean) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d+([.,]\d+)?$/.test(v) && (!int || /^\d+$/.test(v)), "prompts.invalidNumber")
    .transform((v) => Number(v.replace(",", ".")))
    .refine((n) => n >= min && n <= max, "prompts.invalidNumber");

/** The voice's display name: `pt-BR-FranciscaNeural` → Francisca. */
const voiceName = (v: string) => v.replace(/^pt-BR-/, "").replace(/Neural$/, "");

export function PromptDialog(props: RecordDialogProps<Prompt>) {
  const p = props.record;
  const { t } = useTranslation();
  const { save } = usePromptMutations();
  const queues = useQueues();
  const schema = useMemo(
    () =>
      z
        .object({
          name: z.string().trim().min(1, "prompts.required").max(100),
          apiKey: p ? z.string().trim() : z.string().trim().min(1, "prompts.required"),
          prompt: z.string().trim().min(1, "prompts.required"),
          voice: z.enum(PROMPT_VOICES),
          voiceKey: z.string().trim(),
          voiceRegion: z.string().trim(),
          temperature: decimal(0, 2, false),
          maxTokens: decimal(1, 4096, true),
          maxMessages: decimal(1, 50, true),
          queueId: z.string().min(1, "prompts.queueRequired"),
          model: z.string().trim().min(1, "prompts.required"),
          baseUrl: z.string().trim(),
        })
        .superRefine((v, ctx) => {
          if (v.voice === "texto") return;
          if (!v.voiceKey && !p?.voiceKey) ctx.addIssue({ code: "custom", path: ["voiceKey"], message: "prompts.required" });
          if (!v.voiceRegion) ctx.addIssue({ code: "custom", path: ["voiceRegion"], message: "prompts.required" });
        }),
    [p],
  );
  return (
    <CrudDialog
      ns="prompts"
      entity="prompt"
      {...props}
      width="40rem"
      schema={schema}
      initial={() => ({
        name: p?.name ?? "",
        apiKey: "",
        prompt: p?.prompt ?? "",
        voice: p?.voice ?? PROMPT_DEFAULTS.voice,
        voiceKey: "",
        voiceRegion: p?.voiceRegion ?? "",
        temperature: String(p?.temperature ?? PROMPT_DEFAULTS.temperature),
        maxTokens: String(p?.maxTokens ?? PROMPT_DEFAULTS.maxTokens),
        maxMessages: String(p?.maxMessages ?? PROMPT_DEFAULTS.maxMessages),
        queueId: p?.queueId ? String(p.queueId) : "",
        model: p?.model ?? PROMPT_DEFAULTS.model,
        baseUrl: p?.baseUrl ?? "",
      })}
      onSubmit={(v) => {
        const form: PromptForm = { ...v, queueId: Number(v.queueId) };
        // A key is replaced only when a new one is typed.
        if (!v.apiKey) delete form.apiKey;
        if (!v.voiceKey) delete form.voiceKey;
        return save.mutateAsync({ id: p?.id, form });
      }}
    >
      {(f) => (
        <>
          <TextField label={t("prompts.name")} {...f.text("name")} isRequired data-testid="prompt-name" />
          <PasswordField
            label={t("prompts.apiKey")}
            {...f.text("apiKey")}
            autoComplete="off"
            isRequired={!p}
            descriptiveText={p?.apiKey ? t("prompts.apiKeyKept", { mask: p.apiKey }) : undefined}
            data-testid="prompt-apikey"
          />
          <TextAreaField label={t("prompts.prompt")} rows={10} {...f.text("prompt")} descriptiveText={t("prompts.promptHint")} isRequired data-testid="prompt-text" />
          <SelectField label={t("prompts.queue")} {...f.text("queueId")} data-testid="prompt-queue">
            <option value="">{t("prompts.chooseQueue")}</option>
            {(queues.data ?? []).map((q) => (
              <option key={q.id} value={String(q.id)}>
                {q.name}
              </option>
            ))}
          </SelectField>
          <Flex gap="1rem" wrap="wrap">
            <TextField label={t("prompts.temperature")} {...f.text("temperature")} inputMode="decimal" width="8rem" />
            <TextField label={t("prompts.maxTokens")} {...f.text("maxTokens")} inputMode="numeric" width="10rem" />
            <TextField label={t("prompts.maxMessages")} {...f.text("maxMessages")} inputMode="numeric" width="10rem" />
          </Flex>
          <SelectField label={t("prompts.voice")} {...f.text("voice")} data-testid="prompt-voice">
            {PROMPT_VOICES.map((v) => (
              <option key={v} value={v}>
                {v === "texto" ? t("prompts.voiceText") : voiceName(v)}
              </option>
            ))}
          </SelectField>
          {f.values.voice !== "texto" && (
            <Flex gap="1rem" wrap="wrap">
              <PasswordField
                label={t("prompts.voiceKey")}
                {...f.text("voiceKey")}
                autoComplete="off"
                descriptiveText={p?.voiceKey ? t("prompts.apiKeyKept", { mask: p.voiceKey }) : undefined}
              />
              <TextField label={t("prompts.voiceRegion")} {...f.text("voiceRegion")} />
            </Flex>
          )}
          <Flex gap="1rem" wrap="wrap">
            <TextField label={t("prompts.model")} {...f.text("model")} width="12rem" />
            <TextField label={t("prompts.baseUrl")} {...f.text("baseUrl")} descriptiveText={t("prompts.baseUrlHint")} inputMode="url" data-testid="prompt-baseurl" />
          </Flex>
        </>
      )}
    </CrudDialog>
  );
}
