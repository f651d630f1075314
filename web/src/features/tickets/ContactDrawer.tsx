/**
 * Contact side drawer (docs/product/tickets.md#notes for the notes): name, number (tel link), email (mailto link),
 * extra info, edit form, and the ticket's notes (add with at least 2 characters, delete; toasts
 * 'Observação adicionada com sucesso!' and 'Observação excluída com sucesso!').
 */
import { can } from "@atende/shared/access/permissions";
import { Trash2, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { useToast } from "../../ui/Toast.tsx";
import { ContactDialog } from "../contacts/ContactDialog.tsx";
import { useAddNote, useDeleteNote, useNotes } from "./api.ts";
import { dayOf, formatPhone, timeOf } from "./format.ts";
import type { Ticket } from "./types.ts";
import { useContact, type Contact } from "../contacts/api.ts";

export function ContactDrawer({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const me = useSession()!.user;
  // The contacts feature's cache: live `company-{id}-contact` updates and saves reach the drawer.
  const contact = useContact(ticket.contactId);
  const notes = useNotes(ticket.id, ticket.contactId);
  const add = useAddNote();
  const del = useDeleteNote();
  const [note, setNote] = useState("");
  const [noteErr, setNoteErr] = useState("");
  const [editing, setEditing] = useState(false);
  const c = contact.data ?? (ticket.contact as unknown as Contact);
  const head = useRef<HTMLDivElement>(null);

  // Focus moves into the drawer when it opens; Escape closes it from anywhere on the page, unless a dialog or a menu
  // above it takes the key first.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    head.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      const target = e.target instanceof Element ? e.target : null;
      if (document.querySelector("dialog[open]") || target?.closest("[role=menu], [role=listbox], dialog")) return;
      close.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

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
    <aside className="contact-drawer" aria-label={t("tickets.drawer.title")} data-testid="contact-drawer">
      <div className="drawer-head" ref={head} tabIndex={-1}>
        <strong>{t("tickets.drawer.title")}</strong>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={t("tickets.drawer.close")}>
          <X size={18} aria-hidden="true" />
        </button>
      </div>
      <div className="drawer-body">
        <div className="drawer-contact">
          <Avatar name={c.name} url={c.profilePicUrl} size="4rem" />
          <strong className="drawer-name">{c.name}</strong>
          <a href={`tel:+${c.number}`}>{formatPhone(c.number)}</a>
          {c.email && <a href={`mailto:${c.email}`}>{c.email}</a>}
          <button type="button" className="btn-secondary" onClick={() => setEditing(true)}>
            {t("tickets.drawer.edit")}
          </button>
        </div>
        {!!c.extraInfo?.length && (
          <section>
            <h4>{t("tickets.drawer.extra")}</h4>
            <dl className="extra-list">
              {c.extraInfo.map((x, i) => (
                <div key={i}>
                  <dt>{x.name}</dt>
                  <dd>{x.value}</dd>
                </div>
              ))}
            </dl>
          </section>
        )}
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
      </div>
      <ContactDialog open={editing} contact={contact.data ?? null} onClose={() => setEditing(false)} />
    </aside>
  );
}

/** Round avatar: the picture when there is one, else the initial on a colour derived from the name. */
export function Avatar({ name, url, size = "2.5rem" }: { name: string; url?: string | null; size?: string }) {
  const [broken, setBroken] = useState(false);
  const hue = [...(name || "?")].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 7);
  if (url && !broken) return <img className="avatar" src={url} alt="" style={{ width: size, height: size }} onError={() => setBroken(true)} />;
  return (
    <span className="avatar avatar-initial" aria-hidden="true" style={{ width: size, height: size, background: `hsl(${hue} 45% 42%)` }}>
      {(name || "?").trim().charAt(0).toUpperCase()}
    </span>
  );
}
