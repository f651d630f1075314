/**
 * Transfer ticket dialog (docs/product/tickets.md#statuses-and-transitions): user and/or queue (a queue is required:
 * 'Selecione uma fila') and connection. A queue without a user leaves the ticket pending with no user. Then /tickets.
 */
import { Button, SelectField } from "@aws-amplify/ui-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { errorMessage } from "../../api/errors.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { useWhatsapps } from "../connections/api.ts";
import { useQueues } from "../queues/api.ts";
import { useUserList } from "../users/api.ts";
import { useUpdateTicket } from "./api.ts";
import type { Ticket } from "./types.ts";

export function TransferDialog({ open, ticket, onClose }: { open: boolean; ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const users = useUserList();
  const queues = useQueues();
  const wa = useWhatsapps(open);
  const update = useUpdateTicket();
  const [userId, setUserId] = useState("");
  const [queueId, setQueueId] = useState("");
  const [whatsappId, setWhatsappId] = useState("");
  const [error, setError] = useState("");
  useEffect(() => {
    if (!open) return;
    setUserId("");
    setQueueId(ticket.queueId ? String(ticket.queueId) : "");
    setWhatsappId(String(ticket.whatsappId));
    setError("");
  }, [open, ticket]);
  const selectedUser = users.data?.find((u) => String(u.id) === userId);
  const submit = async () => {
    if (!queueId) {
      setError(t("tickets.transferDialog.queueRequired"));
      return;
    }
    try {
      await update.mutateAsync({
        id: ticket.id,
        body: {
          userId: userId ? Number(userId) : null,
          queueId: Number(queueId),
          whatsappId: Number(whatsappId) || ticket.whatsappId,
          status: userId ? "open" : "pending",
        },
      });
      toast.success(t("tickets.transferDialog.done"), { durationMs: 2000 });
      onClose();
      navigate("/tickets");
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    }
  };
  const queueOptions = selectedUser?.queues?.length ? selectedUser.queues : (queues.data ?? []);
  return (
    <Dialog
      open={open}
      title={t("tickets.transferDialog.title")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isLoading={update.isPending}>
            {t("tickets.transferDialog.submit")}
          </Button>
        </>
      }
    >
      <SelectField label={t("tickets.transferDialog.user")} value={userId} onChange={(e) => setUserId(e.target.value)}>
        <option value="">{t("tickets.transferDialog.noUser")}</option>
        {(users.data ?? []).map((u) => (
          <option key={u.id} value={u.id}>
            {u.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t("tickets.transferDialog.queue")}
        value={queueId}
        onChange={(e) => {
          setQueueId(e.target.value);
          setError("");
        }}
        hasError={!!error}
        errorMessage={error}
        isRequired
      >
        <option value="">{t("tickets.transferDialog.queueRequired")}</option>
        {queueOptions.map((q) => (
          <option key={q.id} value={q.id}>
            {q.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("tickets.transferDialog.connection")} value={whatsappId} onChange={(e) => setWhatsappId(e.target.value)} isRequired>
        {(wa.data ?? []).map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </SelectField>
    </Dialog>
  );
}
