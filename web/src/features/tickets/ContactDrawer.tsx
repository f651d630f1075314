/**
 * Contact side drawer: name, number (tel link), email (mailto link), extra info, edit form, then the features'
 * sections (the `contactDrawer` slot: the ticket's notes, `NotesSection.tsx`, docs/product/tickets.md#notes).
 */
import { X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ContactDialog } from "../contacts/ContactDialog.tsx";
import { useSlot } from "../slots.ts";
import { formatPhone } from "./format.ts";
import type { Ticket } from "./types.ts";
import { useContact, type Contact } from "../contacts/api.ts";

export function ContactDrawer({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  // The contacts feature's cache: live `company-{id}-contact` updates and saves reach the drawer.
  const contact = useContact(ticket.contactId);
  const [editing, setEditing] = useState(false);
  const sections = useSlot("contactDrawer");
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
        {sections.map((x) => (
          <x.Component key={x.id} ticket={ticket} />
        ))}
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
