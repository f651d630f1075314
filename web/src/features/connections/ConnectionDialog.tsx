/**
 * Add/edit connection dialog (docs/product/connections.md#fields: name required, 2 to 50) on
 * the kit's form dialog: name, default flag, queues, greeting/completion/out-of-hours/rating/inactivity messages, the API
 * token (the server's: shown with copy and regenerate, `ConnectionToken`), minutes to close open chats (expiresTicket),
 * minutes to transfer and the target queue, bot queue time and max
 * uses, and the minutes a rating is awaited. An empty name (or a missing greeting with more than one queue, `ERR_WAPP_GREETING_REQUIRED` under the field)
 * focuses and scrolls to the field. The server's `ERR_WAPP_GREETING_REQUIRED`,
 * `ERR_NO_OTHER_WHATSAPP` and others show as translated toasts.
 */
import { Flex, SelectField, SwitchField, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { CrudDialog, type RecordDialogProps, rules } from "../../ui/kit/index.ts";
import { useQueues } from "../queues/api.ts";
import { QueueChecklist } from "../queues/QueueChecklist.tsx";
import { useWhatsappMutations, type Whatsapp } from "./api.ts";
import { ConnectionToken } from "./ConnectionToken.tsx";
import { IntegrationOptions } from "../queueIntegrations/IntegrationOptions.tsx";

const TEXTS = ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage", "expiresInactiveMessage"] as const;
const NUMS = ["expiresTicket", "timeToTransfer", "timeUseBotQueues", "maxUseBotQueues", "ratingWaitMinutes"] as const;

const { z } = rules;
const schema = z.object({
  name: rules.name(2, 50),
  isDefault: z.boolean(),
  queueIds: z.array(z.number()),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  expiresInactiveMessage: z.string(),
  provider: z.string(),
  expiresTicket: rules.numberText(),
  timeToTransfer: rules.numberText(),
  timeUseBotQueues: rules.numberText(),
  maxUseBotQueues: rules.numberText(),
  ratingWaitMinutes: rules.numberText().refine((v) => v >= 1, "validation.invalidNumber"),
  transferQueueId: z.number().nullable(),
  integrationId: z.number().nullable(),
}).superRefine((v, ctx) => {
  // A connection with more than one queue needs a greeting (the bot's menu opens with it).
  if (v.queueIds.length > 1 && !v.greetingMessage.trim()) ctx.addIssue({ code: "custom", path: ["greetingMessage"], message: "errors.ERR_WAPP_GREETING_REQUIRED" });
});

export function ConnectionDialog(props: RecordDialogProps<Whatsapp>) {
  const w = props.record;
  const { t } = useTranslation();
  const queues = useQueues();
  const { save } = useWhatsappMutations();
  return (
    <CrudDialog
      ns="connections"
      entity="connection"
      {...props}
      width="40rem"
      schema={schema}
      initial={() => ({
        name: w?.name ?? "",
        isDefault: w?.isDefault ?? false,
        queueIds: w?.queueIds ?? [],
        greetingMessage: w?.greetingMessage ?? "",
        complationMessage: w?.complationMessage ?? "",
        outOfHoursMessage: w?.outOfHoursMessage ?? "",
        ratingMessage: w?.ratingMessage ?? "",
        expiresInactiveMessage: w?.expiresInactiveMessage ?? "",
        provider: w?.provider ?? "beta",
        expiresTicket: String(w?.expiresTicket ?? 0),
        timeToTransfer: String(w?.timeToTransfer ?? 0),
        timeUseBotQueues: String(w?.timeUseBotQueues ?? 0),
        maxUseBotQueues: String(w?.maxUseBotQueues ?? 3),
        ratingWaitMinutes: String(w?.ratingWaitMinutes ?? 1440),
        transferQueueId: w?.transferQueueId ?? null,
        integrationId: w?.integrationId ?? null,
      })}
      onSubmit={(form) => save.mutateAsync({ id: w?.id, form })}
    >
      {(f) => (
        <>
          <Flex gap="1rem" alignItems="flex-end" wrap="wrap">
            <TextField flex="1 1 14rem" label={t("connections.name")} {...f.text("name")} isRequired />
            <SwitchField label={t("connections.default")} isChecked={f.values.isDefault} onChange={(e) => f.set("isDefault", e.target.checked)} />
          </Flex>
          <QueueChecklist legend={t("connections.queues")} emptyText={t("connections.noQueues")} value={f.values.queueIds} onChange={(ids) => f.set("queueIds", ids)} />
          {TEXTS.map((k) => (
            <TextAreaField key={k} label={t(`connections.${k}`)} rows={2} {...f.text(k)} />
          ))}
          <ConnectionToken whatsappId={w?.id} />
          <Flex gap="1rem" wrap="wrap" alignItems="flex-end">
            {NUMS.map((k) => (
              <TextField key={k} flex="1 1 10rem" inputMode="numeric" label={t(`connections.${k}`)} {...f.text(k)} />
            ))}
          </Flex>
          <SelectField
            label={t("connections.transferQueueId")}
            value={f.values.transferQueueId ? String(f.values.transferQueueId) : ""}
            onChange={(e) => f.set("transferQueueId", e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">—</option>
            {(queues.data ?? []).map((q) => (
              <option key={q.id} value={q.id}>
                {q.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t("connections.integrationId")}
            value={f.values.integrationId ? String(f.values.integrationId) : ""}
            onChange={(e) => f.set("integrationId", e.target.value ? Number(e.target.value) : null)}
            data-testid="connection-integration"
          >
            <IntegrationOptions />
          </SelectField>
        </>
      )}
    </CrudDialog>
  );
}
