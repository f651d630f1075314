/**
 * The kit's one select of a record (a queue, a user, a connection, a tag...): a downshift combobox whose text box
 * filters the choices as one types (accent- and case-insensitive), opened by a click, typing, ArrowDown or the toggle
 * button (not by focus alone, so a dialog's first field does not cover the next);
 * the arrows move, Enter or a click chooses, Escape closes. An optional "none" choice (`noneLabel`, e.g. 'Sem usuário')
 * stands for null. A colour dot shows each record's `color` when it has one.
 */
import { useCombobox } from "downshift";
import { ChevronDown } from "lucide-react";
import { useEffect, useId, useState } from "react";

/** A choice: the record's id, its name, and optionally its colour and a second line. */
export interface EntityOption {
  id: number;
  name: string;
  color?: string | null;
  detail?: string;
}

export interface EntitySelectProps {
  label: string;
  /** Keeps the label for screen readers only (a compact filter). */
  labelHidden?: boolean;
  items: readonly EntityOption[];
  /** The chosen id; null for none. */
  value: number | null;
  onChange: (id: number | null) => void;
  /** Offers a first choice standing for null with this text. */
  noneLabel?: string;
  /** Shown in the empty box when nothing is chosen. */
  placeholder?: string;
  error?: string;
  descriptiveText?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  /** Shown as the list's only line when no choice matches. */
  emptyText?: string;
  testId?: string;
}

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const NONE: EntityOption = { id: -1, name: "" };

export function EntitySelect(p: EntitySelectProps) {
  const none = p.noneLabel !== undefined ? { ...NONE, name: p.noneLabel } : null;
  const all = none ? [none, ...p.items] : [...p.items];
  const selected = p.value === null ? none : (p.items.find((x) => x.id === p.value) ?? null);
  const [term, setTerm] = useState(selected?.name ?? "");
  const [typing, setTyping] = useState(false);
  useEffect(() => {
    if (!typing) setTerm(selected?.name ?? "");
  }, [selected?.name, typing]);
  const shown = typing && term.trim() ? all.filter((x) => fold(x.name).includes(fold(term.trim()))) : all;
  const id = useId();
  const cb = useCombobox<EntityOption>({
    inputId: `${id}-input`,
    labelId: `${id}-label`,
    menuId: `${id}-menu`,
    items: shown,
    selectedItem: selected,
    inputValue: term,
    itemToString: (x) => x?.name ?? "",
    itemToKey: (x) => x?.id,
    onInputValueChange: ({ inputValue, type }) => {
      if (type !== useCombobox.stateChangeTypes.InputChange) return;
      setTyping(true);
      setTerm(inputValue ?? "");
    },
    onSelectedItemChange: ({ selectedItem }) => {
      setTyping(false);
      if (selectedItem) p.onChange(selectedItem.id === NONE.id ? null : selectedItem.id);
    },
    onIsOpenChange: ({ isOpen }) => {
      // Closing without a choice puts the chosen record's name back in the box.
      if (!isOpen) {
        setTyping(false);
        setTerm(selected?.name ?? "");
      }
    },
  });
  const errorId = p.error ? `${id}-error` : undefined;
  const hintId = p.descriptiveText ? `${id}-hint` : undefined;
  return (
    <div className="entity-select amplify-field" data-testid={p.testId}>
      <label className={p.labelHidden ? "sr-only" : "amplify-label"} id={`${id}-label`} htmlFor={`${id}-input`}>
        {p.label}
        {p.isRequired ? <span aria-hidden="true"> *</span> : null}
      </label>
      {p.descriptiveText && (
        <span className="entity-select-hint" id={hintId}>
          {p.descriptiveText}
        </span>
      )}
      <div className={`entity-select-box ${p.error ? "has-error" : ""}`}>
        {selected?.color ? <span className="swatch" style={{ background: selected.color }} aria-hidden="true" /> : null}
        <input
          className="entity-select-input"
          placeholder={p.placeholder}
          disabled={p.isDisabled}
          aria-invalid={!!p.error}
          aria-required={p.isRequired}
          {...cb.getInputProps({
            "aria-describedby": [errorId, hintId].filter(Boolean).join(" ") || undefined,
            onKeyDown: (e) => {
              // Enter on a highlighted choice chooses it; it must not submit the dialog's form.
              if (e.key === "Enter" && cb.isOpen && cb.highlightedIndex >= 0) e.preventDefault();
              // Escape with the list open closes the list only, not the dialog around it.
              if (e.key === "Escape" && cb.isOpen) {
                e.preventDefault();
                e.stopPropagation();
              }
            },
          })}
        />
        <button type="button" className="icon-btn entity-select-toggle" tabIndex={-1} disabled={p.isDisabled} {...cb.getToggleButtonProps()}>
          <ChevronDown size={16} aria-hidden="true" />
        </button>
      </div>
      <ul className="picker-list entity-select-list" {...cb.getMenuProps()} hidden={!cb.isOpen}>
        {cb.isOpen && !shown.length && p.emptyText && (
          <li className="sub-line" role="presentation">
            {p.emptyText}
          </li>
        )}
        {cb.isOpen &&
          shown.map((x, index) => (
            <li key={x.id} className={`picker-option ${cb.highlightedIndex === index ? "highlighted" : ""} ${x.id === NONE.id ? "entity-none" : ""}`} {...cb.getItemProps({ item: x, index })}>
              {x.color ? <span className="swatch" style={{ background: x.color }} aria-hidden="true" /> : null}
              <span>{x.name}</span>
              {x.detail && <span className="sub-line">{x.detail}</span>}
            </li>
          ))}
      </ul>
      {p.error && (
        <span className="field-error" id={errorId} role="alert">
          {p.error}
        </span>
      )}
    </div>
  );
}
