/**
 * The ticket's notes in the contact drawer (docs/product/tickets.md#notes), the tickets feature's `contactDrawer`
 * section: add with at least 2 characters, delete (the author, or whoever holds `notes:deleteAny`); toasts
 * 'Observação adicionada com sucesso!' and 'Observação excluída com sucesso!'.
 */
import { can } from "@atende/shared/access/permissions";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { useToast } from "../../ui/Toast.tsx";
import { useAddNote, useDeleteNote, useNotes } from "./api.ts";
import { dayOf, timeOf } from "./format.ts";
import type { Ticket } from "./types.ts";

export function NotesSection({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const toast = useToast();
  const me = useSession()!.user;
  const notes = useNotes(ticket.id, ticket.contactId);
  const add = useAddNote();
  const del = useDeleteNote();
  const [note, setNote] = useState("");
  const [noteErr, setNoteErr] = useState("");

  const submitNote = async () => {
    if (note.trim().length < 2) {
      setNoteErr(t(note.trim() ? "validation.tooShort" : "validation.required"));
      return;
    }
    try {
      await add.mutateAsync({ note: note.trim(), ticketId: ticket.id, contactId: ticket.contactId });
      setNote("");
      setNoteErr("");
      toast.success(t("tickets.drawer.noteAdded"), { durationMs: 2000 });
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    }
  };

  return (
    <section>
      <h4>{t("tickets.drawer.notes")}</h4>
      <form
        className="note-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submitNote();
        }}
      >
        <textarea className="text-input" rows={2} value={note} onChange={(e) => setNote(e.target.value)} placeholder={t("tickets.drawer.notePlaceholder")} aria-label={t("tickets.drawer.notePlaceholder")} aria-invalid={!!noteErr} />
        {noteErr && <span className="field-error">{noteErr}</span>}
        <button type="submit" className="btn-primary" disabled={add.isPending}>
          {t("tickets.drawer.addNote")}
        </button>
      </form>
      {notes.isPending ? (
        <p className="sub-line">{t("common.loading")}</p>
      ) : notes.isError ? (
        <p className="sub-line">{errorMessage(notes.error, t)}</p>
      ) : !notes.data?.length ? (
        <p className="sub-line">{t("tickets.drawer.noNotes")}</p>
      ) : (
        <ul className="notes">
          {notes.data.map((n) => (
            <li key={n.id} data-testid="note">
              <div className="note-text">{n.note}</div>
              <div className="sub-line">
                {n.user?.name} · {dayOf(n.createdAt)} {timeOf(n.createdAt)}
              </div>
              {(n.userId === me.id || can(me, "notes:deleteAny")) && (
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={t("common.delete")}
                  onClick={async () => {
                    try {
                      await del.mutateAsync({ id: n.id, ticketId: ticket.id });
                      toast.success(t("tickets.drawer.noteDeleted"), { durationMs: 2000 });
                    } catch (e) {
                      toast.error(errorMessage(e, t), { durationMs: 2000 });
                    }
                  }}
                >
                  <Trash2 size={16} aria-hidden="true" />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
