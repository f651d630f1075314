/**
 * Add/edit queue dialog (docs/product/queues.md) on the kit's form dialog,
 * in tabs:
 * - queue data: name required 2-50 ('Required', 'Too Short!', 'Too Long!'), colour required 3-9 and a valid CSS colour
 *   (text plus a colour picker), bot order, greeting and out-of-hours messages, prompt and integration selects (empty
 *   until prompts and integrations exist), and the queue's media (saved queues);
 * - weekly schedules, only when the setting `scheduleType` is `queue` (a first edit shows 'Clique em salvar para
 *   registar as alterações');
 * - the chatbot option tree (saved queues; each change is saved at once). Saving a new queue keeps the dialog open,
 *   now editing that queue, on this tab, so its options are added right away.
 * `ERR_QUEUE_NAME_ALREADY_EXISTS`, `ERR_QUEUE_COLOR_ALREADY_EXISTS`, `ERR_QUEUE_INVALID_COLOR` show as translated toasts
 * and under the name or colour field.
 */
import { Button, Flex, SelectField, Tabs, Text, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { fullWeek } from "@atende/shared/queues/schema";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "../../ui/Toast.tsx";
import { ColorField, FormDialog, HiddenFileInput, randomColor, rules, useAction } from "../../ui/kit/index.ts";
import { useSetting } from "../settings/api.ts";
import { useQueueMedia, useQueueMutations, useQueues } from "./api.ts";
import { OptionsEditor } from "./OptionsEditor.tsx";
import { SchedulesEditor } from "./SchedulesEditor.tsx";
import type { Queue, Schedule } from "./types.ts";
import { IntegrationOptions } from "../queueIntegrations/IntegrationOptions.tsx";

const { z } = rules;
const schema = z.object({
  name: rules.name(2, 50),
  color: rules.color(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  orderQueue: rules.numberText(null),
  schedules: z.array(z.custom<Schedule>()),
  promptId: z.string(),
  integrationId: z.string(),
});

/** The queue's schedules, Monday to Sunday, as the bot reads them (`fullWeek`: none = the defaults, a missing day closed). */
const weekOf = (q: Queue | null): Schedule[] => fullWeek(q?.schedules ?? []) as Schedule[];

export function QueueDialog({ open, queue: given, onClose }: { open: boolean; queue: Queue | null; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const { save } = useQueueMutations();
  const scheduleType = useSetting("scheduleType");
  const [tab, setTab] = useState("data");
  const [created, setCreated] = useState<Queue | null>(null);
  const hinted = useRef(false);
  useEffect(() => {
    if (!open) return;
    setTab("data");
    setCreated(null);
    hinted.current = false;
  }, [open]);
  // The queue being edited: the one opened, or the one this dialog has just created.
  const queue = given ?? created;
  const withSchedules = scheduleType === "queue";
  return (
    <FormDialog
      open={open}
      title={queue ? t("queues.editTitle") : t("queues.addTitle")}
      onClose={onClose}
      width="46rem"
      saveTestId="save-queue"
      schema={schema}
      codeFields={{ ERR_QUEUE_NAME_ALREADY_EXISTS: "name", ERR_QUEUE_COLOR_ALREADY_EXISTS: "color", ERR_QUEUE_INVALID_COLOR: "color" }}
      initial={() => ({
        name: queue?.name ?? "",
        color: queue?.color ?? randomColor(),
        greetingMessage: queue?.greetingMessage ?? "",
        outOfHoursMessage: queue?.outOfHoursMessage ?? "",
        orderQueue: queue?.orderQueue == null ? "" : String(queue.orderQueue),
        schedules: weekOf(queue),
        promptId: queue?.promptId == null ? "" : String(queue.promptId),
        integrationId: queue?.integrationId == null ? "" : String(queue.integrationId),
      })}
      onSubmit={(v) =>
        save.mutateAsync({
          id: queue?.id,
          form: {
            ...v,
            promptId: v.promptId === "" ? null : Number(v.promptId),
            integrationId: v.integrationId === "" ? null : Number(v.integrationId),
            // Schedules are sent only where they are edited (the queue scope), so other scopes keep what is stored.
            schedules: withSchedules ? v.schedules : (queue?.schedules ?? []),
          },
        })
      }
      successText={t("queues.saved")}
      stayOpen={!queue}
      onSaved={(saved) => {
        if (queue) return;
        setCreated(saved as Queue);
        setTab("options");
      }}
    >
      {(f) => {
        const data = (
          <Flex direction="column" gap="1rem" paddingTop="1rem">
            <TextField label={t("queues.name")} {...f.text("name")} isRequired />
            <Flex gap="1rem" alignItems="flex-start" direction={{ base: "column", medium: "row" }}>
              <Flex flex="1" direction="column" width="100%">
                <ColorField label={t("queues.color")} {...f.text("color")} onChange={(v) => f.set("color", v)} isRequired />
              </Flex>
              <TextField flex="1" width="100%" label={t("queues.orderQueue")} type="number" inputMode="numeric" {...f.text("orderQueue")} />
            </Flex>
            <TextAreaField label={t("queues.greetingMessage")} rows={3} {...f.text("greetingMessage")} />
            <TextAreaField label={t("queues.outOfHoursMessage")} rows={3} {...f.text("outOfHoursMessage")} />
            <Flex gap="1rem" direction={{ base: "column", medium: "row" }}>
              <SelectField flex="1" label={t("queues.prompt")} value={f.values.promptId} onChange={(e) => f.set("promptId", e.target.value)}>
                <option value="">{t("queues.none")}</option>
              </SelectField>
              <SelectField flex="1" label={t("queues.integration")} value={f.values.integrationId} onChange={(e) => f.set("integrationId", e.target.value)}>
                <IntegrationOptions />
              </SelectField>
            </Flex>
            {queue && <QueueMedia queueId={queue.id} />}
          </Flex>
        );
        const items = [{ value: "data", label: t("queues.tabData"), content: data }];
        if (withSchedules) {
          items.push({
            value: "schedules",
            label: t("queues.tabSchedules"),
            content: (
              <Flex direction="column" paddingTop="1rem">
                <SchedulesEditor
                  value={f.values.schedules}
                  onChange={(next) => {
                    f.set("schedules", next);
                    if (!hinted.current) {
                      hinted.current = true;
                      toast.info(t("queues.schedulesHint"));
                    }
                  }}
                />
              </Flex>
            ),
          });
        }
        items.push({
          value: "options",
          label: t("queues.tabOptions"),
          content: <Flex paddingTop="1rem" direction="column">{queue ? <OptionsEditor queueId={queue.id} /> : <Text>{t("queues.saveFirst")}</Text>}</Flex>,
        });
        // Composed by hand so the tab buttons are type="button": inside the dialog's form they must not submit it.
        return (
          <Tabs.Container value={tab} onValueChange={setTab} className="queue-tabs">
            <Tabs.List spacing="relative">
              {items.map((i) => (
                <Tabs.Item key={i.value} value={i.value} type="button">
                  {i.label}
                </Tabs.Item>
              ))}
            </Tabs.List>
            {items.map((i) => (
              <Tabs.Panel key={i.value} value={i.value}>
                {i.content}
              </Tabs.Panel>
            ))}
          </Tabs.Container>
        );
      }}
    </FormDialog>
  );
}

/** The saved queue's media: its file name with a remove button, or a file picker (uploaded at once). */
function QueueMedia({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  const queue = useQueues().data?.find((q) => q.id === queueId);
  const { upload, remove } = useQueueMedia();
  const fileRef = useRef<HTMLInputElement>(null);
  const { run } = useAction();
  return (
    <Flex alignItems="center" gap="0.75rem" wrap="wrap">
      <Text fontWeight="bold" fontSize="small">
        {t("queues.media")}
      </Text>
      {queue?.mediaName ? (
        <>
          <Text as="span" data-testid="queue-media-name">
            {queue.mediaName}
          </Text>
          <Button size="small" variation="link" onClick={() => void run(() => remove.mutateAsync(queueId))} isLoading={remove.isPending}>
            {t("queues.removeMedia")}
          </Button>
        </>
      ) : (
        <Button size="small" onClick={() => fileRef.current?.click()} isLoading={upload.isPending}>
          {t("queues.attach")}
        </Button>
      )}
      <HiddenFileInput inputRef={fileRef} onFiles={([file]) => void run(() => upload.mutateAsync({ id: queueId, file }), t("queues.mediaSaved"))} />
    </Flex>
  );
}
