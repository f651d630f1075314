/**
 * Transfer ticket dialog (docs/product/tickets.md#statuses-and-transitions): queue (required: 'Selecione uma fila'),
 * user among that queue's users, and connection. It opens on the ticket's queue and "Sem usuário"; the transfer button
 * stays disabled until the queue differs or a user other than the current one is chosen, so it never returns the
 * ticket to the waiting list by a mere click (Devolver does that). A queue without a user leaves the ticket pending
 * with no user. Then /tickets.
 */
import { Button, Text } from "@aws-amplify/ui-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { errorMessage } from "../../api/errors.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { EntitySelect } from "../../ui/kit/index.ts";
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
  const [userId, setUserId] = useState<number | null>(null);
  const [queueId, setQueueId] = useState<number | null>(null);
  const [whatsappId, setWhatsappId] = useState<number | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    if (!open) return;
    setUserId(null);
    setQueueId(ticket.queueId ?? null);
    setWhatsappId(ticket.whatsappId);
    setError("");
  }, [open, ticket]);
  const changed = queueId !== (ticket.queueId ?? null) || (userId !== null && userId !== ticket.userId);
  // The users who may take the ticket in the chosen queue.
  const inQueue = (u: { queues?: { id: number }[] }, q: number | null) => q === null || !!u.queues?.some((x) => x.id === q);
  const queueUsers = (users.data ?? []).filter((u) => inQueue(u, queueId));
  const submit = async () => {
    if (!changed) return;
    if (!queueId) {
      setError(t("tickets.transferDialog.queueRequired"));
      return;
    }
    try {
      await update.mutateAsync({
        id: ticket.id,
        body: { userId, queueId, whatsappId: whatsappId ?? ticket.whatsappId, status: userId ? "open" : "pending" },
      });
      toast.success(t("tickets.transferDialog.done"), { durationMs: 2000 });
      onClose();
      navigate("/tickets");
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    }
  };
  return (
    <Dialog
      open={open}
      title={t("tickets.transferDialog.title")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isDisabled={!changed} isLoading={update.isPending} data-testid="transfer-submit">
            {t("tickets.transferDialog.submit")}
          </Button>
        </>
      }
    >
      <EntitySelect
        label={t("tickets.transferDialog.queue")}
        items={queues.data ?? []}
        value={queueId}
        placeholder={t("tickets.transferDialog.queueRequired")}
        onChange={(next) => {
          setQueueId(next);
          setError("");
          // A user outside the new queue is no longer a choice.
          const chosen = users.data?.find((u) => u.id === userId);
          if (chosen && !inQueue(chosen, next)) setUserId(null);
        }}
        error={error}
        isRequired
        testId="transfer-queue"
      />
      <EntitySelect
        label={t("tickets.transferDialog.user")}
        items={queueUsers}
        value={userId}
        onChange={setUserId}
        noneLabel={t("tickets.transferDialog.noUser")}
        descriptiveText={queueId && !queueUsers.length ? t("tickets.transferDialog.noUsersInQueue") : undefined}
        testId="transfer-user"
      />
      {!changed && (
        <Text fontSize="small" variation="secondary" data-testid="transfer-unchanged">
          {t("tickets.transferDialog.unchanged")}
        </Text>
      )}
      <EntitySelect label={t("tickets.transferDialog.connection")} items={wa.data ?? []} value={whatsappId} onChange={setWhatsappId} isRequired testId="transfer-connection" />
    </Dialog>
  );
}
