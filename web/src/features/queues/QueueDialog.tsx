/**
 * Add/edit queue dialog (administration.md §2 Queues, §5): name required 2-50 ('Required', 'Too Short!',
 * 'Too Long!'), colour required 3-9 (a colour picker plus its hex text), greeting message, bot order.
 * `ERR_QUEUE_COLOR_ALREADY_EXISTS` and other codes show as translated toasts.
 */
import { Button, Flex, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { reportSaveError } from "../../api/errors.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { length, required, validate } from "../../ui/validation.ts";
import { useSaveQueue } from "./api.ts";
import type { Queue } from "./types.ts";

type Fields = "name" | "color" | "greetingMessage" | "orderQueue";

/** A random, readable colour for a new queue. */
function randomColor(): string {
  const h = Math.floor(Math.random() * 360);
  const s = 0.55;
  const l = 0.45;
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255).toString(16).padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

export function QueueDialog({ open, queue, onClose }: { open: boolean; queue: Queue | null; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveQueue();
  const [values, setValues] = useState<Record<Fields, string>>({ name: "", color: "", greetingMessage: "", orderQueue: "" });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues({
      name: queue?.name ?? "",
      color: queue?.color ?? randomColor(),
      greetingMessage: queue?.greetingMessage ?? "",
      orderQueue: queue?.orderQueue == null ? "" : String(queue.orderQueue),
    });
    setErrors({});
    setTouched(false);
  }, [open, queue]);

  const rules = { name: [required, length(2, 50)], color: [required, length(3, 9)] };
  const set = (k: Fields, v: string) => {
    const next = { ...values, [k]: v };
    setValues(next);
    if (touched) setErrors(validate<Fields>(next, rules));
  };
  const err = (k: string) => (errors[k] ? (errors[k]!.startsWith("validation.") ? t(errors[k]!) : errors[k]) : undefined);

  const submit = async () => {
    setTouched(true);
    const errs = validate<Fields>(values, rules);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      await save.mutateAsync({
        id: queue?.id,
        form: {
          name: values.name.trim(),
          color: values.color.trim(),
          greetingMessage: values.greetingMessage,
          orderQueue: values.orderQueue === "" ? null : Number(values.orderQueue),
        },
      });
      toast.success(t("queues.saved"));
      onClose();
    } catch (e) {
      reportSaveError(e, setErrors, (m) => toast.error(m), t);
    }
  };

  const hex = /^#[0-9a-fA-F]{6}$/.test(values.color) ? values.color : "#000000";
  return (
    <Dialog
      open={open}
      title={queue ? t("queues.editTitle") : t("queues.addTitle")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isLoading={save.isPending}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      <TextField
        label={t("queues.name")}
        name="name"
        value={values.name}
        onChange={(e) => set("name", e.target.value)}
        hasError={!!errors.name}
        errorMessage={err("name")}
        isRequired
      />
      <Flex gap="1rem" alignItems="flex-start" direction={{ base: "column", medium: "row" }}>
        <Flex gap="0.5rem" alignItems="flex-end" flex="1">
          <TextField
            flex="1"
            label={t("queues.color")}
            name="color"
            value={values.color}
            onChange={(e) => set("color", e.target.value)}
            hasError={!!errors.color}
            errorMessage={err("color")}
            isRequired
          />
          <input
            type="color"
            className="color-input"
            aria-label={t("queues.color")}
            value={hex}
            onChange={(e) => set("color", e.target.value)}
          />
        </Flex>
        <TextField
          flex="1"
          label={t("queues.orderQueue")}
          name="orderQueue"
          type="number"
          inputMode="numeric"
          value={values.orderQueue}
          onChange={(e) => set("orderQueue", e.target.value)}
          hasError={!!errors.orderQueue}
          errorMessage={err("orderQueue")}
        />
      </Flex>
      <TextAreaField
        label={t("queues.greetingMessage")}
        name="greetingMessage"
        rows={4}
        value={values.greetingMessage}
        onChange={(e) => set("greetingMessage", e.target.value)}
        hasError={!!errors.greetingMessage}
        errorMessage={err("greetingMessage")}
      />
    </Dialog>
  );
}
