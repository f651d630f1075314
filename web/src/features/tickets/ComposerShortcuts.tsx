/**
 * The composer's "/" suggestions (offered while the typed text starts with a slash): every feature's `composerShortcuts` provider is asked for the text after "/", their suggestions form one
 * list above the box, moved through with the arrows, chosen with Enter or a click, closed with Escape. The text box
 * keeps the focus (`aria-activedescendant` names the highlighted option), so typing goes on narrowing the list.
 */
import { useCallback, useEffect, useId, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { useSlot } from "../slots.ts";
import type { ComposerApi, ShortcutProvider, ShortcutSuggestion } from "../types.ts";
import type { Ticket } from "./types.ts";

/** Same suggestions shown (a provider's `choose` may be a new function on each render; the shown list decides). */
const sameList = (a: ShortcutSuggestion[] | undefined, b: ShortcutSuggestion[]) =>
  !!a && a.length === b.length && a.every((x, i) => x.key === b[i].key && x.label === b[i].label && x.detail === b[i].detail);

/** Asks one provider (its `useSuggestions` is a hook, so each provider is a component of its own). */
function Source({ provider, query, ticket, active, onResult }: { provider: ShortcutProvider; query: string; ticket: Ticket; active: boolean; onResult: (id: string, xs: ShortcutSuggestion[]) => void }) {
  const found = provider.useSuggestions(query, ticket, active);
  useEffect(() => onResult(provider.id, active ? found : []), [provider.id, found, active, onResult]);
  return null;
}

/**
 * The "/" list of a composer whose text is `text`. Returns the sources to render (they fetch), the list, the props the
 * text box takes (combobox role and state) and its key handler, which answers true when it used the key.
 */
export function useShortcuts(text: string, composer: ComposerApi) {
  const { t } = useTranslation();
  const providers = useSlot("composerShortcuts");
  const listId = useId();
  const [results, setResults] = useState<Record<string, ShortcutSuggestion[]>>({});
  const [highlighted, setHighlighted] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const active = providers.length > 0 && text.startsWith("/") && !dismissed;
  const query = active ? text.slice(1) : "";
  const items = active ? providers.flatMap((p) => (results[p.id] ?? []).map((s) => ({ ...s, key: `${p.id}:${s.key}` }))) : [];
  const open = active && items.length > 0;
  const at = Math.min(highlighted, Math.max(0, items.length - 1));

  useEffect(() => setHighlighted(0), [query]);
  useEffect(() => {
    if (!text.startsWith("/")) setDismissed(false);
  }, [text]);
  // A provider may answer a new array with the same suggestions on every render: only a different list is stored.
  const onResult = useCallback((id: string, xs: ShortcutSuggestion[]) => setResults((r) => (sameList(r[id], xs) ? r : { ...r, [id]: xs })), []);

  const choose = (s: ShortcutSuggestion) => {
    setDismissed(true);
    void s.choose(composer);
  };
  const optionId = (i: number) => `${listId}-${i}`;

  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setHighlighted((at + step + items.length) % items.length);
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
      e.preventDefault();
      choose(items[at]);
      return true;
    }
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      setDismissed(true);
      return true;
    }
    return false;
  };

  const sources = providers.map((p) => <Source key={p.id} provider={p} query={query} ticket={composer.ticket} active={active} onResult={onResult} />);
  const list = open ? (
    <div className="shortcut-list" id={listId} role="listbox" aria-label={t("tickets.composer.shortcuts")} data-testid="shortcut-list">
      {items.map((s, i) => (
        <div
          key={s.key}
          id={optionId(i)}
          role="option"
          tabIndex={-1}
          aria-selected={i === at}
          className={`shortcut-item ${i === at ? "active" : ""}`}
          // Keep the focus in the text box: the click chooses, the box keeps the caret.
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => setHighlighted(i)}
          onClick={() => choose(s)}
          onKeyDown={(e) => e.key === "Enter" && choose(s)}
        >
          <strong className="shortcut-label">{s.label}</strong>
          {s.detail && <span className="shortcut-detail">{s.detail}</span>}
        </div>
      ))}
    </div>
  ) : null;
  // The box stays a textbox (a multi-line combobox is not one ARIA knows): it names the list it controls and the
  // highlighted option, which screen readers announce as the arrows move.
  const inputProps = providers.length ? { "aria-autocomplete": "list" as const, "aria-controls": open ? listId : undefined, "aria-activedescendant": open ? optionId(at) : undefined } : {};
  return { sources, list, inputProps, onKeyDown };
}
