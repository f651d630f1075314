/**
 * Accessible modal dialog on the native `<dialog>` element: `showModal()` makes the rest of the page inert
 * (focus stays inside), the first field gets focus on open, Escape closes (calls `onClose`), and the title
 * labels the dialog. On close, focus goes back to the control that opened it; when that control is gone (a row's
 * button replaced by another one meanwhile), to the page's main area, never to whatever took its place.
 */
import { Flex, Heading } from "@aws-amplify/ui-react";
import { useEffect, useId, useRef, type ReactNode } from "react";

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons shown at the bottom. */
  footer?: ReactNode;
  /** When set, the body is a form and Enter submits it. */
  onSubmit?: () => void;
  width?: string;
}

/** Focuses `opener` when it is still on the page, else the main area (`#main`), so no other control gets it. */
function returnFocus(opener: HTMLElement | null): void {
  if (opener?.isConnected) opener.focus();
  else document.getElementById("main")?.focus({ preventScroll: true });
}

export function Dialog({ open, title, onClose, children, footer, onSubmit, width = "32rem" }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
      const first = d.querySelector<HTMLElement>("input:not([type=hidden]):not([disabled]), select, textarea, button[data-autofocus]");
      first?.focus();
    } else if (!open && d.open) {
      d.close();
      returnFocus(opener.current);
      opener.current = null;
    }
  }, [open]);
  const body = (
    <Flex direction="column" gap="1rem">
      <Heading level={3} id={titleId} className="dialog-title">
        {title}
      </Heading>
      {children}
      {footer && (
        <Flex justifyContent="flex-end" gap="0.5rem" wrap="wrap">
          {footer}
        </Flex>
      )}
    </Flex>
  );
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      style={{ width: `min(${width}, calc(100vw - 2rem))` }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open &&
        (onSubmit ? (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              onSubmit();
            }}
          >
            {body}
          </form>
        ) : (
          body
        ))}
    </dialog>
  );
}
