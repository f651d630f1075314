/**
 * Add/edit connection dialog (attendance.md §3 Whatsapp connection, §5 "Connection form: name required, 2 to 50"):
 * name, default flag, queues, greeting/completion/out-of-hours/rating/inactivity messages, API token, minutes to
 * close open chats (expiresTicket), minutes to transfer and the target queue, bot queue time and max uses.
 * `ERR_WAPP_GREETING_REQUIRED`, `ERR_NO_OTHER_WHATSAPP` and others show as translated toasts.
 */
import { Button, CheckboxField, Flex, SwitchField, TextAreaField, TextField, SelectField } from "@aws-amplify/ui-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { reportSaveError } from "../../api/errors.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { length, required, validate } from "../../ui/validation.ts";
import { useQueues } from "../queues/api.ts";
import { useSaveWhatsapp, type Whatsapp, type WhatsappForm } from "./api.ts";

const TEXTS = ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage", "expiresInactiveMessage"] as const;
const NUMS = ["expiresTicket", "timeToTransfer", "timeUseBotQueues", "maxUseBotQueues"] as const;

function blank(w: Whatsapp | null): WhatsappForm {
  return {
    name: w?.name ?? "",
    isDefault: w?.isDefault ?? false,
    queueIds: w?.queueIds ?? [],
    greetingMessage: w?.greetingMessage ?? "",
    complationMessage: w?.complationMessage ?? "",
    outOfHoursMessage: w?.outOfHoursMessage ?? "",
    ratingMessage: w?.ratingMessage ?? "",
    token: w?.token ?? "",
    provider: w?.provider ?? "beta",
    expiresInactiveMessage: w?.expiresInactiveMessage ?? "",
    expiresTicket: w?.expiresTicket ?? 0,
    timeToTransfer: w?.timeToTransfer ?? 0,
    timeUseBotQueues: w?.timeUseBotQueues ?? 0,
    maxUseBotQueues: w?.maxUseBotQueues ?? 3,
    transferQueueId: w?.transferQueueId ?? null,
  };
}

export function ConnectionDialog({ open, whatsapp, onClose }: { open: boolean; whatsapp: Whatsapp | null; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const queues = useQueues();
  const save = useSaveWhatsapp();
  const [f, setF] = useState<WhatsappForm>(blank(null));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  useEffect(() => {
    if (open) {
      setF(blank(whatsapp));
      setErrors({});
    }
  }, [open, whatsapp]);
  const err = (k: string) => (errors[k] ? (errors[k]!.startsWith("validation.") ? t(errors[k]!) : errors[k]) : undefined);
  const submit = async () => {
    const errs: Record<string, string | undefined> = validate<"name">({ name: f.name }, { name: [required, length(2, 50)] });
    for (const k of NUMS) if (!Number.isInteger(f[k]) || f[k] < 0) errs[k] = "validation.invalidNumber";
    setErrors(errs);
    if (Object.values(errs).some(Boolean)) return;
    try {
      await save.mutateAsync({ id: whatsapp?.id, form: { ...f, name: f.name.trim(), token: f.token.trim() } });
      toast.success(t("connections.saved"));
      onClose();
    } catch (e) {
      reportSaveError(e, setErrors, (m) => toast.error(m), t);
    }
  };
  return (
    <Dialog
      open={open}
      title={whatsapp ? t("connections.editTitle") : t("connections.addTitle")}
      onClose={onClose}
      onSubmit={submit}
      width="40rem"
      footer={
        <>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isLoading={save.isPending} data-testid="save-connection">
            {t("common.save")}
          </Button>
        </>
      }
    >
      <Flex gap="1rem" alignItems="flex-end" wrap="wrap">
        <TextField flex="1 1 14rem" label={t("connections.name")} name="name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} hasError={!!errors.name} errorMessage={err("name")} isRequired />
        <SwitchField label={t("connections.default")} isChecked={f.isDefault} onChange={(e) => setF({ ...f, isDefault: e.target.checked })} />
      </Flex>
      <fieldset className="fieldset">
        <legend>{t("connections.queues")}</legend>
        <Flex wrap="wrap" gap="0.75rem">
          {(queues.data ?? []).length === 0 && <span className="sub-line">{t("connections.noQueues")}</span>}
          {(queues.data ?? []).map((q) => (
            <CheckboxField
              key={q.id}
              name="queueIds"
              value={String(q.id)}
              label={
                <span className="queue-chip">
                  <span className="swatch" style={{ background: q.color }} aria-hidden="true" />
                  {q.name}
                </span>
              }
              checked={f.queueIds.includes(q.id)}
              onChange={(e) => setF({ ...f, queueIds: e.target.checked ? [...f.queueIds, q.id] : f.queueIds.filter((x) => x !== q.id) })}
            />
          ))}
        </Flex>
      </fieldset>
      {TEXTS.map((k) => (
        <TextAreaField key={k} label={t(`connections.${k}`)} name={k} rows={2} value={f[k]} onChange={(e) => setF({ ...f, [k]: e.target.value })} hasError={!!errors[k]} errorMessage={err(k)} />
      ))}
      <TextField label={t("connections.token")} name="token" value={f.token} onChange={(e) => setF({ ...f, token: e.target.value })} autoComplete="off" />
      <Flex gap="1rem" wrap="wrap">
        {NUMS.map((k) => (
          <TextField
            key={k}
            flex="1 1 10rem"
            type="number"
            inputMode="numeric"
            min={0}
            label={t(`connections.${k}`)}
            name={k}
            value={String(f[k])}
            onChange={(e) => setF({ ...f, [k]: e.target.value === "" ? 0 : Number(e.target.value) })}
            hasError={!!errors[k]}
            errorMessage={err(k)}
          />
        ))}
      </Flex>
      <SelectField label={t("connections.transferQueueId")} value={f.transferQueueId ? String(f.transferQueueId) : ""} onChange={(e) => setF({ ...f, transferQueueId: e.target.value ? Number(e.target.value) : null })}>
        <option value="">—</option>
        {(queues.data ?? []).map((q) => (
          <option key={q.id} value={q.id}>
            {q.name}
          </option>
        ))}
      </SelectField>
    </Dialog>
  );
}
