/**
 * Contact search box (3 or more characters, 500 ms debounce) over `GET /api/contacts/list`, with an
 * optional "create new contact" entry when the typed name is not found (new ticket dialog). An accessible combobox
 * (downshift `useCombobox`): ArrowDown/ArrowUp move through the results, Enter chooses, Escape closes the list.
 */
import { useQuery } from "@tanstack/react-query";
import { useCombobox } from "downshift";
import { Plus, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ContactItem } from "@atende/shared/contacts/schema";
import { call } from "../../api/operations.ts";
import { useDebounced } from "../../ui/useDebounced.ts";
import { formatPhone } from "./format.ts";

export type Contact = ContactItem;

export function useContactSearch(term: string) {
  const q = useDebounced(term.trim(), 500);
  return useQuery({
    queryKey: ["contacts", "search", q],
    enabled: q.length >= 3,
    queryFn: () => call("GET /api/contacts/list", { query: { searchParam: q } }),
  });
}

/** One entry of the list: a found contact, or "create a contact named …". */
type Entry = { kind: "contact"; contact: Contact } | { kind: "create"; name: string };

export function ContactPicker(props: { label: string; value: Contact | null; onChange: (c: Contact | null) => void; onCreate?: (name: string) => void }) {
  const { t } = useTranslation();
  const [term, setTerm] = useState("");
  const res = useContactSearch(term);
  const typed = term.trim();
  const list = typed.length >= 3 ? (res.data ?? []) : [];
  const entries: Entry[] = list.map((contact) => ({ kind: "contact", contact }));
  if (props.onCreate && typed.length >= 3 && !res.isFetching && !list.some((c) => c.name.toLowerCase() === typed.toLowerCase())) entries.push({ kind: "create", name: typed });
  const cb = useCombobox<Entry>({
    items: entries,
    inputValue: term,
    selectedItem: null,
    itemToString: (e) => (e ? (e.kind === "contact" ? e.contact.name : e.name) : ""),
    onInputValueChange: ({ inputValue, type }) => {
      if (type === useCombobox.stateChangeTypes.InputChange) setTerm(inputValue ?? "");
    },
    onSelectedItemChange: ({ selectedItem }) => {
      if (!selectedItem) return;
      if (selectedItem.kind === "contact") props.onChange(selectedItem.contact);
      else props.onCreate?.(selectedItem.name);
    },
  });
  if (props.value)
    return (
      <div className="picked">
        <span className="sub-label">{props.label}</span>
        <div className="picked-row">
          <strong>{props.value.name}</strong> <span className="sub-line">{formatPhone(props.value.number)}</span>
          <button type="button" className="icon-btn" onClick={() => props.onChange(null)} aria-label={t("tickets.newTicketDialog.clearContact")}>
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      </div>
    );
  const open = cb.isOpen && typed.length >= 3;
  const label = cb.getLabelProps();
  return (
    <div className="contact-picker">
      <label className="field" id={label.id} htmlFor={label.htmlFor}>
        <span className="sub-label">{props.label}</span>
      </label>
      <input
        className="text-input"
        placeholder={t("tickets.newTicketDialog.contactPlaceholder")}
        {...cb.getInputProps({
          onKeyDown: (e) => {
            // Enter on a highlighted entry chooses it; it must not submit the dialog's form.
            if (e.key === "Enter" && open && cb.highlightedIndex >= 0) e.preventDefault();
          },
        })}
      />
      <ul className="picker-list" {...cb.getMenuProps()} hidden={!open}>
        {open && res.isFetching && !list.length && (
          <li className="sub-line" role="presentation">
            {t("common.loading")}
          </li>
        )}
        {open &&
          entries.map((e, index) => (
            <li key={e.kind === "contact" ? e.contact.id : "create"} className={`picker-option ${cb.highlightedIndex === index ? "highlighted" : ""}`} {...cb.getItemProps({ item: e, index })}>
              {e.kind === "contact" ? (
                <>
                  <strong>{e.contact.name}</strong> <span className="sub-line">{formatPhone(e.contact.number)}</span>
                </>
              ) : (
                <>
                  <Plus size={14} aria-hidden="true" /> {t("tickets.newTicketDialog.createContact", { name: e.name })}
                </>
              )}
            </li>
          ))}
      </ul>
    </div>
  );
}
