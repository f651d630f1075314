/**
 * The contact drawer's schedules section (the schedules feature's `contactDrawer` slot): the contact's schedules,
 * latest first, with their status; choosing one opens it; "Agendar mensagem" opens the dialog for this contact and
 * conversation.
 */
import { Button, Flex, Heading, Text } from "@aws-amplify/ui-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TicketView } from "@atende/shared/tickets/schema";
import { type Schedule, useContactSchedules } from "./api.ts";
import { ScheduleDialog } from "./ScheduleDialog.tsx";
import { StatusBadge } from "./StatusBadge.tsx";

export function ContactSchedules({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation();
  const list = useContactSchedules(ticket.contactId);
  const [open, setOpen] = useState<Schedule | "new" | null>(null);
  return (
    <section className="schedules-drawer" aria-labelledby="contact-schedules-title" data-testid="contact-schedules">
      <Flex justifyContent="space-between" alignItems="center">
        <Heading level={5} id="contact-schedules-title">
          {t("schedules.drawerTitle")}
        </Heading>
        <Button size="small" onClick={() => setOpen("new")} data-testid="contact-schedule-add">
          {t("schedules.action")}
        </Button>
      </Flex>
      {list.isPending ? (
        <Text variation="secondary">{t("schedules.loading")}</Text>
      ) : !list.data?.length ? (
        <Text variation="secondary">{t("schedules.empty")}</Text>
      ) : (
        <ul>
          {list.data.map((s) => (
            <li key={s.id}>
              <button type="button" onClick={() => setOpen(s)} data-testid="contact-schedule" data-schedule-id={s.id}>
                <Text fontSize="small">{new Date(s.sendAt).toLocaleString()}</Text>
                <Text className="cell-clip">{s.body}</Text>
                <StatusBadge schedule={s} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <ScheduleDialog
          open
          record={open === "new" ? null : open}
          onClose={() => setOpen(null)}
          contact={open === "new" ? ticket.contact : undefined}
          ticketId={open === "new" ? ticket.id : undefined}
        />
      )}
    </section>
  );
}
