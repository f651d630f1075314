/**
 * Contact search box (attendance.md §5: 3 or more characters, 500 ms debounce) over `GET /api/contacts/list`, with an
 * optional "create new contact" entry when the typed name is not found (new ticket dialog).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ContactItem } from "@atende/shared/contacts/schema";
import { apiRequest } from "../../api/client.ts";
import { useDebounced } from "../../ui/useDebounced.ts";
import { formatPhone } from "./format.ts";

export type Contact = ContactItem;

export function useContactSearch(term: string) {
  const q = useDebounced(term.trim(), 500);
  return useQuery({
    queryKey: ["contacts", "search", q],
    enabled: q.length >= 3,
    queryFn: () => apiRequest<Contact[]>("GET", "/contacts/list", { query: { searchParam: q } }),
  });
}

export function ContactPicker(props: { label: string; value: Contact | null; onChange: (c: Contact | null) => void; onCreate?: (name: string) => void }) {
  const { t } = useTranslation();
  const [term, setTerm] = useState("");
  const res = useContactSearch(term);
  const list = res.data ?? [];
  if (props.value)
    return (
      <div className="picked">
        <span className="sub-label">{props.label}</span>
        <div className="picked-row">
          <strong>{props.value.name}</strong> <span className="sub-line">{formatPhone(props.value.number)}</span>
          <button type="button" className="icon-btn" onClick={() => props.onChange(null)} aria-label={t("common.cancel")}>
            ✕
          </button>
        </div>
      </div>
    );
  return (
    <div className="contact-picker">
      <label className="field">
        <span className="sub-label">{props.label}</span>
        <input className="text-input" value={term} onChange={(e) => setTerm(e.target.value)} placeholder={t("tickets.newTicketDialog.contactPlaceholder")} autoComplete="off" />
      </label>
      {term.trim().length >= 3 && (
        <ul className="picker-list" role="listbox" aria-label={props.label}>
          {res.isFetching && !list.length && <li className="sub-line">{t("common.loading")}</li>}
          {list.map((c) => (
            <li key={c.id}>
              <button type="button" role="option" aria-selected={false} onClick={() => props.onChange(c)}>
                <strong>{c.name}</strong> <span className="sub-line">{formatPhone(c.number)}</span>
              </button>
            </li>
          ))}
          {props.onCreate && !res.isFetching && !list.some((c) => c.name.toLowerCase() === term.trim().toLowerCase()) && (
            <li>
              <button type="button" onClick={() => props.onCreate!(term.trim())}>
                ➕ {t("tickets.newTicketDialog.createContact", { name: term.trim() })}
              </button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
