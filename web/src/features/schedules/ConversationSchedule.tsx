/**
 * The conversation header's "Agendar mensagem" button (the schedules feature's `conversationHeader` slot): opens the
 * schedule dialog for the ticket's contact, sent through this conversation's connection. Hidden below 600 px (the contact
 * drawer offers the same there), so the contact's name stays readable.
 */
import { CalendarClock } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TicketView } from "@atende/shared/tickets/schema";
import { ScheduleDialog } from "./ScheduleDialog.tsx";
import "./schedules.css";

export function ConversationSchedule({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="icon-btn schedule-header-btn" onClick={() => setOpen(true)} aria-label={t("schedules.action")} title={t("schedules.action")} data-testid="conversation-schedule">
        <CalendarClock size={20} aria-hidden="true" />
      </button>
      {open && <ScheduleDialog open record={null} onClose={() => setOpen(false)} contact={ticket.contact} ticketId={ticket.id} />}
    </>
  );
}
