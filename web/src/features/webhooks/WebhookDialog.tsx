/**
 * Add/edit webhook dialog on the kit's form dialog: name and URL (required, 'Obrigatório'), the events as checkboxes
 * (at least one), and Ativo/Inativo. A new webhook's secret is answered once: the page shows it right after the save.
 */
import { WEBHOOK_EVENTS } from "@atende/shared/webhooks/schema";
import { CheckboxField, Flex, SwitchField, Text, TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { CrudDialog, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { type Webhook, useWebhookMutations } from "./api.ts";

const { z } = rules;
const schema = z.object({
  name: z.string().trim().min(1, "webhooks.required"),
  url: z.string().trim().min(1, "webhooks.required"),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, "webhooks.eventsRequired"),
  enabled: z.boolean(),
});

/** The i18n key of an event type's label. */
export const eventLabelKey = (type: string) => `webhooks.event_${type.replace(".", "_")}`;

export function WebhookDialog(props: RecordDialogProps<Webhook> & { onCreated: () => void }) {
  const { record, onCreated, ...rest } = props;
  const { t } = useTranslation();
  const { save } = useWebhookMutations();
  return (
    <CrudDialog
      ns="webhooks"
      entity="webhook"
      record={record}
      {...rest}
      width="34rem"
      schema={schema}
      codeFields={{ ERR_WEBHOOK_URL_INVALID: "url" }}
      initial={() => ({ name: record?.name ?? "", url: record?.url ?? "", events: record?.events ?? [], enabled: record?.enabled ?? true })}
      onSubmit={async (form) => {
        const saved = await save.mutateAsync({ id: record?.id, form });
        if (!record) onCreated();
        return saved;
      }}
    >
      {(f) => (
        <>
          <TextField label={t("webhooks.name")} {...f.text("name")} isRequired data-testid="webhook-name" />
          <TextField label={t("webhooks.url")} descriptiveText={t("webhooks.urlHint")} type="url" inputMode="url" placeholder="https://" {...f.text("url")} isRequired data-testid="webhook-url" />
          <fieldset className="fieldset" aria-invalid={f.error("events") ? "true" : undefined} tabIndex={-1}>
            <legend>{t("webhooks.events")}</legend>
            <Flex direction="column" gap="0.25rem">
              {WEBHOOK_EVENTS.map((type) => (
                <CheckboxField
                  key={type}
                  name="events"
                  value={type}
                  label={t(eventLabelKey(type))}
                  checked={f.values.events.includes(type)}
                  onChange={(e) => f.set("events", e.target.checked ? [...f.values.events, type] : f.values.events.filter((x) => x !== type))}
                  data-testid={`webhook-event-${type}`}
                />
              ))}
            </Flex>
            {f.error("events") && (
              <Text variation="error" fontSize="small" role="alert" data-testid="webhook-events-error">
                {f.error("events")}
              </Text>
            )}
          </fieldset>
          <SwitchField label={t("webhooks.enabled")} name="enabled" isChecked={f.values.enabled} onChange={(e) => f.set("enabled", e.target.checked)} />
        </>
      )}
    </CrudDialog>
  );
}
