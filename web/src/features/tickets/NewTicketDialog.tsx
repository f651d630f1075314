/**
 * New ticket dialog: contact search with create-new, queue select (required for
 * non-admins: 'Selecione uma fila'; an admin in no queue is offered the company's queues), connection select; the button stays disabled until a contact is chosen.
 * `ERR_OTHER_OPEN_TICKET`: the current user's own ticket → close and open it; another user's → say who and where.
 */
import { can } from "@atende/shared/access/permissions";
import { Button, Text } from "@aws-amplify/ui-react";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { HttpError } from "../../api/client.ts";
import { call } from "../../api/operations.ts";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { EntitySelect } from "../../ui/kit/index.ts";
import { useToast } from "../../ui/Toast.tsx";
import { ContactDialog } from "../contacts/ContactDialog.tsx";
import { useWhatsapps } from "../connections/api.ts";
import { queuesKeys } from "../queues/cache.ts";
import { useCreateTicket } from "./api.ts";
import { ContactPicker, type Contact } from "./ContactPicker.tsx";
import type { Ticket } from "./types.ts";

/**
 * Who holds the contact's existing ticket, as the dialog says it: the agent and the queue when there are both, and
 * in words of their own when the ticket waits with no agent or has no queue.
 */
export function otherTicketText(t: TFunction, other: Pick<Ticket, "user" | "queue">): string {
  const user = other.user?.name;
  const queue = other.queue?.name;
  if (user) return queue ? t("tickets.newTicketDialog.otherUser", { user, queue }) : t("tickets.newTicketDialog.otherUserNoQueue", { user });
  return queue ? t("tickets.newTicketDialog.otherWaitingInQueue", { queue }) : t("tickets.newTicketDialog.otherWaiting");
}

export function NewTicketDialog(props: { open: boolean; onClose: () => void; initialContact?: Contact | null }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const user = useSession()!.user;
  const admin = can(user, "tickets:seeAll");
  const wa = useWhatsapps(props.open);
  const create = useCreateTicket();
  // An admin outside every queue may still open a ticket in any of the company's queues.
  const ownQueues = user.queues ?? [];
  const companyQueues = useQuery({ queryKey: queuesKeys.all, queryFn: () => call("GET /api/queue"), enabled: props.open && admin && !ownQueues.length });
  const queues = ownQueues.length ? ownQueues : admin ? (companyQueues.data ?? []) : [];
  const [contact, setContact] = useState<Contact | null>(null);
  const [queueId, setQueueId] = useState<number | null>(null);
  const [whatsappId, setWhatsappId] = useState<number | null>(null);
  const [queueError, setQueueError] = useState("");
  const [otherInfo, setOtherInfo] = useState("");
  const [newName, setNewName] = useState<string | null>(null);

  useEffect(() => {
    if (!props.open) return;
    setContact(props.initialContact ?? null);
    setQueueId(user.queues?.length === 1 ? user.queues[0].id : null);
    setWhatsappId(user.whatsappId ?? null);
    setQueueError("");
    setOtherInfo("");
  }, [props.open]); // eslint-disable-line react-hooks/exhaustive-deps

  const submit = async () => {
    if (!contact) return;
    if (!queueId && !admin) {
      setQueueError(t("tickets.newTicketDialog.selectQueue"));
      return;
    }
    try {
      const ticket = await create.mutateAsync({
        contactId: contact.id,
        queueId,
        whatsappId,
        userId: user.id,
        status: "open",
      });
      props.onClose();
      navigate(`/tickets/${ticket.uuid}`);
    } catch (e) {
      if (e instanceof HttpError && e.code === "ERR_OTHER_OPEN_TICKET") {
        const other = (e.body as { ticket?: Ticket | null })?.ticket;
        if (other && other.userId === user.id) {
          props.onClose();
          navigate(`/tickets/${other.uuid}`);
          return;
        }
        if (other) {
          setOtherInfo(otherTicketText(t, other));
          return;
        }
      }
      if (e instanceof HttpError && e.code === "ERR_VALIDATION") setQueueError(t("tickets.newTicketDialog.selectQueue"));
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    }
  };

  return (
    <>
      <Dialog
        open={props.open && newName === null}
        title={t("tickets.newTicketDialog.title")}
        onClose={props.onClose}
        onSubmit={submit}
        footer={
          <>
            <Button onClick={props.onClose}>{t("common.cancel")}</Button>
            <Button type="submit" variation="primary" isDisabled={!contact} isLoading={create.isPending}>
              {t("tickets.newTicketDialog.submit")}
            </Button>
          </>
        }
      >
        <ContactPicker label={t("tickets.newTicketDialog.contact")} value={contact} onChange={setContact} onCreate={(name) => setNewName(name)} />
        <EntitySelect
          label={t("tickets.newTicketDialog.queue")}
          items={queues}
          value={queueId}
          placeholder={t("tickets.newTicketDialog.selectQueue")}
          onChange={(id) => {
            setQueueId(id);
            setQueueError("");
          }}
          error={queueError}
          testId="new-ticket-queue"
        />
        <EntitySelect
          label={t("tickets.newTicketDialog.connection")}
          items={wa.data ?? []}
          value={whatsappId}
          onChange={setWhatsappId}
          noneLabel={t("tickets.newTicketDialog.defaultConnection")}
          testId="new-ticket-connection"
        />
        {otherInfo && (
          <Text role="alert" variation="warning">
            {otherInfo}
          </Text>
        )}
      </Dialog>
      <ContactDialog
        open={newName !== null}
        contact={null}
        initialName={newName ?? ""}
        onClose={() => setNewName(null)}
        onSaved={(c) => {
          setContact(c);
          setNewName(null);
        }}
      />
    </>
  );
}
