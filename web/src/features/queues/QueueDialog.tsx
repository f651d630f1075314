/**
 * Add/edit queue dialog (administration.md §2 Queues, §5) on the kit's form dialog: name required 2-50 ('Required',
 * 'Too Short!', 'Too Long!'), colour required 3-9 and a valid CSS colour (text plus a colour picker; issue 10 §4),
 * greeting message, bot order. `ERR_QUEUE_COLOR_ALREADY_EXISTS` and other codes show as translated toasts.
 */
import { TextAreaField, TextField, Flex } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { ColorField, FormDialog, randomColor, rules } from "../../ui/kit/index.ts";
import { useQueueMutations } from "./api.ts";
import type { Queue } from "./types.ts";

const { z } = rules;
const schema = z.object({
  name: rules.name(2, 50),
  color: rules.color(),
  greetingMessage: z.string(),
  orderQueue: z.string().refine((v) => v === "" || /^\d+$/.test(v), "validation.invalidNumber"),
});

export function QueueDialog({ open, queue, onClose }: { open: boolean; queue: Queue | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { save } = useQueueMutations();
  return (
    <FormDialog
      open={open}
      title={queue ? t("queues.editTitle") : t("queues.addTitle")}
      onClose={onClose}
      schema={schema}
      initial={() => ({
        name: queue?.name ?? "",
        color: queue?.color ?? randomColor(),
        greetingMessage: queue?.greetingMessage ?? "",
        orderQueue: queue?.orderQueue == null ? "" : String(queue.orderQueue),
      })}
      onSubmit={(v) => save.mutateAsync({ id: queue?.id, form: { ...v, orderQueue: v.orderQueue === "" ? null : Number(v.orderQueue) } })}
      successText={t("queues.saved")}
    >
      {(f) => (
        <>
          <TextField label={t("queues.name")} {...f.text("name")} isRequired />
          <Flex gap="1rem" alignItems="flex-start" direction={{ base: "column", medium: "row" }}>
            <Flex flex="1" direction="column" width="100%">
              <ColorField label={t("queues.color")} {...f.text("color")} onChange={(v) => f.set("color", v)} isRequired />
            </Flex>
            <TextField flex="1" label={t("queues.orderQueue")} type="number" inputMode="numeric" {...f.text("orderQueue")} />
          </Flex>
          <TextAreaField label={t("queues.greetingMessage")} rows={4} {...f.text("greetingMessage")} />
        </>
      )}
    </FormDialog>
  );
}
