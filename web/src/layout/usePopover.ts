/**
 * Open/close state of a top-bar popover: toggled by its button, closed by Escape (focus goes back to the button), by a
 * press outside the button and the panel, and by `close()` (e.g. after choosing an item); `show()` opens it.
 */
import { useCallback, useEffect, useId, useRef, useState } from "react";

export function usePopover() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const close = useCallback((refocus = false) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  const show = useCallback(() => setOpen(true), []);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        close(true);
      }
    };
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node | null;
      if (target && (panelRef.current?.contains(target) || buttonRef.current?.contains(target))) return;
      close(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
    };
  }, [open, close]);

  return {
    open,
    toggle,
    /** Opens the panel (e.g. a link or a notification pointing into it). */
    show,
    close,
    buttonRef,
    panelRef,
    /** Props for the toggling button. */
    buttonProps: { ref: buttonRef, "aria-expanded": open, "aria-controls": panelId, "aria-haspopup": "dialog" as const, onClick: toggle },
    /** Props for the panel. */
    panelProps: { ref: panelRef, id: panelId },
  };
}
